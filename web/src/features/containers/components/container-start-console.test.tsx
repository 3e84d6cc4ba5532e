import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';
import { FakeSocket, runningContainer, stoppedContainer } from '../test-fixtures';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

interface FakeTerminalShape {
  written: unknown[];
  type(data: string): void;
  disposed: boolean;
}

const { terminals } = vi.hoisted(() => ({ terminals: [] as FakeTerminalShape[] }));

// xterm.js needs a real layout engine; the console's wiring is what these tests check.
vi.mock('@xterm/xterm', () => ({
  Terminal: class {
    cols = 80;
    rows = 24;
    written: unknown[] = [];
    disposed = false;
    private listener: ((data: string) => void) | null = null;
    constructor() {
      terminals.push(this);
    }
    loadAddon() {}
    open() {}
    focus() {}
    write(data: unknown) {
      this.written.push(data);
    }
    onData(listener: (data: string) => void) {
      this.listener = listener;
      return { dispose: () => {} };
    }
    onResize() {
      return { dispose: () => {} };
    }
    type(data: string) {
      this.listener?.(data);
    }
    dispose() {
      this.disposed = true;
    }
  },
}));
vi.mock('@xterm/addon-fit', () => ({
  FitAddon: class {
    fit() {}
  },
}));

beforeEach(() => {
  FakeSocket.instances = [];
  terminals.length = 0;
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

describe('start when the GPUs are taken', { timeout: 60_000 }, () => {
  it('offers 无卡模式启动 with the server detail and starts without GPUs', async () => {
    const { requests } = fakeServer({
      'GET /api/containers': () => ({ body: { items: [stoppedContainer], total: 1 } }),
      'POST /api/containers/c-stop/start': (request) =>
        (request.body as { no_gpu?: boolean }).no_gpu
          ? { body: { ...stoppedContainer, status: 'running', no_gpu: true } }
          : {
              status: 409,
              body: { detail: 'GPU 资源不足，当前可用 0 卡，可选择无卡模式启动', code: 'GPU_INSUFFICIENT' },
            },
    });
    renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-stop'), '启动'));
    expect(await screen.findByText('GPU 资源不足，当前可用 0 卡，可选择无卡模式启动')).toBeTruthy();
    fireEvent.click(await waitForButton(document.body, '无卡模式启动'));
    expect(await screen.findByText('已以无卡模式启动')).toBeTruthy();
    const starts = requests.filter((r) => r.path === '/api/containers/c-stop/start');
    expect(starts.map((r) => r.body)).toEqual([{}, { no_gpu: true }]);
  });

  it('shows 无卡模式 on a container running without GPUs', async () => {
    fakeServer({
      'GET /api/containers': () => ({ body: { items: [{ ...runningContainer, no_gpu: true }], total: 1 } }),
    });
    renderRoutes(routes, '/user/containers');
    const row = await screen.findByTestId('container-row-c-run');
    expect(within(row).getByText('无卡模式')).toBeTruthy();
  });
});

describe('终端', { timeout: 60_000 }, () => {
  it('connects with the terminal size, sends keystrokes and Ctrl-C, shows output, closes with the drawer', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    fakeServer({ 'GET /api/containers': () => ({ body: { items: [runningContainer], total: 1 } }) });
    renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-run'), '更多'));
    fireEvent.click(await screen.findByText('终端'));
    expect(await screen.findByText('终端 - train-box')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.instances.length).toBe(1));
    const socket = FakeSocket.instances[0] as FakeSocket;
    expect(socket.url).toBe(
      `ws://${window.location.host}/api/containers/ws/c-run/console?token=tok&cols=80&rows=24`,
    );
    expect(socket.binaryType).toBe('arraybuffer');
    act(() => socket.open());
    expect((await screen.findByTestId('console-state')).textContent).toBe('已连接');

    const terminal = terminals.at(-1) as FakeTerminalShape;
    act(() => terminal.type('echo $((6*7))\r'));
    expect(socket.sent).toContain('echo $((6*7))\r');
    act(() => socket.onmessage?.({ data: new TextEncoder().encode('42\r\n').buffer }));
    expect(terminal.written.length).toBe(1);
    fireEvent.click(getButton(document.body, 'Ctrl+C'));
    expect(socket.sent.at(-1)).toBe('');

    act(() => socket.onclose?.({ code: 1000, reason: 'exit 0' }));
    expect(await screen.findByText('Console 连接已关闭（exit 0）')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('关闭'));
    await waitFor(() => expect(socket.closed).toBe(true));
    await waitFor(() => expect(terminal.disposed).toBe(true));
  });

  it('a refused console says why: Console 连接失败', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    fakeServer({ 'GET /api/containers': () => ({ body: { items: [runningContainer], total: 1 } }) });
    renderRoutes(routes, '/user/containers');
    fireEvent.click(getButton(await screen.findByTestId('container-row-c-run'), '更多'));
    fireEvent.click(await screen.findByText('终端'));
    await waitFor(() => expect(FakeSocket.instances.length).toBe(1));
    const socket = FakeSocket.instances[0] as FakeSocket;
    act(() => {
      socket.open();
      socket.onclose?.({ code: 4409, reason: 'container not running' });
    });
    expect(await screen.findByText('Console 连接失败：容器未运行')).toBeTruthy();
    expect((await screen.findByTestId('console-state')).textContent).toBe('已断开');
  });
});
