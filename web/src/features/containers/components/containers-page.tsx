import { ReloadOutlined } from '@ant-design/icons';
import type { Container } from '@gpucloud/control-plane/api';
import { Button, Space } from 'antd';
import { useCallback, useState } from 'react';
import { LinkButton } from '../../../components/link-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useContainers } from '../api/get-containers';
import type { ContainerPanel } from '../types';
import { ConsoleDrawer } from './console-drawer';
import { ContainerTable } from './container-table';
import { EditMountsDialog } from './edit-mounts-dialog';
import { EditPortsDialog } from './edit-ports-dialog';
import { LogViewer } from './log-viewer';
import { MetricsDrawer } from './metrics-drawer';
import { SaveImageDialog } from './save-image-dialog';

export function ContainersPage() {
  const containers = useContainers();
  const [open, setOpen] = useState<{ container: Container; panel: ContainerPanel } | null>(null);
  const openPanel = useCallback(
    (container: Container, panel: ContainerPanel) => setOpen({ container, panel }),
    [],
  );
  const close = () => setOpen(null);
  const shown = (panel: ContainerPanel) => (open?.panel === panel ? open.container : null);
  const portsOf = shown('ports');
  const mountsOf = shown('mounts');
  const savingOf = shown('save-image');

  return (
    <div>
      <PageHeader
        title="我的容器"
        extra={
          <Space>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void containers.refetch()}
              loading={containers.isFetching}
            >
              刷新
            </Button>
            <LinkButton to="/market" type="primary">
              创建实例
            </LinkButton>
          </Space>
        }
      />
      <LoadError title="获取容器列表失败" error={containers.isError ? containers.error : null} />
      <ContainerTable
        containers={containers.data?.items ?? []}
        loading={containers.isPending}
        onOpenPanel={openPanel}
      />
      <LogViewer container={shown('logs')} onClose={close} />
      <MetricsDrawer container={shown('metrics')} onClose={close} />
      <ConsoleDrawer container={shown('console')} onClose={close} />
      {portsOf ? <EditPortsDialog key={portsOf.container_id} container={portsOf} onClose={close} /> : null}
      {mountsOf ? (
        <EditMountsDialog key={mountsOf.container_id} container={mountsOf} onClose={close} />
      ) : null}
      {savingOf ? <SaveImageDialog key={savingOf.container_id} container={savingOf} onClose={close} /> : null}
    </div>
  );
}
