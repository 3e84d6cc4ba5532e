import type { Container } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { dialog, fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';
import { runningContainer, stoppedContainer } from '../test-fixtures';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

const list =
  (items: Container[] = [runningContainer, stoppedContainer]) =>
  () => ({
    body: { items, total: items.length },
  });

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

async function openMore(rowId: string, item: string) {
  const row = await screen.findByTestId(`container-row-${rowId}`);
  fireEvent.click(getButton(row, '更多'));
  fireEvent.click(await screen.findByText(item));
}

describe('the 更多 menu', { timeout: 60_000 }, () => {
  it('offers the console and password reset only while running', async () => {
    fakeServer({ 'GET /api/containers': list() });
    renderRoutes(routes, '/user/containers');
    const running = await screen.findByTestId('container-row-c-run');
    expect(getButton(running, '日志')).toBeTruthy();
    expect(within(running).getByLabelText('复制连接信息')).toBeTruthy();
    fireEvent.click(getButton(running, '更多'));
    for (const item of ['终端', '重置密码', '修改端口', '修改挂载', '监控']) {
      expect(await screen.findByText(item)).toBeTruthy();
    }
    fireEvent.click(getButton(screen.getByTestId('container-row-c-stop'), '更多'));
    await waitFor(() => expect(document.querySelectorAll('.ant-dropdown-menu').length).toBe(2));
    const menus = document.querySelectorAll('.ant-dropdown-menu');
    const stoppedMenu = menus[menus.length - 1] as HTMLElement;
    expect(within(stoppedMenu).queryByText('终端')).toBeNull();
    expect(within(stoppedMenu).queryByText('重置密码')).toBeNull();
    expect(within(stoppedMenu).getByText('修改端口')).toBeTruthy();
  });
});

describe('reset password', { timeout: 60_000 }, () => {
  it('asks first, then copies the new password to the clipboard', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { requests } = fakeServer({
      'GET /api/containers': list(),
      'POST /api/containers/c-run/reset-password': () => ({ body: { password: 'N3w-pass-0123456' } }),
    });
    renderRoutes(routes, '/user/containers');
    await openMore('c-run', '重置密码');
    expect(await screen.findByText(/确定要重置该容器的 root 密码吗/)).toBeTruthy();
    fireEvent.click(getButton(document.body, '确定'));
    expect(await screen.findByText('密码重置成功')).toBeTruthy();
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('N3w-pass-0123456'));
    expect(requests.some((r) => r.method === 'POST' && r.path.endsWith('/reset-password'))).toBe(true);
  });

  it('a refusal says 密码重置失败 with the reason', async () => {
    fakeServer({
      'GET /api/containers': list(),
      'POST /api/containers/c-run/reset-password': () => ({
        status: 409,
        body: { detail: '容器未运行，请先启动容器再重置密码', code: 'CONTAINER_NOT_RUNNING' },
      }),
    });
    renderRoutes(routes, '/user/containers');
    await openMore('c-run', '重置密码');
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect(await screen.findByText('密码重置失败：容器未运行，请先启动容器再重置密码')).toBeTruthy();
  });
});

describe('修改端口', { timeout: 60_000 }, () => {
  it('checks each port, says the container restarts, and saves the list', async () => {
    const { requests } = fakeServer({
      'GET /api/containers': list(),
      'POST /api/containers/c-run/ports': () => ({
        body: { ...runningContainer, custom_ports: [12000, 15000] },
      }),
    });
    renderRoutes(routes, '/user/containers');
    await openMore('c-run', '修改端口');
    const modal = dialog();
    expect(within(modal).getByText(/保存后容器将重启/)).toBeTruthy();
    expect(within(modal).getByText('12000')).toBeTruthy();
    const input = within(modal).getByLabelText('端口号');
    const attempt = async (value: string, error: string) => {
      fireEvent.change(input, { target: { value } });
      fireEvent.click(getButton(modal, '添加'));
      expect(await within(modal).findByText(error)).toBeTruthy();
    };
    await attempt('abc', '请输入有效的端口号');
    await attempt('9999', '端口号必须在10000-20000之间');
    await attempt('10001', '该端口与框架默认端口重复');
    await attempt('12000', '该端口已添加');
    for (const port of ['15000', '15001', '15002', '15003']) {
      fireEvent.change(input, { target: { value: port } });
      fireEvent.click(getButton(modal, '添加'));
      expect(await within(modal).findByText(port)).toBeTruthy();
    }
    await attempt('15004', '最多只能添加5个自定义端口');
    fireEvent.click(within(modal).getByLabelText('删除端口15001'));
    fireEvent.click(within(modal).getByLabelText('删除端口15002'));
    fireEvent.click(within(modal).getByLabelText('删除端口15003'));
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('端口映射已更新')).toBeTruthy();
    const saved = requests.find((r) => r.method === 'POST' && r.path === '/api/containers/c-run/ports');
    expect(saved?.body).toEqual({ ports: [12000, 15000] });
  });

  it('an occupied port is reported with the server detail', async () => {
    fakeServer({
      'GET /api/containers': list(),
      'POST /api/containers/c-run/ports': () => ({
        status: 409,
        body: { detail: '15000端口已被占用', code: 'PORT_OCCUPIED' },
      }),
    });
    renderRoutes(routes, '/user/containers');
    await openMore('c-run', '修改端口');
    const modal = dialog();
    fireEvent.change(within(modal).getByLabelText('端口号'), { target: { value: '15000' } });
    fireEvent.click(getButton(modal, '添加'));
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('更新端口映射失败：15000端口已被占用')).toBeTruthy();
  });
});

describe('修改挂载', { timeout: 60_000 }, () => {
  it('checks source and target, then saves for the next start', async () => {
    const { requests } = fakeServer({
      'GET /api/containers': list(),
      'POST /api/containers/c-stop/mounts': () => ({
        body: { ...stoppedContainer, pending_mounts: [{ source: 'data1', target: '/root/data' }] },
      }),
    });
    renderRoutes(routes, '/user/containers');
    await openMore('c-stop', '修改挂载');
    const modal = dialog();
    expect(within(modal).getByText(/将在容器下次启动时生效/)).toBeTruthy();
    fireEvent.click(getButton(modal, '添加挂载点'));
    fireEvent.click(getButton(modal, '保存'));
    expect(await within(modal).findByText('请完善所有挂载点配置')).toBeTruthy();
    const source = within(modal).getByLabelText('挂载点1源路径');
    const target = within(modal).getByLabelText('挂载点1目标路径');
    fireEvent.change(source, { target: { value: 'data-1' } });
    fireEvent.change(target, { target: { value: '/root/data' } });
    expect(await within(modal).findByText('挂载点源路径只能包含字母和数字')).toBeTruthy();
    fireEvent.change(source, { target: { value: 'data1' } });
    fireEvent.change(target, { target: { value: 'root/data' } });
    expect(await within(modal).findByText('挂载点目标路径必须以 / 开头')).toBeTruthy();
    fireEvent.click(getButton(modal, '保存'));
    expect(requests.some((r) => r.path.endsWith('/mounts'))).toBe(false);
    fireEvent.change(target, { target: { value: '/root/data' } });
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('挂载点已更新，重启生效！')).toBeTruthy();
    const saved = requests.find((r) => r.method === 'POST' && r.path === '/api/containers/c-stop/mounts');
    expect(saved?.body).toEqual({ mounts: [{ source: 'data1', target: '/root/data' }] });
  });

  it('a refusal says 更新挂载点失败 with the reason; pending mounts show 待重启生效', async () => {
    const pending = { ...stoppedContainer, pending_mounts: [{ source: 'old1', target: '/old' }] };
    fakeServer({
      'GET /api/containers': list([runningContainer, pending]),
      'POST /api/containers/c-stop/mounts': () => ({
        status: 400,
        body: { detail: '存储卷 old1 不存在', code: 'VOLUME_NOT_FOUND' },
      }),
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-stop');
    expect(within(row).getByText('待重启生效')).toBeTruthy();
    await openMore('c-stop', '修改挂载');
    const modal = dialog();
    expect(within(modal).getByText('待重启生效')).toBeTruthy();
    expect((within(modal).getByLabelText('挂载点1源路径') as HTMLInputElement).value).toBe('old1');
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('更新挂载点失败：存储卷 old1 不存在')).toBeTruthy();
  });
});
