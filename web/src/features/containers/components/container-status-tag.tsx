import { Tag } from 'antd';
import { statusDisplay } from '../status';

export function ContainerStatusTag({ status }: { status: string }) {
  const display = statusDisplay(status);
  return <Tag color={display.color}>{display.label}</Tag>;
}
