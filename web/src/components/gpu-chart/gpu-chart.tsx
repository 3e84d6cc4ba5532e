import type { GpuMetrics } from '@gpucloud/control-plane/api';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { type GpuMetricKind, gpuSeries } from './gpu-metrics';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** A line chart of GPU utilisation or memory. Loaded lazily (see lazy-gpu-chart.tsx): echarts is heavy. */
export default function GpuChart({
  metrics,
  kind,
  height = 240,
}: {
  metrics: GpuMetrics;
  kind: GpuMetricKind;
  height?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const instance = echarts.init(host.current);
    chart.current = instance;
    const resize = () => instance.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      {
        tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${String(v)}%` },
        legend: { top: 0 },
        grid: { left: 40, right: 16, top: 32, bottom: 24 },
        xAxis: { type: 'time' },
        yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
        series: gpuSeries(metrics, kind).map((s) => ({
          id: s.id,
          name: s.name,
          type: 'line',
          showSymbol: false,
          data: s.points,
        })),
      },
      { notMerge: true },
    );
  }, [metrics, kind]);

  return (
    <div
      ref={host}
      role="img"
      aria-label={kind === 'utilization' ? 'GPU 利用率曲线' : 'GPU 显存占用曲线'}
      style={{ width: '100%', height }}
    />
  );
}
