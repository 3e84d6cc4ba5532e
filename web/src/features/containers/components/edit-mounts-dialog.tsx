import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Container, VolumeSummary } from '@gpucloud/control-plane/api';
import {
  Alert,
  App,
  AutoComplete,
  Button,
  Descriptions,
  Flex,
  Input,
  Modal,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { withServerDetail } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth';
import { useVolumes } from '../../storage/api/get-volumes';
import { useUpdateContainerMounts } from '../api/container-commands';
import {
  checkMountRow,
  checkMounts,
  MAX_CONTAINER_MOUNTS,
  type MountRow,
  MSG_MOUNTS_MAX,
} from '../container-config';

/** The volume a mount source names: its id, its full name or the part after the username. */
function volumeOf(source: string, volumes: readonly VolumeSummary[], username: string) {
  const s = source.trim();
  return (
    volumes.find((v) => String(v.id) === s) ??
    volumes.find((v) => v.name === s) ??
    volumes.find((v) => v.name === `${username}-${s}`)
  );
}

/** How a volume is typed in the source field: the part after the username when that is plain. */
function sourceOf(volume: VolumeSummary, username: string): string {
  const short = volume.name.startsWith(`${username}-`) ? volume.name.slice(username.length + 1) : volume.name;
  return /^[A-Za-z0-9]+$/.test(short) ? short : String(volume.id);
}

function MountSummary({
  mounts,
  volumes,
  username,
}: {
  mounts: readonly MountRow[];
  volumes: readonly VolumeSummary[];
  username: string;
}) {
  if (mounts.length === 0) return <Typography.Text type="secondary">无</Typography.Text>;
  return (
    <Space direction="vertical" size={0}>
      {mounts.map((m) => (
        <Typography.Text key={`${m.source}:${m.target}`} className="mono">
          {volumeOf(m.source, volumes, username)?.name ?? m.source} → {m.target}
        </Typography.Text>
      ))}
    </Space>
  );
}

/** 修改挂载: the container's mounts, saved now and applied at the next start. */
export function EditMountsDialog({ container, onClose }: { container: Container; onClose: () => void }) {
  const { message } = App.useApp();
  const update = useUpdateContainerMounts();
  const username = useSession().user?.username ?? '';
  // Only volumes on the container's node can be mounted into it.
  const volumes = useVolumes(container.node_id).data ?? [];
  const volumeOptions = volumes.map((v) => ({
    value: sourceOf(v, username),
    label: `${v.name}（${v.path}）`,
  }));
  const [rows, setRows] = useState<MountRow[]>(() =>
    (container.pending_mounts ?? container.mounts ?? []).map((m) => ({ ...m })),
  );
  const [submitted, setSubmitted] = useState(false);
  const problem = checkMounts(rows);

  const edit = (index: number, patch: Partial<MountRow>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  const add = () => {
    if (rows.length >= MAX_CONTAINER_MOUNTS) {
      message.warning(MSG_MOUNTS_MAX);
      return;
    }
    setRows([...rows, { source: '', target: '' }]);
  };

  const save = () => {
    setSubmitted(true);
    if (problem) return;
    update.mutate(
      {
        id: container.container_id,
        mounts: rows.map((r) => ({ source: r.source.trim(), target: r.target.trim() })),
      },
      {
        onSuccess: () => {
          message.success('挂载点已更新，重启生效！');
          onClose();
        },
        onError: (err) => {
          message.error(withServerDetail('更新挂载点失败', err));
        },
      },
    );
  };

  return (
    <Modal
      open
      width={640}
      title={`修改挂载 - ${container.name || container.container_id}`}
      okText="保存"
      cancelText="取消"
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ loading: update.isPending }}
      maskClosable={false}
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Alert type="info" showIcon message="挂载点修改保存后，将在容器下次启动时生效。" />
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label="当前挂载">
            <MountSummary mounts={container.mounts ?? []} volumes={volumes} username={username} />
          </Descriptions.Item>
          {container.pending_mounts ? (
            <Descriptions.Item
              label={
                <Space size={4}>
                  待生效
                  <Tag color="gold">待重启生效</Tag>
                </Space>
              }
            >
              <MountSummary mounts={container.pending_mounts} volumes={volumes} username={username} />
            </Descriptions.Item>
          ) : null}
        </Descriptions>
        {rows.map((row, index) => {
          const rowProblem = submitted || row.source || row.target ? checkMountRow(row) : null;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while being edited
            <Flex key={index} vertical gap={4}>
              <Flex gap={8} align="center">
                <AutoComplete
                  style={{ width: '100%' }}
                  value={row.source}
                  options={volumeOptions}
                  onChange={(source: string) => edit(index, { source })}
                  onSelect={(source: string) =>
                    edit(index, {
                      source,
                      target: row.target || (volumeOf(source, volumes, username)?.path ?? ''),
                    })
                  }
                >
                  <Input
                    aria-label={`挂载点${index + 1}源路径`}
                    placeholder="源路径（存储卷名），如 data01"
                    status={rowProblem ? 'error' : undefined}
                  />
                </AutoComplete>
                <Input
                  aria-label={`挂载点${index + 1}目标路径`}
                  placeholder="容器内路径，如 /root/data"
                  value={row.target}
                  status={rowProblem ? 'error' : undefined}
                  onChange={(event) => edit(index, { target: event.target.value })}
                />
                <Button
                  type="text"
                  danger
                  aria-label={`删除挂载点${index + 1}`}
                  icon={<DeleteOutlined />}
                  onClick={() => setRows(rows.filter((_, i) => i !== index))}
                />
              </Flex>
              {rowProblem ? (
                <Typography.Text type="danger" role="alert">
                  {rowProblem}
                </Typography.Text>
              ) : row.source.trim() ? (
                <Typography.Text type="secondary">
                  {volumeOf(row.source, volumes, username)
                    ? `存储卷：${volumeOf(row.source, volumes, username)?.name}`
                    : '该节点上没有这个存储卷'}
                </Typography.Text>
              ) : null}
            </Flex>
          );
        })}
        <Button icon={<PlusOutlined />} onClick={add}>
          添加挂载点
        </Button>
      </Space>
    </Modal>
  );
}
