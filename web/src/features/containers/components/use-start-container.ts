import { App } from 'antd';
import { ApiError, withDetail } from '../../../lib/api-client';
import type { StartRequest } from '../api/container-commands';

/** The server's answer when too few GPUs are free for an hourly container to start again. */
export const GPU_INSUFFICIENT = 'GPU_INSUFFICIENT';

export function isGpuInsufficient(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && error.code === GPU_INSUFFICIENT;
}

/**
 * Starts a container; when its GPUs are taken, asks whether to start it without GPUs (无卡模式)
 * with the server's explanation ("GPU 资源不足，当前可用 N 卡，可选择无卡模式启动").
 */
export function useStartWithFallback(start: (request: StartRequest) => Promise<unknown>) {
  const { message, modal } = App.useApp();

  const startNoGpu = (id: string) =>
    start({ id, noGpu: true }).then(
      () => {
        message.success('已以无卡模式启动');
      },
      (error: unknown) => {
        message.error(withDetail('启动容器失败', error));
      },
    );

  return (id: string) =>
    start({ id }).then(
      () => {
        message.success('启动成功');
      },
      (error: unknown) => {
        if (!isGpuInsufficient(error)) {
          message.error(withDetail('启动容器失败', error));
          return;
        }
        modal.confirm({
          title: 'GPU 资源不足',
          content: error.serverDetail ?? error.detail,
          okText: '无卡模式启动',
          cancelText: '取消',
          onOk: () => startNoGpu(id),
        });
      },
    );
}
