import type { Container } from '@gpucloud/control-plane/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, findButtons, getButton, renderRoutes, waitForButton } from '../../../test/render';
import { aContainer } from '../test-fixtures';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

const base: Container = aContainer({
  container_id: 'c-run',
  name: 'train-box',
  status: 'running',
  image_name: 'pytorch:2.1-cuda12.1',
  create_time: '2025-03-01T08:00:00Z',
  end_time: null,
  billing_type: 'hourly',
  gpu_count: 2,
  gpu_type: 'RTX 4090',
  simulated: true,
  ssh_server: 'gpu1.example.com',
  ssh_port: 10001,
  password: 'pa55word',
  frame_ports: { '22': 10001, '8888': 10002 },
});

const containers: Container[] = [
  base,
  {
    ...base,
    container_id: 'c-stop',
    name: 'idle-box',
    status: 'stopped',
    billing_type: 'monthly',
    end_time: '2025-04-01T08:00:00Z',
    simulated: false,
    jupyter: 'absent',
  },
];

class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  FakeSocket.instances = [];
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

describe('my containers', () => {
  it('shows each container with the actions its status allows', async () => {
    fakeServer({ 'GET /api/containers': () => ({ body: { items: containers, total: 2 } }) });
    renderRoutes(routes, '/user/containers');
    const running = await screen.findByTestId('container-row-c-run');
    expect(within(running).getByText('运行中')).toBeTruthy();
    expect(within(running).getByText('模拟')).toBeTruthy();
    expect(within(running).getByText('gpu1.example.com:10001')).toBeTruthy();
    expect(within(running).getByText('http://gpu1.example.com:10002')).toBeTruthy();
    expect(within(running).getByText('关机 3 天后释放')).toBeTruthy();
    expect(getButton(running, '停止')).toBeTruthy();
    expect(getButton(running, '销毁')).toBeTruthy();
    expect(findButtons(running, '启动')).toHaveLength(0);
    expect(within(running).queryByText('pa55word')).toBeNull();

    const stopped = screen.getByTestId('container-row-c-stop');
    expect(within(stopped).getByText('已停止')).toBeTruthy();
    expect(within(stopped).getByText(/^到期时间 2025-04-01/)).toBeTruthy();
    expect(getButton(stopped, '启动')).toBeTruthy();
    expect(findButtons(stopped, '停止')).toHaveLength(0);
    // Its image has no Jupyter: said instead of a dead link.
    expect(within(stopped).getByText('该镜像未安装 JupyterLab')).toBeTruthy();
    expect(within(stopped).queryByText('http://gpu1.example.com:10002')).toBeNull();
  });

  it('a container whose image is being pulled shows 拉取镜像中 with the percentage, and only 销毁', async () => {
    fakeServer({
      'GET /api/containers': () => ({
        body: {
          items: [{ ...base, container_id: 'c-pull', status: 'pulling', pull_progress: 42 }],
          total: 1,
        },
      }),
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-pull');
    expect(within(row).getByText('拉取镜像中 42%')).toBeTruthy();
    expect(getButton(row, '销毁')).toBeTruthy();
    expect(findButtons(row, '启动')).toHaveLength(0);
    expect(findButtons(row, '停止')).toHaveLength(0);
  });

  it('a pull shows its bar and phase (下载中, then 解压中) and follows the node’s bytes as they come', async () => {
    let progress = 10;
    fakeServer({
      'GET /api/containers': () => ({
        body: {
          items: [
            {
              ...base,
              container_id: 'c-pull',
              status: 'pulling',
              pull_progress: progress,
              pull_phase: progress < 60 ? 'downloading' : 'extracting',
            },
          ],
          total: 1,
        },
      }),
      // The held status request answers with the next percentage: the list is read again.
      'GET /api/containers/c-pull/status': () => {
        progress = 60;
        return { body: { status: 'pulling', pull_progress: 60 } };
      },
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-pull');
    const shown = within(row).getByTestId('pull-progress');
    expect(within(shown).getByText('拉取镜像中 10%')).toBeTruthy();
    expect(within(shown).getByText('下载中')).toBeTruthy();
    expect(within(shown).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10');
    await waitFor(() => expect(within(row).getByText('拉取镜像中 60%')).toBeTruthy(), { timeout: 4000 });
    expect(within(row).getByText('解压中')).toBeTruthy();
    expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
  });

  it('a starting container turns 运行中 as soon as the held status request answers, not at the next poll', async () => {
    let status = 'starting';
    const { requests } = fakeServer({
      'GET /api/containers': () => ({
        body: { items: [{ ...base, container_id: 'c-new', status }], total: 1 },
      }),
      // The server holds this request until the container changes; here it has just changed.
      'GET /api/containers/c-new/status': () => {
        status = 'running';
        return { body: { status: 'running', pull_progress: null } };
      },
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-new');
    const asked = Date.now();
    await waitFor(() => expect(within(row).getByText('运行中')).toBeTruthy(), { timeout: 4000 });
    // Well before the 5 s poll would have fetched the list again.
    expect(Date.now() - asked).toBeLessThan(4000);
    const watch = requests.find((r) => r.path === '/api/containers/c-new/status');
    expect(watch?.search.get('while')).toBe('starting');
    expect(watch?.search.get('wait')).toBe('5');
  });

  it('a container whose pull failed shows 失败 with the reason', async () => {
    const reason = '镜像拉取失败 (pull image pytorch/pytorch:9: manifest unknown)';
    fakeServer({
      'GET /api/containers': () => ({
        body: {
          items: [{ ...base, container_id: 'c-fail', status: 'failed', start_error: reason }],
          total: 1,
        },
      }),
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-fail');
    expect(within(row).getByText('失败')).toBeTruthy();
    expect(within(row).getByText(reason)).toBeTruthy();
  });

  it('stop asks for confirmation, then calls the API', async () => {
    const { requests } = fakeServer({
      'GET /api/containers': () => ({ body: { items: containers, total: 2 } }),
      'POST /api/containers/c-run/stop': () => ({ body: { ...base, status: 'stopped' } }),
    });
    renderRoutes(routes, '/containers');
    const running = await screen.findByTestId('container-row-c-run');
    fireEvent.click(getButton(running, '停止'));
    expect(requests.some((r) => r.path.endsWith('/stop'))).toBe(false);
    fireEvent.click(await waitForButton(document.body, '确定'));
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'POST' && r.path === '/api/containers/c-run/stop')).toBe(true),
    );
  });

  it('destroy warns that it cannot be undone', async () => {
    const { requests } = fakeServer({
      'GET /api/containers': () => ({ body: { items: containers, total: 2 } }),
      'DELETE /api/containers/c-stop': () => ({ body: { ok: true } }),
    });
    renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-stop'), '销毁'));
    expect(await screen.findByText(/此操作不可恢复/)).toBeTruthy();
    fireEvent.click(getButton(document.body, '确定'));
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/containers/c-stop')).toBe(true),
    );
  });

  it('a failed start says 启动容器失败 with the reason', async () => {
    fakeServer({
      'GET /api/containers': () => ({ body: { items: containers, total: 2 } }),
      'POST /api/containers/c-stop/start': () => ({ status: 409, body: { detail: 'GPU 资源不足' } }),
    });
    renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-stop'), '启动'));
    expect(await screen.findByText('启动容器失败：GPU 资源不足')).toBeTruthy();
  });

  it('when the list cannot be loaded, says 获取容器列表失败', async () => {
    fakeServer({ 'GET /api/containers': () => ({ status: 500, body: { detail: '数据库不可用' } }) });
    renderRoutes(routes, '/user/containers');
    expect(await screen.findByText('获取容器列表失败')).toBeTruthy();
    expect(screen.getByText('数据库不可用')).toBeTruthy();
  });

  it('the log viewer streams frames over a WebSocket and closes it when dismissed', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    fakeServer({ 'GET /api/containers': () => ({ body: { items: containers, total: 2 } }) });
    renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-run'), '日志'));
    expect(await screen.findByText('容器日志')).toBeTruthy();
    const socket = FakeSocket.instances.at(-1);
    expect(socket?.url).toBe(`ws://${window.location.host}/api/containers/ws/c-run/logs?token=tok`);
    act(() => {
      socket?.onopen?.();
      socket?.onmessage?.({ data: 'epoch 1 loss=0.5\n' });
      // Frames are batches of the log: a line may end in the next frame.
      socket?.onmessage?.({ data: 'epoch 2 lo' });
      socket?.onmessage?.({ data: 'ss=0.4\n' });
    });
    expect(screen.getByTestId('log-output').textContent).toBe('epoch 1 loss=0.5\nepoch 2 loss=0.4\n');
    fireEvent.click(screen.getByLabelText('关闭'));
    await waitFor(() => expect(FakeSocket.instances.every((s) => s.closed)).toBe(true));
  });

  it('a log connection error says 日志连接失败', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    fakeServer({ 'GET /api/containers': () => ({ body: { items: containers, total: 2 } }) });
    renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-run'), '日志'));
    await screen.findByText('容器日志');
    act(() => FakeSocket.instances.at(-1)?.onerror?.());
    expect(await screen.findByText('日志连接失败')).toBeTruthy();
  });
});
