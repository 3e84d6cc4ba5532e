import type { Container } from '@gpucloud/control-plane/api';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';
import { runningContainer } from '../test-fixtures';

const PROBLEM = 'GPU 1 已从节点上消失，容器无法使用该 GPU，请联系客服或销毁后重新创建';

const broken: Container = {
  ...runningContainer,
  container_id: 'c-bad',
  name: 'bad-box',
  gpu_problem: PROBLEM,
  gpus: [
    { uuid: 'GPU-4090-0000-aaaa', index: 0, pci_bus_id: '00000000:01:00.0', state: 'ok' },
    { uuid: 'GPU-4090-0001-bbbb', index: 1, pci_bus_id: '00000000:02:00.0', state: 'missing' },
  ],
};

const list = (items: Container[]) => () => ({ body: { items, total: items.length } });

describe('the GPUs of a container', { timeout: 60_000 }, () => {
  it('我的容器: the GPU cell shows the indices, with bus ids and UUIDs on hover', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    fakeServer({ 'GET /api/containers': list([runningContainer]) });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-run');
    const indices = within(row).getByTestId('container-gpu-indices-c-run');
    expect(indices.textContent).toBe('GPU 0, 1');
    // A healthy container carries no GPU warning.
    expect(within(row).queryByText('GPU 异常')).toBeNull();
    fireEvent.mouseEnter(indices);
    const hover = await screen.findByTestId('container-gpu-identities');
    expect(hover.textContent).toContain('GPU 0 · 00000000:01:00.0 · GPU-4090-0000-aaaa');
    expect(hover.textContent).toContain('GPU 1 · 00000000:02:00.0 · GPU-4090-0001-bbbb');
  });

  it('我的容器: a GPU problem is a red tag on the row, its reason on hover and in the monitor', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    fakeServer({
      'GET /api/containers': list([broken]),
      'GET /api/containers/c-bad/metrics': () => ({
        body: { simulated: false, range: '1h', step_seconds: 60, gpus: [], samples: [] },
      }),
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-bad');
    const tag = within(row).getByTestId('container-gpu-problem-c-bad');
    expect(tag.textContent).toBe('GPU 异常');
    expect(tag.className).toContain('ant-tag-error');
    // The missing GPU turns the indices red.
    expect(within(row).getByTestId('container-gpu-indices-c-bad').className).toContain(
      'ant-typography-danger',
    );
    fireEvent.mouseEnter(tag);
    expect(await screen.findByText(PROBLEM)).toBeTruthy();

    fireEvent.click(getButton(row, '更多'));
    fireEvent.click(await screen.findByText('监控'));
    const detail = await screen.findByTestId('container-gpu-problem-detail');
    expect(detail.className).toContain('ant-alert-error');
    expect(within(detail).getByText(PROBLEM)).toBeTruthy();
  });

  it('容器管理: the admin list flags the container too and shows its GPU indices', async () => {
    setSession('t', { username: 'root', nickname: '管理员', isAdmin: true });
    fakeServer({ 'GET /api/admin/containers': list([{ ...broken, username: 'bob' }, runningContainer]) });
    renderRoutes(routes, '/admin/containers');
    const row = await screen.findByTestId('admin-container-row-c-bad');
    expect(within(row).getByTestId('container-gpu-problem-c-bad').textContent).toBe('GPU 异常');
    expect(within(row).getByTestId('container-gpu-indices-c-bad').textContent).toBe('GPU 0, 1');
    const fine = screen.getByTestId('admin-container-row-c-run');
    expect(within(fine).queryByText('GPU 异常')).toBeNull();
  });
});
