/**
 * The container console's WebSocket protocol (docs/api.md): text frames are keystrokes, an empty
 * text frame interrupts (Ctrl-C), binary frames carry `{"type":"resize",…}`; output arrives as
 * binary frames. Kept apart from xterm.js so it can be tested without a terminal.
 */
export const CONSOLE_CONNECT_TIMEOUT_MS = 5000;

export const MSG_CONSOLE_CONNECT_FAILED = 'Console 连接失败';
export const MSG_CONSOLE_CLOSED = 'Console 连接已关闭';
export const MSG_CONSOLE_OPEN_FAILED = '打开 Console 失败';
export const MSG_CONSOLE_SEND_FAILED = '发送命令失败';
export const MSG_CONSOLE_DISCONNECTED = 'Console连接已断开，请重新打开';

/** The control plane's close codes for a console it refuses or loses. */
const CLOSE_REASONS: Record<number, string> = {
  4401: '登录已过期，请重新登录',
  4404: '容器不存在',
  4409: '容器未运行',
  4502: '节点连接失败',
};

export type ConsoleState = 'connecting' | 'open' | 'closed' | 'failed';
export type SendResult = 'sent' | 'disconnected' | 'failed';

export function consoleSocketUrl(
  location: Pick<Location, 'protocol' | 'host'>,
  containerId: string,
  token: string,
  size: { cols: number; rows: number },
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = new URLSearchParams({ token, cols: String(size.cols), rows: String(size.rows) });
  return `${scheme}://${location.host}/api/containers/ws/${encodeURIComponent(containerId)}/console?${query}`;
}

/** What the user is told when the socket closes, and the state it leaves. */
export function closeOutcome(
  code: number,
  reason: string,
  progress: { opened: boolean; receivedOutput: boolean },
): { state: 'closed' | 'failed'; message: string } {
  const known = CLOSE_REASONS[code];
  if (known && !(code === 4502 && progress.receivedOutput)) {
    return { state: 'failed', message: `${MSG_CONSOLE_CONNECT_FAILED}：${known}` };
  }
  if (!progress.opened) return { state: 'failed', message: MSG_CONSOLE_CONNECT_FAILED };
  if (code === 1000) {
    return { state: 'closed', message: reason ? `${MSG_CONSOLE_CLOSED}（${reason}）` : MSG_CONSOLE_CLOSED };
  }
  return { state: 'failed', message: MSG_CONSOLE_DISCONNECTED };
}

export interface ConsoleSocket {
  binaryType: BinaryType;
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send(data: string | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
}

export interface ConsoleSessionOptions {
  url: string;
  onOpen: () => void;
  onOutput: (data: Uint8Array | string) => void;
  /** Called once, when the session ends for any reason but close(). */
  onEnd: (state: 'closed' | 'failed', message: string) => void;
  timeoutMs?: number;
  createSocket?: (url: string) => ConsoleSocket;
}

export interface ConsoleSession {
  send(text: string): SendResult;
  /** Ctrl-C: the empty text frame. */
  interrupt(): SendResult;
  resize(cols: number, rows: number): void;
  close(): void;
}

const OPEN = 1;

// By tag rather than instanceof: buffers may come from another realm (workers, test environments).
function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

export function openConsoleSession(options: ConsoleSessionOptions): ConsoleSession {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  let ended = false;
  let opened = false;
  let receivedOutput = false;
  const end = (state: 'closed' | 'failed', message: string) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    options.onEnd(state, message);
  };

  let socket: ConsoleSocket;
  try {
    socket = createSocket(options.url);
  } catch {
    options.onEnd('failed', MSG_CONSOLE_OPEN_FAILED);
    return { send: () => 'disconnected', interrupt: () => 'disconnected', resize: () => {}, close: () => {} };
  }
  socket.binaryType = 'arraybuffer';

  const timer = setTimeout(() => {
    if (opened) return;
    end('failed', `${MSG_CONSOLE_CONNECT_FAILED}：连接超时`);
    socket.close();
  }, options.timeoutMs ?? CONSOLE_CONNECT_TIMEOUT_MS);

  socket.onopen = () => {
    if (ended) return;
    opened = true;
    clearTimeout(timer);
    options.onOpen();
  };
  socket.onmessage = (event: MessageEvent) => {
    if (ended) return;
    const data: unknown = event.data;
    receivedOutput = true;
    if (typeof data === 'string') options.onOutput(data);
    else if (isArrayBuffer(data)) options.onOutput(new Uint8Array(data));
    else if (data instanceof Blob)
      void data.arrayBuffer().then((buffer) => options.onOutput(new Uint8Array(buffer)));
  };
  // An error is always followed by a close event, which carries the code to explain.
  socket.onerror = () => {};
  socket.onclose = (event: CloseEvent) => {
    const outcome = closeOutcome(event.code, event.reason, { opened, receivedOutput });
    end(outcome.state, outcome.message);
  };

  const send = (data: string | ArrayBufferView): SendResult => {
    if (ended || socket.readyState !== OPEN) return 'disconnected';
    try {
      socket.send(data);
      return 'sent';
    } catch {
      return 'failed';
    }
  };

  return {
    send: (text) => (text === '' ? 'sent' : send(text)),
    interrupt: () => send(''),
    resize: (cols, rows) => {
      send(new TextEncoder().encode(JSON.stringify({ type: 'resize', cols, rows })));
    },
    close: () => {
      ended = true;
      clearTimeout(timer);
      socket.close();
    },
  };
}
