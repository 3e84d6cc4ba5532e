import { Space, Tag, Typography } from 'antd';
import type { FrameworkPorts, MountEntry } from '../../market/types';

export function PortTags({ ports }: { ports: FrameworkPorts | undefined }) {
  const entries = Object.entries(ports ?? {});
  if (entries.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap>
      {entries.map(([name, port]) => (
        <Tag key={name}>{name === 'custom' ? `custom: ${String(port)}` : `${name}:${String(port)}`}</Tag>
      ))}
    </Space>
  );
}

export function MountTags({ mounts }: { mounts: MountEntry[] | undefined }) {
  if (!mounts || mounts.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap>
      {mounts.map((m) => (
        <Tag key={`${m.source}:${m.target}`}>
          {m.source} → {m.target}
        </Tag>
      ))}
    </Space>
  );
}
