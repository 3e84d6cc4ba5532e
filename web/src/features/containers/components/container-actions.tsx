import { CopyOutlined, DownOutlined } from '@ant-design/icons';
import type { Container } from '@gpucloud/control-plane/api';
import { App, Button, Dropdown, type MenuProps, Popconfirm, Space, Tooltip } from 'antd';
import { withDetail } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { RenewButton } from '../../billing/components/renew-button';
import {
  useDeleteContainer,
  useResetContainerPassword,
  useStartContainer,
  useStopContainer,
} from '../api/container-commands';
import { connectionInfo } from '../connection';
import { containerActions } from '../status';
import type { ContainerPanel } from '../types';
import { DestroyContainerButton } from './destroy-container-button';
import { canSaveImage } from './save-image-dialog';
import { useStartWithFallback } from './use-start-container';

export interface ContainerActionsProps {
  container: Container;
  onOpenPanel: (container: Container, panel: ContainerPanel) => void;
}

type MoreAction = 'console' | 'reset-password' | 'ports' | 'mounts' | 'metrics' | 'save-image';

/**
 * The secondary actions of the 更多 menu; console and password reset need a running container,
 * 保存镜像 a running or stopped one.
 */
export function moreActions(status: string): { key: MoreAction; label: string }[] {
  const running = status === 'running';
  const items: { key: MoreAction; label: string }[] = [];
  if (running) items.push({ key: 'console', label: '终端' });
  if (running) items.push({ key: 'reset-password', label: '重置密码' });
  if (status !== 'deleted') {
    items.push({ key: 'ports', label: '修改端口' }, { key: 'mounts', label: '修改挂载' });
  }
  items.push({ key: 'metrics', label: '监控' });
  if (canSaveImage(status)) items.push({ key: 'save-image', label: '保存镜像' });
  return items;
}

/**
 * Row actions: start / stop / destroy exactly per the spec's status table and logs as buttons;
 * copying the connection info as an icon button; the rest in 更多.
 */
export function ContainerActions({ container, onOpenPanel }: ContainerActionsProps) {
  const { message, modal } = App.useApp();
  const start = useStartContainer();
  const stop = useStopContainer();
  const destroy = useDeleteContainer();
  const resetPassword = useResetContainerPassword();
  const startWithFallback = useStartWithFallback(start.mutateAsync);
  const actions = containerActions(container.status);
  const id = container.container_id;
  const info = connectionInfo(container);

  const run = (command: (id: string) => Promise<unknown>, success: string, failure: string) =>
    command(id).then(
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

  const confirmResetPassword = () =>
    modal.confirm({
      title: '重置密码',
      content: '确定要重置该容器的 root 密码吗？新密码将自动复制到剪贴板。',
      okText: '确定',
      cancelText: '取消',
      onOk: () =>
        resetPassword.mutateAsync(id).then(
          async ({ password }) => {
            message.success('密码重置成功');
            try {
              await copyText(password);
              message.info('新密码已复制到剪贴板');
            } catch {
              message.warning('复制失败，可在密码列查看新密码');
            }
          },
          (error: unknown) => {
            message.error(withDetail('密码重置失败', error));
          },
        ),
    });

  const onMore: MenuProps['onClick'] = ({ key }) => {
    const action = key as MoreAction;
    if (action === 'reset-password') confirmResetPassword();
    else onOpenPanel(container, action);
  };

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
          description="确定要停止该容器吗？"
          okText="确定"
          cancelText="取消"
          onConfirm={() => run(stop.mutateAsync, '停止成功', '停止容器失败')}
        >
          <Button type="link" size="small" loading={stop.isPending}>
            停止
          </Button>
        </Popconfirm>
      ) : null}
      <RenewButton container={container} />
      <Button type="link" size="small" onClick={() => onOpenPanel(container, 'logs')}>
        日志
      </Button>
      {actions.includes('destroy') ? (
        <DestroyContainerButton
          verb="销毁"
          loading={destroy.isPending}
          onConfirm={() => run(destroy.mutateAsync, '销毁成功', '删除容器失败')}
        />
      ) : null}
      <Tooltip title="复制连接信息">
        <Button
          type="link"
          size="small"
          aria-label="复制连接信息"
          icon={<CopyOutlined />}
          disabled={!info}
          onClick={() => void copyConnection()}
        />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{ items: moreActions(container.status), onClick: onMore }}
        placement="bottomRight"
      >
        <Button type="link" size="small" loading={resetPassword.isPending} data-testid={`more-${id}`}>
          更多 <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );
}
