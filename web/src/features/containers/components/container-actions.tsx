import { App, Button, Popconfirm, Space } from 'antd';
import { withDetail } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { useDeleteContainer, useStartContainer, useStopContainer } from '../api/container-commands';
import { connectionInfo } from '../connection';
import { containerActions } from '../status';
import type { Container } from '../types';

export interface ContainerActionsProps {
  container: Container;
  onShowLogs: (container: Container) => void;
}

/** Row actions exactly per the spec's status table, plus logs and copying the connection info. */
export function ContainerActions({ container, onShowLogs }: ContainerActionsProps) {
  const { message } = App.useApp();
  const start = useStartContainer();
  const stop = useStopContainer();
  const destroy = useDeleteContainer();
  const actions = containerActions(container.status);
  const id = container.container_id;
  const info = connectionInfo(container);

  const run = (mutation: typeof start, success: string, failure: string) =>
    mutation.mutateAsync(id).then(
      () => {
        message.success(success);
      },
      (error: unknown) => {
        message.error(withDetail(failure, error));
      },
    );

  const copyConnection = async () => {
    if (!info) return;
    try {
      await copyText(info);
      message.success('连接信息已复制');
    } catch {
      message.error('复制失败');
    }
  };

  return (
    <Space size={0}>
      {actions.includes('start') ? (
        <Button
          type="link"
          size="small"
          loading={start.isPending}
          onClick={() => void run(start, '启动成功', '启动容器失败')}
        >
          启动
        </Button>
      ) : null}
      {actions.includes('stop') ? (
        <Popconfirm
          title="停止容器"
          description="确定要停止该容器吗？"
          okText="确定"
          cancelText="取消"
          onConfirm={() => run(stop, '停止成功', '停止容器失败')}
        >
          <Button type="link" size="small" loading={stop.isPending}>
            停止
          </Button>
        </Popconfirm>
      ) : null}
      {actions.includes('destroy') ? (
        <Popconfirm
          title="销毁容器"
          description="确定要销毁该容器吗？此操作不可恢复，容器内的数据将被永久删除。"
          okText="确定"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={() => run(destroy, '销毁成功', '删除容器失败')}
        >
          <Button type="link" size="small" danger loading={destroy.isPending}>
            销毁
          </Button>
        </Popconfirm>
      ) : null}
      <Button type="link" size="small" onClick={() => onShowLogs(container)}>
        日志
      </Button>
      <Button type="link" size="small" disabled={!info} onClick={() => void copyConnection()}>
        复制连接信息
      </Button>
    </Space>
  );
}
