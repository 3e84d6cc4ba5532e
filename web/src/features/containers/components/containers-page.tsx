import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Space } from 'antd';
import { useCallback, useState } from 'react';
import { LinkButton } from '../../../components/link-button';
import { PageHeader } from '../../../components/page-header';
import { errorDetail } from '../../../lib/api-client';
import { useContainers } from '../api/get-containers';
import type { Container } from '../types';
import { ContainerTable } from './container-table';
import { LogViewer } from './log-viewer';

export function ContainersPage() {
  const containers = useContainers();
  const [logContainer, setLogContainer] = useState<Container | null>(null);
  const showLogs = useCallback((container: Container) => setLogContainer(container), []);

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
      {containers.isError ? (
        <Alert
          type="error"
          showIcon
          message="获取容器列表失败"
          description={errorDetail(containers.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <ContainerTable
        containers={containers.data?.items ?? []}
        loading={containers.isPending}
        onShowLogs={showLogs}
      />
      <LogViewer container={logContainer} onClose={() => setLogContainer(null)} />
    </div>
  );
}
