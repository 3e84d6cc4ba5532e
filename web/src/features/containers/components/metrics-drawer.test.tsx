import type { ContainerMetrics } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, type RecordedRequest, renderRoutes } from '../../../test/render';
import type { MetricChart } from '../container-metrics';
import { runningContainer } from '../test-fixtures';

// echarts needs a canvas jsdom does not have: the chart module (lazily loaded by the drawer) is
// replaced by what it was given. The real chart is drawn in the browser test (e2e monitor.test.ts).
vi.mock('./container-metric-chart', () => ({
  default: ({ chart }: { chart: MetricChart }) => (
    <div data-testid={`chart-${chart.kind}`}>
      {chart.series.map((s) => `${s.name}: ${s.points.map((p) => p[1] ?? '-').join(' ')}`).join(' | ')}
    </div>
  ),
}));

const list = () => ({ body: { items: [runningContainer], total: 1 } });

const reading = (utilization: number) => ({
  utilization,
  utilization_max: utilization,
  memory_used_mib: 12_282,
  memory_used_max_mib: 12_282,
  temperature_c: 55,
  power_w: 200,
});

function metricsFor(range: string): ContainerMetrics {
  const hour = range === '1h';
  return {
    simulated: true,
    range: hour ? '1h' : '24h',
    step_seconds: hour ? 60 : 300,
    gpus: [
      {
        uuid: 'GPU-4090-0000-aaaa',
        index: 0,
        model: 'NVIDIA GeForce RTX 4090',
        memory_total_mib: 24_564,
        power_limit_w: 450,
      },
      {
        uuid: 'GPU-4090-0001-bbbb',
        index: 1,
        model: 'NVIDIA GeForce RTX 4090',
        memory_total_mib: 24_564,
        power_limit_w: 450,
      },
    ],
    samples: hour
      ? [
          { t: '2026-11-26T10:00:00.000Z', gpus: [reading(30), reading(70)] },
          { t: '2026-11-26T10:01:00.000Z', gpus: [reading(40), reading(80)] },
        ]
      : [
          { t: '2026-11-26T05:00:00.000Z', gpus: [reading(11), reading(12)] },
          { t: '2026-11-26T05:05:00.000Z', gpus: [reading(13), reading(14)] },
          { t: '2026-11-26T05:10:00.000Z', gpus: [reading(15), null] },
        ],
  };
}

async function openMonitor() {
  renderRoutes(routes, '/user/containers');
  const row = await screen.findByTestId('container-row-c-run');
  fireEvent.click(getButton(row, '更多'));
  fireEvent.click(await screen.findByText('监控'));
  return (await screen.findByText('GPU 监控')).closest('.ant-drawer-content') as HTMLElement;
}

describe('我的容器 → 监控', { timeout: 60_000 }, () => {
  it('charts utilisation, memory, temperature and power of each GPU, marked 模拟, over the range chosen', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    const asked: RecordedRequest[] = [];
    fakeServer({
      'GET /api/containers': list,
      'GET /api/containers/c-run/metrics': (request) => {
        asked.push(request);
        return { body: metricsFor(request.search.get('range') ?? '') };
      },
    });
    const drawer = await openMonitor();
    const utilization = await within(drawer).findByTestId('chart-utilization');
    expect(utilization.textContent).toBe('GPU 0 · RTX 4090: 30 40 | GPU 1 · RTX 4090: 70 80');
    // Memory in percent of the card (12,282 of 24,564 MiB).
    expect(within(drawer).getByTestId('chart-memory').textContent).toBe(
      'GPU 0 · RTX 4090: 50 50 | GPU 1 · RTX 4090: 50 50',
    );
    expect(within(drawer).getByTestId('chart-temperature').textContent).toContain('55 55');
    expect(within(drawer).getByTestId('chart-power').textContent).toContain('200 200');
    for (const title of ['GPU 利用率', '显存使用率', 'GPU 温度', 'GPU 功耗']) {
      expect(within(drawer).getByText(title)).toBeTruthy();
    }
    expect(within(drawer).getByTestId('metrics-simulated').textContent).toBe('模拟');
    expect(within(drawer).getByText('每分钟一个点（平均值）')).toBeTruthy();
    expect(asked.map((r) => r.search.get('range'))).toEqual(['1h']);

    fireEvent.click(within(drawer).getByText('最近 24 小时'));
    await waitFor(() =>
      expect(within(drawer).getByTestId('chart-utilization').textContent).toBe(
        'GPU 0 · RTX 4090: 11 13 15 | GPU 1 · RTX 4090: 12 14 -',
      ),
    );
    expect(asked.at(-1)?.search.get('range')).toBe('24h');
    expect(within(drawer).getByText('每 5 分钟一个点（平均值，提示中含峰值）')).toBeTruthy();
  });

  it('says 暂无监控数据 when the container has no samples yet, without 模拟 on real GPUs', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    fakeServer({
      'GET /api/containers': () => ({
        body: { items: [{ ...runningContainer, simulated: false }], total: 1 },
      }),
      'GET /api/containers/c-run/metrics': () => ({
        body: { simulated: false, range: '1h', step_seconds: 60, gpus: [], samples: [] },
      }),
    });
    const drawer = await openMonitor();
    expect(await within(drawer).findByText('暂无监控数据')).toBeTruthy();
    expect(within(drawer).queryByTestId('chart-utilization')).toBeNull();
    expect(within(drawer).queryByTestId('metrics-simulated')).toBeNull();
  });

  it('says why when the samples cannot be read (the container was destroyed meanwhile)', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    fakeServer({
      'GET /api/containers': list,
      'GET /api/containers/c-run/metrics': () => ({
        status: 404,
        body: { detail: '容器不存在', code: 'NOT_FOUND' },
      }),
    });
    const drawer = await openMonitor();
    const error = await within(drawer).findByTestId('metrics-error');
    expect(error.textContent).toContain('获取监控数据失败');
    expect(error.textContent).toContain('容器不存在');
    expect(within(drawer).queryByTestId('chart-utilization')).toBeNull();
  });
});
