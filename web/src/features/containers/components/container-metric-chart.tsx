import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { type MetricChart, type MetricPoint, pointCount } from '../container-metrics';

echarts.use([LineChart, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, CanvasRenderer]);

interface AxisParam {
  marker?: string;
  seriesName?: string;
  value?: MetricPoint;
}

const time = (ms: number) =>
  new Date(ms).toLocaleString('zh-CN', {
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });

/** The tooltip of one instant: the time, then each GPU's reading (its mean and peak, with units). */
function tooltip(params: AxisParam | AxisParam[]): string {
  const list = (Array.isArray(params) ? params : [params]).filter((p) => p.value && p.value[1] !== null);
  const first = list[0]?.value;
  if (!first) return '';
  const lines = list.map((p) => `${p.marker ?? ''}${p.seriesName ?? ''}：${p.value?.[2] ?? ''}`);
  return [time(first[0]), ...lines].join('<br/>');
}

/**
 * One metric of a container's GPUs as a line chart, a line per GPU. Loaded lazily by the metrics
 * drawer: echarts is heavy and only this screen needs it.
 */
export default function ContainerMetricChart({
  chart,
  height = 200,
}: {
  chart: MetricChart;
  height?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  const instance = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const created = echarts.init(host.current);
    instance.current = created;
    const resize = () => created.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      created.dispose();
      instance.current = null;
    };
  }, []);

  useEffect(() => {
    instance.current?.setOption(
      {
        tooltip: { trigger: 'axis', formatter: tooltip },
        legend: { top: 0, type: 'scroll' },
        grid: { left: 48, right: 24, top: 32, bottom: 24 },
        xAxis: { type: 'time' },
        yAxis: {
          type: 'value',
          min: 0,
          // A limit drawn across the chart stays in view.
          max:
            chart.max ??
            (chart.marks.length > 0
              ? ({ max }: { max: number }) => Math.max(max, ...chart.marks.map((m) => m.value * 1.05))
              : undefined),
          axisLabel: { formatter: `{value}${chart.unit === '%' ? '%' : ` ${chart.unit}`}` },
        },
        series: chart.series.map((s, i) => ({
          id: s.id,
          name: s.name,
          type: 'line',
          showSymbol: false,
          connectNulls: false,
          encode: { x: 0, y: 1 },
          data: s.points,
          // The power limit, once (on the first line).
          ...(i === 0 && chart.marks.length > 0
            ? {
                markLine: {
                  silent: true,
                  symbol: 'none',
                  lineStyle: { type: 'dashed', color: '#cf1322' },
                  label: { formatter: '{b}', position: 'insideEndTop' },
                  data: chart.marks.map((m) => ({ yAxis: m.value, name: m.label })),
                },
              }
            : {}),
        })),
      },
      { notMerge: true },
    );
  }, [chart]);

  return (
    <div
      ref={host}
      role="img"
      aria-label={`${chart.title}曲线`}
      data-testid={`metric-chart-${chart.kind}`}
      data-points={pointCount(chart)}
      style={{ width: '100%', height }}
    />
  );
}
