import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { GpuNode } from '@gpucloud/control-plane/api';
import { Alert, Button, Space } from 'antd';
import { useCallback, useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { errorDetail } from '../../../lib/api-client';
import { useNodes } from '../api/get-nodes';
import { AddNodeDialog } from './add-node-dialog';
import { MaintenanceDialog } from './maintenance-dialog';
import { NodeDetailDrawer } from './node-detail-drawer';
import { NodeTable } from './node-table';

export function NodesPage() {
  const nodes = useNodes();
  const [adding, setAdding] = useState(false);
  const [detailOf, setDetailOf] = useState<number | string | undefined>(undefined);
  const [maintaining, setMaintaining] = useState<GpuNode | undefined>(undefined);
  const showDetail = useCallback((node: GpuNode) => setDetailOf(node.id), []);
  return (
    <div>
      <PageHeader
        title="节点管理"
        extra={
          <Space>
            <Button icon={<ReloadOutlined />} onClick={() => void nodes.refetch()} loading={nodes.isFetching}>
              刷新
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              添加节点
            </Button>
          </Space>
        }
      />
      {nodes.isError ? (
        <Alert
          type="error"
          showIcon
          message="获取节点列表失败"
          description={errorDetail(nodes.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <NodeTable
        nodes={nodes.data?.items ?? []}
        total={nodes.data?.total ?? 0}
        loading={nodes.isPending}
        onShowDetail={showDetail}
        onMaintain={setMaintaining}
      />
      <MaintenanceDialog node={maintaining} onClose={() => setMaintaining(undefined)} />
      <NodeDetailDrawer nodeId={detailOf} onClose={() => setDetailOf(undefined)} />
      <AddNodeDialog open={adding} onClose={() => setAdding(false)} />
    </div>
  );
}
