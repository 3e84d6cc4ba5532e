import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { McpContainer } from '@gpucloud/control-plane/api';
import { Button, Radio, Space } from 'antd';
import { useCallback, useState } from 'react';
import { LinkButton } from '../../../components/link-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useMcpContainers } from '../api/get-mcp-containers';
import { STATUS_FILTERS, type StatusFilter } from '../status';
import { CreateMcpContainerDialog } from './create-mcp-container-dialog';
import { LogsDialog } from './logs-dialog';
import { McpContainerTable, type McpPanel } from './mcp-container-table';
import { ResetPasswordDialog } from './reset-password-dialog';

/** /user/mcp: the containers behind the MCP API, with the same actions an MCP client has. */
export function McpPage() {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<{ container: McpContainer; panel: McpPanel } | null>(null);
  const containers = useMcpContainers(status);
  const onOpen = useCallback((container: McpContainer, panel: McpPanel) => setOpen({ container, panel }), []);
  const close = () => setOpen(null);

  return (
    <div>
      <PageHeader
        title="MCP 控制台"
        extra={
          <Space>
            <LinkButton to="/user/profile">API 密钥</LinkButton>
            <LinkButton to="/docs/api">API 文档</LinkButton>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void containers.refetch()}
              loading={containers.isFetching}
            >
              刷新
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              创建容器
            </Button>
          </Space>
        }
      />
      <Radio.Group
        data-testid="mcp-status-filter"
        optionType="button"
        buttonStyle="solid"
        value={status}
        onChange={(e) => setStatus(e.target.value as StatusFilter)}
        options={STATUS_FILTERS}
        style={{ marginBottom: 16 }}
      />
      <LoadError title="获取容器列表失败" error={containers.isError ? containers.error : null} />
      <McpContainerTable
        containers={containers.data?.items ?? []}
        loading={containers.isPending}
        onOpen={onOpen}
      />
      <CreateMcpContainerDialog open={creating} onClose={() => setCreating(false)} />
      {open?.panel === 'logs' ? <LogsDialog container={open.container} onClose={close} /> : null}
      {open?.panel === 'reset-password' ? (
        <ResetPasswordDialog container={open.container} onClose={close} />
      ) : null}
    </div>
  );
}
