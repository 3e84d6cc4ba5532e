import type { GpuNode } from '@gpucloud/control-plane/api';
import { Alert, Descriptions, Drawer, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { GpuMetricKind } from '../../../components/gpu-chart/gpu-metrics';
import { LazyGpuChart } from '../../../components/gpu-chart/lazy-gpu-chart';
import { formatDateTime } from '../../../lib/format';
import { useNode, useNodeMetrics } from '../api/get-node';
import {
  agentVersionLabel,
  gpuDevicePathLabel,
  gpuFreeSummary,
  maintenanceLabel,
  nodeStatusDisplay,
} from '../node-rules';
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
      <Descriptions.Item label="GPU" span={2}>
        {node.gpu_total
          ? `${node.gpu_model || 'GPU'} × ${node.gpu_total}（${gpuFreeSummary(node)}）`
          : '无 GPU'}
      </Descriptions.Item>
      <Descriptions.Item label="节点代理" span={2}>
        {agentVersionLabel(node)}
        {node.agent_outdated ? (
          <Tag color="warning" style={{ marginLeft: 8 }}>
            需升级
          </Tag>
        ) : null}
      </Descriptions.Item>
      {node.maintenance ? (
        <Descriptions.Item label="维护" span={2}>
          <Tag color="warning">维护中</Tag>
          {maintenanceLabel(node.maintenance)}
        </Descriptions.Item>
      ) : null}
      {node.last_error ? (
        <Descriptions.Item label="最近错误" span={2}>
          <Typography.Text type="danger">{node.last_error}</Typography.Text>（
          {formatDateTime(node.last_error_at)}）
        </Descriptions.Item>
      ) : null}
      {node.unsafe_reason ? (
        <Descriptions.Item label="安全检查" span={2}>
          <Typography.Text type="danger">{node.unsafe_reason}</Typography.Text>
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** How containers get GPUs on the node: the device path, the toolkit and its parts, driver and CUDA. */
function GpuRuntimeFacts({ node }: { node: GpuNode }) {
  const unknown = node.simulated ? '模拟' : '-';
  const version = (value: string | undefined) => value || unknown;
  return (
    <Descriptions size="small" column={2} bordered title="GPU 运行环境" data-testid="node-gpu-runtime">
      <Descriptions.Item label="GPU 设备方式">{gpuDevicePathLabel(node.gpu_device_path)}</Descriptions.Item>
      <Descriptions.Item label="Toolkit 模式">{node.container_toolkit_mode || unknown}</Descriptions.Item>
      <Descriptions.Item label="NVIDIA 驱动">{version(node.nvidia_driver_version)}</Descriptions.Item>
      <Descriptions.Item label="CUDA">{version(node.cuda_version)}</Descriptions.Item>
      <Descriptions.Item label="nvidia-ctk">{version(node.container_toolkit_version)}</Descriptions.Item>
      <Descriptions.Item label="nvidia-container-cli">
        {version(node.nvidia_container_cli_version)}
      </Descriptions.Item>
      <Descriptions.Item label="nvidia-container-runtime-hook">
        {version(node.nvidia_container_runtime_hook_version)}
      </Descriptions.Item>
      <Descriptions.Item label="nvidia-cdi-hook">{version(node.nvidia_cdi_hook_version)}</Descriptions.Item>
    </Descriptions>
  );
}

/** The node's GPU problems: nvidia-smi failing as a whole (error), then the operator's warnings. */
function GpuAlerts({ node }: { node: GpuNode }) {
  const warnings = node.warnings ?? [];
  if (!node.gpu_probe_error && warnings.length === 0) return null;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {node.gpu_probe_error ? (
        <Alert
          type="error"
          showIcon
          message="GPU 探测失败，该节点的 GPU 暂不可用"
          description={node.gpu_probe_error}
          data-testid="node-gpu-probe-error"
        />
      ) : null}
      {warnings.length ? (
        <Alert
          type="warning"
          showIcon
          message="节点提醒"
          data-testid="node-warnings"
          description={
            warnings.length === 1 ? (
              warnings[0]
            ) : (
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            )
          }
        />
      ) : null}
    </Space>
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
      width={960}
      title={data ? `节点详情 · ${data.name}` : '节点详情'}
      destroyOnClose
    >
      {data ? (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <HostFacts node={data} />
          <GpuAlerts node={data} />
          <GpuRuntimeFacts node={data} />
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
