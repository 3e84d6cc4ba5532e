import type { Volume } from '@gpucloud/control-plane/api';
import { Progress, Space, Tag, Typography } from 'antd';

/** 删除中 n% with a bar while the node deletes the volume; otherwise 可用, with why a delete failed. */
export function VolumeStatus({ volume }: { volume: Volume }) {
  if (volume.status === 'deleting') {
    const percent = volume.delete_progress ?? 0;
    return (
      <Space direction="vertical" size={0} style={{ minWidth: 120 }}>
        <Tag color="processing">删除中 {percent}%</Tag>
        <Progress percent={percent} size="small" showInfo={false} aria-label="删除进度" />
      </Space>
    );
  }
  return (
    <Space direction="vertical" size={0}>
      <Tag color="success">可用</Tag>
      {volume.delete_error ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          删除失败：{volume.delete_error}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
