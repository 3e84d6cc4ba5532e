import { Progress, Space, Tag, Typography } from 'antd';
import { pullPhaseLabel, statusDisplay } from '../status';

/**
 * The status tag; 拉取镜像中 n% also has a bar and the pull's phase (下载中 / 解压中), from the
 * bytes the node reports.
 */
export function ContainerStatusTag({
  status,
  pullProgress,
  pullPhase,
}: {
  status: string;
  pullProgress?: number | null;
  pullPhase?: string | null;
}) {
  const display = statusDisplay(status, pullProgress);
  const tag = <Tag color={display.color}>{display.label}</Tag>;
  if (status !== 'pulling') return tag;
  return (
    <Space direction="vertical" size={0} style={{ minWidth: 120 }} data-testid="pull-progress">
      {tag}
      <Progress percent={pullProgress ?? 0} size="small" showInfo={false} aria-label="拉取进度" />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {pullPhaseLabel(pullPhase)}
      </Typography.Text>
    </Space>
  );
}
