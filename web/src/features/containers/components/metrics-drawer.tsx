import type { Container } from '@gpucloud/control-plane/api';
import { Alert, Drawer, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { GpuMetricKind } from '../../../components/gpu-chart/gpu-metrics';
import { LazyGpuChart } from '../../../components/gpu-chart/lazy-gpu-chart';
import { errorDetail } from '../../../lib/api-client';
import { useContainerMetrics } from '../api/get-container-metrics';
import { GpuProblemAlert } from './container-gpu';
import { DiskWarningAlert } from './disk-warning';

/** 容器监控: utilisation and memory of the container's GPUs over the last hour. */
export function MetricsDrawer({ container, onClose }: { container: Container | null; onClose: () => void }) {
  const [kind, setKind] = useState<GpuMetricKind>('utilization');
  const metrics = useContainerMetrics(container?.container_id);
  return (
    <Drawer
      open={container !== null}
      onClose={onClose}
      width={720}
      title="GPU 监控（最近 60 分钟）"
      destroyOnClose
    >
      {container ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <Typography.Text strong>{container.name || container.container_id}</Typography.Text>
            {container.simulated ? <Tag color="purple">模拟 GPU</Tag> : null}
            <Segmented<GpuMetricKind>
              value={kind}
              onChange={setKind}
              options={[
                { label: '利用率', value: 'utilization' },
                { label: '显存', value: 'memory' },
              ]}
            />
          </Space>
          <GpuProblemAlert container={container} />
          <DiskWarningAlert container={container} />
          {metrics.isError ? (
            <Alert
              type="error"
              showIcon
              message="获取监控数据失败"
              description={errorDetail(metrics.error)}
            />
          ) : (
            <LazyGpuChart metrics={metrics.data} kind={kind} />
          )}
        </Space>
      ) : null}
    </Drawer>
  );
}
