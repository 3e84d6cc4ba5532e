import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { App, Button, Flex, Space, Tag, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { getToken } from '../../../lib/auth';
import {
  type ConsoleSession,
  type ConsoleState,
  consoleSocketUrl,
  MSG_CONSOLE_DISCONNECTED,
  MSG_CONSOLE_OPEN_FAILED,
  MSG_CONSOLE_SEND_FAILED,
  openConsoleSession,
  type SendResult,
} from '../console-session';

const STATE_TAGS: Record<ConsoleState, { color: string; label: string }> = {
  connecting: { color: 'processing', label: '连接中' },
  open: { color: 'success', label: '已连接' },
  closed: { color: 'default', label: '已关闭' },
  failed: { color: 'error', label: '已断开' },
};

/**
 * An xterm.js terminal wired to the console WebSocket. Loaded lazily (console-drawer.tsx), so
 * xterm.js is downloaded only when a console is opened.
 */
export default function ConsoleTerminal({ containerId }: { containerId: string }) {
  const { message } = App.useApp();
  const hostRef = useRef<HTMLDivElement>(null);
  const sessionRef = useRef<ConsoleSession | null>(null);
  const warnedRef = useRef(false);
  const [state, setState] = useState<ConsoleState>('connecting');
  const [attempt, setAttempt] = useState(0);

  // A dead connection is reported once, not for every keystroke that follows.
  const report = (result: SendResult) => {
    if (result === 'failed') message.error(MSG_CONSOLE_SEND_FAILED);
    if (result === 'disconnected' && !warnedRef.current) {
      warnedRef.current = true;
      message.warning(MSG_CONSOLE_DISCONNECTED);
    }
  };
  const reportRef = useRef(report);
  reportRef.current = report;

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt reconnects on purpose
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    warnedRef.current = false;
    setState('connecting');
    const terminal = new Terminal({
      cursorBlink: true,
      fontSize: 13,
      fontFamily: 'Menlo, Monaco, Consolas, "Courier New", monospace',
      theme: { background: '#0d1117', foreground: '#e6edf3' },
      scrollback: 5000,
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(host);
    const refit = () => {
      try {
        fit.fit();
      } catch {
        // The drawer is still animating in and has no size yet; the next resize fits it.
      }
    };
    refit();

    const token = getToken();
    if (!token) {
      setState('failed');
      message.error(MSG_CONSOLE_OPEN_FAILED);
      return () => terminal.dispose();
    }
    const session = openConsoleSession({
      url: consoleSocketUrl(window.location, containerId, token, {
        cols: terminal.cols,
        rows: terminal.rows,
      }),
      onOpen: () => {
        setState('open');
        terminal.focus();
      },
      onOutput: (data) => terminal.write(data),
      onEnd: (end, text) => {
        setState(end);
        warnedRef.current = true;
        if (end === 'closed') message.info(text);
        else message.error(text);
      },
    });
    sessionRef.current = session;
    const input = terminal.onData((data) => reportRef.current(session.send(data)));
    const resize = terminal.onResize(({ cols, rows }) => session.resize(cols, rows));
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(refit);
    observer?.observe(host);

    return () => {
      observer?.disconnect();
      input.dispose();
      resize.dispose();
      session.close();
      sessionRef.current = null;
      terminal.dispose();
    };
  }, [containerId, attempt, message]);

  const tag = STATE_TAGS[state];
  return (
    <Flex vertical gap={12} style={{ height: '100%' }}>
      <Flex justify="space-between" align="center">
        <Tag color={tag.color} data-testid="console-state">
          {tag.label}
        </Tag>
        <Space>
          <Tooltip title="发送中断信号（Ctrl+C）">
            <Button
              size="small"
              disabled={state !== 'open'}
              onClick={() => {
                const session = sessionRef.current;
                if (session) reportRef.current(session.interrupt());
              }}
            >
              Ctrl+C
            </Button>
          </Tooltip>
          <Button size="small" disabled={state === 'connecting'} onClick={() => setAttempt((n) => n + 1)}>
            重新连接
          </Button>
        </Space>
      </Flex>
      <div
        ref={hostRef}
        data-testid="console-output"
        style={{
          flex: 1,
          minHeight: 420,
          background: '#0d1117',
          borderRadius: 6,
          padding: 8,
          overflow: 'hidden',
        }}
      />
    </Flex>
  );
}
