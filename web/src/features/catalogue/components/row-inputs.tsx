import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Flex, Input, InputNumber } from 'antd';
import type { MountEntry } from '../../market/types';
import { MAX_DEFAULT_MOUNTS, MSG_MOUNTS_MAX, type PortRow } from '../rules';

export interface RowsInputProps<T> {
  id?: string;
  value?: T[];
  onChange?: (rows: T[]) => void;
}

function replaceAt<T>(rows: T[], index: number, next: T): T[] {
  return rows.map((row, i) => (i === index ? next : row));
}

/** A port map: rows of name → container port (ssh → 22, jupyter → 8888). */
export function PortsMapInput({ id, value = [], onChange }: RowsInputProps<PortRow>) {
  return (
    <Flex vertical gap={8} id={id}>
      {value.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while being edited
        <Flex key={index} gap={8} align="center">
          <Input
            aria-label={`端口${index + 1}名称`}
            placeholder="名称，如 ssh"
            style={{ width: 180 }}
            value={row.name}
            onChange={(event) => onChange?.(replaceAt(value, index, { ...row, name: event.target.value }))}
          />
          <InputNumber<number>
            aria-label={`端口${index + 1}端口号`}
            placeholder="端口，如 22"
            min={1}
            max={65535}
            precision={0}
            style={{ width: 140 }}
            value={row.port}
            onChange={(port) => onChange?.(replaceAt(value, index, { ...row, port }))}
          />
          <Button
            type="text"
            danger
            aria-label={`删除端口${index + 1}`}
            icon={<DeleteOutlined />}
            onClick={() => onChange?.(value.filter((_, i) => i !== index))}
          />
        </Flex>
      ))}
      <div>
        <Button icon={<PlusOutlined />} onClick={() => onChange?.([...value, { name: '', port: null }])}>
          添加端口
        </Button>
      </div>
    </Flex>
  );
}

/** Default mounts of a framework version: source → path inside the container. */
export function DefaultMountsInput({ id, value = [], onChange }: RowsInputProps<MountEntry>) {
  const { message } = App.useApp();
  return (
    <Flex vertical gap={8} id={id}>
      {value.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while being edited
        <Flex key={index} gap={8} align="center">
          <Input
            aria-label={`默认挂载${index + 1}源`}
            placeholder="源，如 datasets"
            value={row.source}
            onChange={(event) => onChange?.(replaceAt(value, index, { ...row, source: event.target.value }))}
          />
          <Input
            aria-label={`默认挂载${index + 1}目标路径`}
            placeholder="容器内路径，如 /root/datasets"
            value={row.target}
            onChange={(event) => onChange?.(replaceAt(value, index, { ...row, target: event.target.value }))}
          />
          <Button
            type="text"
            danger
            aria-label={`删除默认挂载${index + 1}`}
            icon={<DeleteOutlined />}
            onClick={() => onChange?.(value.filter((_, i) => i !== index))}
          />
        </Flex>
      ))}
      <div>
        <Button
          icon={<PlusOutlined />}
          onClick={() => {
            if (value.length >= MAX_DEFAULT_MOUNTS) message.warning(MSG_MOUNTS_MAX);
            else onChange?.([...value, { source: '', target: '' }]);
          }}
        >
          添加挂载
        </Button>
      </div>
    </Flex>
  );
}
