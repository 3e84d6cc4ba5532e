import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ConsoleSocket, closeOutcome, consoleSocketUrl, openConsoleSession } from './console-session';

class FakeConsoleSocket implements ConsoleSocket {
  binaryType: BinaryType = 'blob';
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  sent: Array<string | ArrayBufferView> = [];
  closed = false;
  constructor(readonly url: string) {}
  send(data: string | ArrayBufferView) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
  closeWith(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason } as CloseEvent);
  }
}

function start() {
  let socket: FakeConsoleSocket | undefined;
  const events = { onOpen: vi.fn(), onOutput: vi.fn(), onEnd: vi.fn() };
  const session = openConsoleSession({
    url: 'ws://host/api/containers/ws/c-1/console?token=t',
    ...events,
    createSocket: (url) => {
      socket = new FakeConsoleSocket(url);
      return socket;
    },
  });
  if (!socket) throw new Error('no socket');
  return { session, socket, events };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('console socket', () => {
  it('follows the page protocol and carries the token and the terminal size', () => {
    expect(
      consoleSocketUrl({ protocol: 'https:', host: 'cloud.example' }, 'c-1', 'a b', { cols: 120, rows: 30 }),
    ).toBe('wss://cloud.example/api/containers/ws/c-1/console?token=a+b&cols=120&rows=30');
    expect(
      consoleSocketUrl({ protocol: 'http:', host: 'h:5173' }, 'c-1', 't', { cols: 80, rows: 24 }),
    ).toMatch(/^ws:\/\/h:5173\//);
  });

  it('sends keystrokes as text, Ctrl-C as an empty text frame and resizes as a binary JSON frame', () => {
    const { session, socket, events } = start();
    expect(socket.binaryType).toBe('arraybuffer');
    socket.open();
    expect(events.onOpen).toHaveBeenCalled();
    expect(session.send('echo hi\r')).toBe('sent');
    expect(session.interrupt()).toBe('sent');
    session.resize(100, 40);
    expect(socket.sent[0]).toBe('echo hi\r');
    expect(socket.sent[1]).toBe('');
    const frame = socket.sent[2];
    expect(ArrayBuffer.isView(frame)).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(frame as Uint8Array))).toEqual({
      type: 'resize',
      cols: 100,
      rows: 40,
    });
  });

  it('writes binary output frames as bytes and text frames as text', () => {
    const { socket, events } = start();
    socket.open();
    socket.receive(new TextEncoder().encode('42\r\n').buffer);
    socket.receive('hello');
    expect(Array.from(events.onOutput.mock.calls[0]?.[0] as Uint8Array)).toEqual([52, 50, 13, 10]);
    expect(events.onOutput.mock.calls[1]?.[0]).toBe('hello');
  });

  it('gives up after 5 seconds without a connection: Console 连接失败', () => {
    const { socket, events } = start();
    vi.advanceTimersByTime(4999);
    expect(events.onEnd).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(events.onEnd).toHaveBeenCalledWith('failed', 'Console 连接失败：连接超时');
    expect(socket.closed).toBe(true);
  });

  it('a shell that exits closes the console: Console 连接已关闭', () => {
    const { socket, events } = start();
    socket.open();
    socket.closeWith(1000, 'exit 0');
    expect(events.onEnd).toHaveBeenCalledWith('closed', 'Console 连接已关闭（exit 0）');
  });

  it('a lost connection asks to reopen; typing afterwards is reported as disconnected', () => {
    const { session, socket, events } = start();
    socket.open();
    socket.receive('$ ');
    socket.closeWith(1006);
    expect(events.onEnd).toHaveBeenCalledWith('failed', 'Console连接已断开，请重新打开');
    expect(session.send('ls\r')).toBe('disconnected');
  });

  it('explains the control plane’s refusals', () => {
    expect(closeOutcome(4409, '', { opened: true, receivedOutput: false }).message).toBe(
      'Console 连接失败：容器未运行',
    );
    expect(closeOutcome(4401, '', { opened: true, receivedOutput: false }).message).toBe(
      'Console 连接失败：登录已过期，请重新登录',
    );
    expect(closeOutcome(1006, '', { opened: false, receivedOutput: false })).toEqual({
      state: 'failed',
      message: 'Console 连接失败',
    });
    expect(closeOutcome(4502, 'x', { opened: true, receivedOutput: true }).message).toBe(
      'Console连接已断开，请重新打开',
    );
  });

  it('a socket that cannot be created: 打开 Console 失败', () => {
    const onEnd = vi.fn();
    const session = openConsoleSession({
      url: 'bad',
      onOpen: vi.fn(),
      onOutput: vi.fn(),
      onEnd,
      createSocket: () => {
        throw new SyntaxError('bad url');
      },
    });
    expect(onEnd).toHaveBeenCalledWith('failed', '打开 Console 失败');
    expect(session.send('x')).toBe('disconnected');
  });

  it('a send that throws is 发送命令失败', () => {
    const { session, socket } = start();
    socket.open();
    socket.send = () => {
      throw new Error('boom');
    };
    expect(session.send('x')).toBe('failed');
  });
});
