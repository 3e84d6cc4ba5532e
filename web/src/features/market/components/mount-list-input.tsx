import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex, Input, Select, Typography } from 'antd';
import { errorDetail } from '../../../lib/api-client';
import { useVolumes } from '../../storage/api/get-volumes';
import { canAddMount } from '../mounts';
import type { MountEntry } from '../types';

export interface MountListInputProps {
  id?: string;
  /** The server's node: only volumes there can be mounted. */
  nodeId?: number | undefined;
  value?: MountEntry[];
  onChange?: (mounts: MountEntry[]) => void;
}

/**
 * 挂载点: pairs of one of the user's volumes on the server's node (sent as its id) and a path
 * inside the container, which starts as the volume's own path.
 */
export function MountListInput({ id, nodeId, value = [], onChange }: MountListInputProps) {
  const { message } = App.useApp();
  const volumes = useVolumes(nodeId);
  const volumeOptions = (volumes.data ?? []).map((volume) => ({
    value: String(volume.id),
    label: volume.name,
  }));
  const pathOf = (source: string) => volumes.data?.find((v) => String(v.id) === source)?.path ?? '';

  const update = (index: number, patch: Partial<MountEntry>) =>
    onChange?.(value.map((mount, i) => (i === index ? { ...mount, ...patch } : mount)));

  const add = () => {
    const problem = canAddMount(value);
    if (problem) {
      message.warning(problem);
      return;
    }
    onChange?.([...value, { source: '', target: '' }]);
  };

  return (
    <Flex vertical gap={8} id={id}>
      {value.map((mount, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while being edited
        <Flex key={index} gap={8} align="center">
          <Select
            aria-label={`挂载点${index + 1}存储卷`}
            style={{ width: 200 }}
            placeholder="选择存储卷"
            value={mount.source || undefined}
            options={volumeOptions}
            onChange={(source: string) => update(index, { source, target: mount.target || pathOf(source) })}
          />
          <Input
            aria-label={`挂载点${index + 1}挂载路径`}
            style={{ width: 240 }}
            placeholder="容器内路径，如 /root/data"
            value={mount.target}
            onChange={(event) => update(index, { target: event.target.value })}
          />
          <Button
            type="text"
            danger
            aria-label="删除挂载点"
            icon={<DeleteOutlined />}
            onClick={() => onChange?.(value.filter((_, i) => i !== index))}
          />
        </Flex>
      ))}
      <div>
        <Button icon={<PlusOutlined />} onClick={add} disabled={volumeOptions.length === 0}>
          添加挂载点
        </Button>
      </div>
      {volumes.isError ? (
        <Typography.Text type="warning">获取存储卷列表失败：{errorDetail(volumes.error)}</Typography.Text>
      ) : volumes.isSuccess && volumeOptions.length === 0 ? (
        <Typography.Text type="secondary">
          该服务器所在节点暂无存储卷，可在「存储管理」中创建后挂载
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
