import type { Container } from '@gpucloud/control-plane/api';
import { Alert, Drawer, Skeleton } from 'antd';
import { Component, lazy, type ReactNode, Suspense } from 'react';
import { MSG_CONSOLE_OPEN_FAILED } from '../console-session';
import { GpuProblemAlert } from './container-gpu';

// xterm.js is heavy: it is fetched the first time a console opens, never with the page.
const ConsoleTerminal = lazy(() => import('./console-terminal'));

/** Shows 打开 Console 失败 when the terminal's code cannot be loaded (e.g. after a redeploy). */
class TerminalLoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) {
      return <Alert type="error" showIcon message={MSG_CONSOLE_OPEN_FAILED} description="请刷新页面后重试" />;
    }
    return this.props.children;
  }
}

/** 终端: a shell in the running container. */
export function ConsoleDrawer({ container, onClose }: { container: Container | null; onClose: () => void }) {
  return (
    <Drawer
      title={`终端 - ${container?.name || container?.container_id || ''}`}
      open={container !== null}
      onClose={onClose}
      width={960}
      destroyOnHidden
    >
      {container ? (
        <>
          {container.gpu_problem ? (
            <div style={{ marginBottom: 12 }}>
              <GpuProblemAlert container={container} />
            </div>
          ) : null}
          <TerminalLoadBoundary>
            <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
              <ConsoleTerminal containerId={container.container_id} />
            </Suspense>
          </TerminalLoadBoundary>
        </>
      ) : null}
    </Drawer>
  );
}
