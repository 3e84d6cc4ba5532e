import { Tag } from 'antd';
import { statusDisplay } from '../status';

export function ContainerStatusTag({
  status,
  pullProgress,
}: {
  status: string;
  pullProgress?: number | null;
}) {
  const display = statusDisplay(status, pullProgress);
  return <Tag color={display.color}>{display.label}</Tag>;
}
