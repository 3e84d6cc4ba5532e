import type { GpuMetrics } from '@gpucloud/control-plane/api';
import { Empty, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { GpuMetricKind } from './gpu-metrics';

const GpuChart = lazy(() => import('./gpu-chart'));

/** The GPU chart, with echarts fetched only when a chart is first shown. */
export function LazyGpuChart({ metrics, kind }: { metrics: GpuMetrics | undefined; kind: GpuMetricKind }) {
  if (!metrics) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (metrics.samples.length === 0) return <Empty description="暂无监控数据" />;
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
      <GpuChart metrics={metrics} kind={kind} />
    </Suspense>
  );
}
