import type { Container, ContainerMetrics, ContainerMetricsRange } from '@gpucloud/control-plane/api';
import { Alert, Card, Drawer, Empty, Segmented, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { errorDetail } from '../../../lib/api-client';
import { useContainerMetrics } from '../api/get-container-metrics';
import { metricCharts } from '../container-metrics';
import { GpuProblemAlert } from './container-gpu';
import { DiskWarningAlert } from './disk-warning';

// echarts comes with the chart, the first time a chart is shown.
const ContainerMetricChart = lazy(() => import('./container-metric-chart'));

const RANGES: { label: string; value: ContainerMetricsRange }[] = [
  { label: '最近 1 小时', value: '1h' },
  { label: '最近 24 小时', value: '24h' },
];

function MetricCharts({ metrics }: { metrics: ContainerMetrics }) {
  const charts = useMemo(() => metricCharts(metrics), [metrics]);
  const step =
    metrics.step_seconds >= 300 ? '每 5 分钟一个点（平均值，提示中含峰值）' : '每分钟一个点（平均值）';
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{step}</Typography.Text>
      {charts.map((chart) => (
        <Card key={chart.kind} size="small" title={chart.title} data-testid={`metric-card-${chart.kind}`}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
            <ContainerMetricChart chart={chart} />
          </Suspense>
        </Card>
      ))}
    </Space>
  );
}

/**
 * 容器监控 (我的容器 → 更多 → 监控): utilisation, memory, temperature and power of each GPU the
 * container held, over 最近 1 小时 or 最近 24 小时.
 */
export function MetricsDrawer({ container, onClose }: { container: Container | null; onClose: () => void }) {
  const [range, setRange] = useState<ContainerMetricsRange>('1h');
  const metrics = useContainerMetrics(container?.container_id, range);
  const simulated = metrics.data?.simulated ?? container?.simulated ?? false;
  let body: ReactNode;
  if (metrics.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        message="获取监控数据失败"
        description={errorDetail(metrics.error)}
        data-testid="metrics-error"
      />
    );
  } else if (!metrics.data) {
    body = <Skeleton active paragraph={{ rows: 6 }} />;
  } else if (metrics.data.samples.length === 0) {
    body = (
      <Empty
        description={
          <Space direction="vertical" size={0}>
            <span>暂无监控数据</span>
            <Typography.Text type="secondary">容器运行且占用 GPU 时每分钟记录一次</Typography.Text>
          </Space>
        }
      />
    );
  } else {
    body = <MetricCharts metrics={metrics.data} />;
  }
  return (
    <Drawer open={container !== null} onClose={onClose} width={760} title="GPU 监控" destroyOnClose>
      {container ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <Typography.Text strong>{container.name || container.container_id}</Typography.Text>
            {simulated ? (
              <Tooltip title="该节点的 GPU 为模拟 GPU，监控数据为模拟值，仅供演示和测试">
                <Tag color="purple" data-testid="metrics-simulated">
                  模拟
                </Tag>
              </Tooltip>
            ) : null}
            <Segmented<ContainerMetricsRange> value={range} onChange={setRange} options={RANGES} />
          </Space>
          <GpuProblemAlert container={container} />
          <DiskWarningAlert container={container} />
          {body}
        </Space>
      ) : null}
    </Drawer>
  );
}
