import { ReloadOutlined } from '@ant-design/icons';
import type { McpContainer } from '@gpucloud/control-plane/api';
import { Alert, Button, Empty, Modal, Spin } from 'antd';
import type { ReactNode } from 'react';
import { errorDetail } from '../../../lib/api-client';
import { useMcpLogs } from '../api/get-mcp-logs';
import { MSG_LOGS_FAILED, MSG_NO_LOGS } from '../types';

/** The container's recent log as text; 暂无日志 when empty, 获取日志失败 when it cannot be read. */
export function LogsDialog({ container, onClose }: { container: McpContainer; onClose: () => void }) {
  const logs = useMcpLogs(container.container_id);
  let body: ReactNode;
  if (logs.isPending) body = <Spin />;
  else if (logs.isError)
    body = <Alert type="error" showIcon message={MSG_LOGS_FAILED} description={errorDetail(logs.error)} />;
  else if (!logs.data) body = <Empty description={MSG_NO_LOGS} />;
  else
    body = (
      <pre
        className="mono"
        data-testid="mcp-log-output"
        style={{ maxHeight: 480, overflow: 'auto', margin: 0 }}
      >
        {logs.data}
      </pre>
    );
  return (
    <Modal
      open
      width={860}
      title={`容器日志 - ${container.name}`}
      onCancel={onClose}
      footer={[
        <Button
          key="refresh"
          icon={<ReloadOutlined />}
          loading={logs.isFetching}
          onClick={() => void logs.refetch()}
        >
          刷新
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          关闭
        </Button>,
      ]}
    >
      {body}
    </Modal>
  );
}
