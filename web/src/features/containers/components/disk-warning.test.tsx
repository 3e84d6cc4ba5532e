import type { Container } from '@gpucloud/control-plane/api';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';
import { runningContainer } from '../test-fixtures';

const WARNING =
  '系统盘已用 85.2 GB, 接近 100.0 GB 上限。本节点无法限制容器系统盘, 写满将影响节点上所有容器; 请删除不需要的文件, 数据请放在存储卷中';

const full: Container = {
  ...runningContainer,
  container_id: 'c-full',
  name: 'full-box',
  writable_layer_bytes: 85.2 * 1024 ** 3,
  disk_warning: WARNING,
};

const list = (items: Container[]) => () => ({ body: { items, total: items.length } });

describe("a container's 系统盘 nearing the node's allowance", { timeout: 60_000 }, () => {
  it('我的容器: an amber tag on the row, the reason on hover and in the monitor; none on a healthy row', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    fakeServer({
      'GET /api/containers': list([full, runningContainer]),
      'GET /api/containers/c-full/metrics': () => ({
        body: { simulated: false, range: '1h', step_seconds: 60, gpus: [], samples: [] },
      }),
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-full');
    const tag = within(row).getByTestId('container-disk-warning-c-full');
    expect(tag.textContent).toBe('系统盘将满');
    expect(tag.className).toContain('ant-tag-warning');
    expect(within(screen.getByTestId('container-row-c-run')).queryByText('系统盘将满')).toBeNull();
    fireEvent.mouseEnter(tag);
    expect(await screen.findByText(WARNING)).toBeTruthy();

    fireEvent.click(getButton(row, '更多'));
    fireEvent.click(await screen.findByText('监控'));
    const detail = await screen.findByTestId('container-disk-warning-detail');
    expect(detail.textContent).toContain(WARNING);
  });

  it('容器管理: the admin list flags it too', async () => {
    setSession('t', { username: 'root', nickname: '管理员', isAdmin: true });
    fakeServer({ 'GET /api/admin/containers': list([{ ...full, username: 'bob' }, runningContainer]) });
    renderRoutes(routes, '/admin/containers');
    const row = await screen.findByTestId('admin-container-row-c-full');
    expect(within(row).getByTestId('container-disk-warning-c-full').textContent).toBe('系统盘将满');
    expect(within(screen.getByTestId('admin-container-row-c-run')).queryByText('系统盘将满')).toBeNull();
  });
});
