import type { Container } from '@gpucloud/control-plane/api';
import { App, Button, Popconfirm, Space } from 'antd';
import { withDetail } from '../../../../lib/api-client';
import {
  useAdminDeleteContainer,
  useAdminStartContainer,
  useAdminStopContainer,
} from '../../api/admin-containers';
import { containerActions } from '../../status';
import { DestroyContainerButton } from '../destroy-container-button';
import { useStartWithFallback } from '../use-start-container';

/** Start, stop (after confirmation) and delete (irreversible, after confirmation) any user's container. */
export function AdminContainerActions({ container }: { container: Container }) {
  const { message } = App.useApp();
  const start = useAdminStartContainer();
  const stop = useAdminStopContainer();
  const remove = useAdminDeleteContainer();
  const startWithFallback = useStartWithFallback(start.mutateAsync);
  const actions = containerActions(container.status);
  const id = container.container_id;

  const run = (command: (id: string) => Promise<unknown>, success: string, failure: string) =>
    command(id).then(
      () => {
        message.success(success);
      },
      (error: unknown) => {
        message.error(withDetail(failure, error));
      },
    );

  if (actions.length === 0) return <span>-</span>;
  return (
    <Space size={0}>
      {actions.includes('start') ? (
        <Button type="link" size="small" loading={start.isPending} onClick={() => void startWithFallback(id)}>
          启动
        </Button>
      ) : null}
      {actions.includes('stop') ? (
        <Popconfirm
          title="停止容器"
          description={`确定要停止用户 ${container.username ?? ''} 的容器 ${container.name || id} 吗？`}
          okText="确定"
          cancelText="取消"
          onConfirm={() => run(stop.mutateAsync, '停止成功', '停止容器失败')}
        >
          <Button type="link" size="small" loading={stop.isPending}>
            停止
          </Button>
        </Popconfirm>
      ) : null}
      {actions.includes('destroy') ? (
        <DestroyContainerButton
          verb="删除"
          loading={remove.isPending}
          onConfirm={() => run(remove.mutateAsync, '删除成功', '删除容器失败')}
        />
      ) : null}
    </Space>
  );
}
