import type { Container } from '@gpucloud/control-plane/api';
import { App, Drawer, Tag } from 'antd';
import { useLayoutEffect, useRef } from 'react';
import { type LogStreamState, useLogStream } from './use-log-stream';

const STATE_TAGS: Record<LogStreamState, { color: string; label: string }> = {
  idle: { color: 'default', label: '未连接' },
  connecting: { color: 'processing', label: '连接中' },
  open: { color: 'success', label: '已连接' },
  closed: { color: 'default', label: '连接已关闭' },
  error: { color: 'error', label: '连接失败' },
};

export function LogViewer({ container, onClose }: { container: Container | null; onClose: () => void }) {
  const { message } = App.useApp();
  const { text, state } = useLogStream(container?.container_id ?? null, () => {
    message.error('日志连接失败');
  });
  const outputRef = useRef<HTMLPreElement>(null);
  const followRef = useRef(true);

  // Follow the tail unless the reader scrolled up to look at older lines.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolling must run after each new chunk of text
  useLayoutEffect(() => {
    const output = outputRef.current;
    if (output && followRef.current) output.scrollTop = output.scrollHeight;
  }, [text]);

  const tag = STATE_TAGS[state];
  return (
    <Drawer
      title="容器日志"
      open={container !== null}
      onClose={onClose}
      width={760}
      destroyOnHidden
      extra={
        <span>
          {container?.name} <Tag color={tag.color}>{tag.label}</Tag>
        </span>
      }
    >
      <pre
        ref={outputRef}
        data-testid="log-output"
        className="mono"
        onScroll={(event) => {
          const el = event.currentTarget;
          followRef.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        style={{
          margin: 0,
          height: '100%',
          minHeight: 320,
          overflow: 'auto',
          background: '#0d1117',
          color: '#e6edf3',
          padding: 12,
          borderRadius: 6,
          fontSize: 12,
          lineHeight: 1.5,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {text || (state === 'open' ? '等待日志输出…' : '')}
      </pre>
    </Drawer>
  );
}
