import type { GpuNode } from '@gpucloud/control-plane/api';
import { Descriptions, Drawer, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { GpuMetricKind } from '../../../components/gpu-chart/gpu-metrics';
import { LazyGpuChart } from '../../../components/gpu-chart/lazy-gpu-chart';
import { formatDateTime } from '../../../lib/format';
import { useNode, useNodeMetrics } from '../api/get-node';
import { nodeStatusDisplay } from '../node-rules';
import { NodeGpuTable, UnknownContainersTable } from './node-detail-tables';
import { NodeImagesSection } from './node-images';

const GIB = 1024 ** 3;

function HostFacts({ node }: { node: GpuNode }) {
  const status = nodeStatusDisplay(node.status);
  return (
    <Descriptions size="small" column={2} bordered>
      <Descriptions.Item label="状态">
        <Tag color={status.color}>{status.label}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label="最近心跳">{formatDateTime(node.last_heartbeat_at)}</Descriptions.Item>
      <Descriptions.Item label="主机名">{node.hostname || '-'}</Descriptions.Item>
      <Descriptions.Item label="CPU">
        {node.cpu_model || '-'} {node.cpu_cores ? `(${node.cpu_cores} 核)` : ''}
      </Descriptions.Item>
      <Descriptions.Item label="内存">
        {node.memory_total_bytes ? `${Math.round(node.memory_total_bytes / GIB)} GB` : '-'}
      </Descriptions.Item>
      <Descriptions.Item label="Docker">
        {node.docker_available ? node.docker_version || '可用' : node.docker_error || '不可用'}
      </Descriptions.Item>
      <Descriptions.Item label="NVIDIA 驱动">
        {node.nvidia_driver_version || (node.simulated ? '模拟' : '-')}
      </Descriptions.Item>
      <Descriptions.Item label="Container Toolkit">
        {node.container_toolkit_version || (node.simulated ? '模拟' : '-')}
      </Descriptions.Item>
      {node.unsafe_reason ? (
        <Descriptions.Item label="安全检查" span={2}>
          <Typography.Text type="danger">{node.unsafe_reason}</Typography.Text>
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/**
 * 节点详情: host facts, GPUs with live utilisation charts, the images it holds (预热), and
 * containers Docker has but the platform does not.
 */
export function NodeDetailDrawer({
  nodeId,
  onClose,
}: {
  nodeId: number | string | undefined;
  onClose: () => void;
}) {
  const [kind, setKind] = useState<GpuMetricKind>('utilization');
  const node = useNode(nodeId);
  const metrics = useNodeMetrics(nodeId);
  const data = node.data;

  return (
    <Drawer
      open={nodeId !== undefined}
      onClose={onClose}
      width={760}
      title={data ? `节点详情 · ${data.name}` : '节点详情'}
      destroyOnClose
    >
      {data ? (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <HostFacts node={data} />
          <div>
            <Space style={{ marginBottom: 8 }}>
              <Typography.Title level={5} style={{ margin: 0 }}>
                GPU 监控（最近 60 分钟）
              </Typography.Title>
              <Segmented<GpuMetricKind>
                value={kind}
                onChange={setKind}
                options={[
                  { label: '利用率', value: 'utilization' },
                  { label: '显存', value: 'memory' },
                ]}
              />
              {data.simulated ? <Tag color="purple">模拟 GPU</Tag> : null}
            </Space>
            <LazyGpuChart metrics={metrics.data} kind={kind} />
          </div>
          <NodeGpuTable gpus={data.gpus ?? []} />
          <NodeImagesSection nodeId={data.id} />
          <div>
            <Typography.Title level={5}>未登记的容器</Typography.Title>
            <Typography.Paragraph type="secondary">
              节点上带平台标签、但平台没有记录的容器。平台不会自动删除它们，请人工核实后处理。
              {data.reconciled_at ? ` 最近核对：${formatDateTime(data.reconciled_at)}` : ''}
            </Typography.Paragraph>
            <UnknownContainersTable containers={data.unknown_containers ?? []} />
          </div>
        </Space>
      ) : null}
    </Drawer>
  );
}
