import type { Container } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../../app/router';
import { setSession } from '../../../../lib/auth';
import {
  fakeServer,
  getButton,
  type RecordedRequest,
  renderRoutes,
  waitForButton,
} from '../../../../test/render';
import { runningContainer, stoppedContainer } from '../../test-fixtures';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

const page = (items: Container[], total: number) => () => ({ body: { items, total } });
const bob = { ...runningContainer, container_id: 'c-bob', username: 'bob', name: 'bob-box' };
const carol = { ...stoppedContainer, container_id: 'c-carol', username: 'carol', name: 'carol-box' };
const listCalls = (requests: RecordedRequest[]) =>
  requests
    .filter((r) => r.method === 'GET' && r.path === '/api/admin/containers')
    .map((r) => r.search.toString());

beforeEach(() => {
  setSession('t', { username: 'root', nickname: '管理员', isAdmin: true });
});

describe('admin container management', { timeout: 60_000 }, () => {
  it('/admin opens the container list: page 1 of 20 by default, with user and status', async () => {
    const { requests } = fakeServer({ 'GET /api/admin/containers': page([bob, carol], 45) });
    const { router } = renderRoutes(routes, '/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/containers'));
    const row = await screen.findByTestId('admin-container-row-c-bob');
    expect(within(row).getByText('bob')).toBeTruthy();
    expect(within(row).getByText('运行中')).toBeTruthy();
    expect(getButton(row, '停止')).toBeTruthy();
    expect(getButton(row, '删除')).toBeTruthy();
    expect(getButton(screen.getByTestId('admin-container-row-c-carol'), '启动')).toBeTruthy();
    expect(screen.getByText('共 45 条')).toBeTruthy();
    expect(listCalls(requests)[0]).toBe('page=1&size=20');
    // The side menu still leads to the nodes.
    const menu = document.querySelector('nav[aria-label="管理后台"]') as HTMLElement;
    expect(within(menu).getByText('节点')).toBeTruthy();
  });

  it('filters by username and status (全部 leaves it out, 已删除 included) and pages on the server', async () => {
    const { requests } = fakeServer({ 'GET /api/admin/containers': page([bob], 45) });
    renderRoutes(routes, '/admin/containers');
    await screen.findByTestId('admin-container-row-c-bob');

    fireEvent.change(screen.getByPlaceholderText('按用户名筛选'), { target: { value: 'bob' } });
    fireEvent.click(getButton(document.body, '搜索'));
    await waitFor(() => expect(listCalls(requests).at(-1)).toBe('page=1&size=20&username=bob'));

    fireEvent.mouseDown(document.querySelector('#admin-container-status') as HTMLElement);
    fireEvent.click(await screen.findByTitle('已删除'));
    await waitFor(() =>
      expect(listCalls(requests).at(-1)).toBe('page=1&size=20&username=bob&status=deleted'),
    );

    fireEvent.click(await screen.findByTitle('3'));
    await waitFor(() =>
      expect(listCalls(requests).at(-1)).toBe('page=3&size=20&username=bob&status=deleted'),
    );
  });

  it('stops after confirmation and deletes after warning it cannot be undone', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/containers': page([bob, carol], 2),
      'POST /api/admin/containers/c-bob/stop': () => ({ body: { ...bob, status: 'stopped' } }),
      'DELETE /api/admin/containers/c-carol': () => ({ body: { ok: true } }),
    });
    renderRoutes(routes, '/admin/containers');
    fireEvent.click(getButton(await screen.findByTestId('admin-container-row-c-bob'), '停止'));
    expect(requests.some((r) => r.path.endsWith('/stop'))).toBe(false);
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect(await screen.findByText('停止成功')).toBeTruthy();

    fireEvent.click(getButton(screen.getByTestId('admin-container-row-c-carol'), '删除'));
    expect(await screen.findByText(/此操作不可恢复/)).toBeTruthy();
    fireEvent.click(getButton(document.body, '确定'));
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/admin/containers/c-carol')).toBe(
        true,
      ),
    );
  });

  it('starts through the admin route and reports failures', async () => {
    fakeServer({
      'GET /api/admin/containers': page([carol], 1),
      'POST /api/admin/containers/c-carol/start': () => ({ status: 503, body: { detail: '节点不可用' } }),
    });
    renderRoutes(routes, '/admin/containers');
    fireEvent.click(getButton(await screen.findByTestId('admin-container-row-c-carol'), '启动'));
    expect(await screen.findByText('启动容器失败：服务暂时不可用，请稍后再试')).toBeTruthy();
  });
});
