import { WarningOutlined } from '@ant-design/icons';
import type { Container, ContainerGpu } from '@gpucloud/control-plane/api';
import { Alert, Space, Tag, Tooltip, Typography } from 'antd';
import { gpuIndexLabel, gpuStateDisplay } from '../../../lib/gpu';

/** One line per GPU for the hover: index, bus id, UUID, and its state when it is not fine. */
function GpuIdentities({ gpus }: { gpus: ContainerGpu[] }) {
  return (
    <div data-testid="container-gpu-identities">
      {[...gpus]
        .sort((a, b) => a.index - b.index)
        .map((gpu) => (
          <div key={gpu.uuid} className="mono">
            GPU {gpu.index} · {gpu.pci_bus_id || '-'} · {gpu.uuid}
            {gpu.state !== 'ok' ? ` · ${gpuStateDisplay(gpu.state).label}` : ''}
          </div>
        ))}
    </div>
  );
}

/**
 * The GPU cell of a container list: the count and model, then which GPUs ("GPU 0, 1"), with
 * their bus ids and UUIDs on hover. A GPU that is not fine colours the indices red.
 */
export function ContainerGpuCell({
  container,
  showSimulated = false,
}: {
  container: Container;
  showSimulated?: boolean;
}) {
  const indices = gpuIndexLabel(container);
  const gpus = container.gpus ?? [];
  const broken = gpus.some((gpu) => gpu.state !== 'ok');
  return (
    <Space direction="vertical" size={0}>
      <Space size={4}>
        <span>
          {container.gpu_count} × {container.gpu_type || 'GPU'}
        </span>
        {showSimulated && container.simulated ? <Tag color="purple">模拟</Tag> : null}
      </Space>
      {indices ? (
        gpus.length ? (
          <Tooltip title={<GpuIdentities gpus={gpus} />}>
            <Typography.Text
              type={broken ? 'danger' : 'secondary'}
              className="mono"
              style={{ fontSize: 12 }}
              data-testid={`container-gpu-indices-${container.container_id}`}
            >
              {indices}
            </Typography.Text>
          </Tooltip>
        ) : (
          <Typography.Text
            type="secondary"
            className="mono"
            style={{ fontSize: 12 }}
            data-testid={`container-gpu-indices-${container.container_id}`}
          >
            {indices}
          </Typography.Text>
        )
      ) : null}
    </Space>
  );
}

/** The row's red flag when a GPU the container holds has failed or disappeared; the reason on hover. */
export function GpuProblemTag({ container }: { container: Container }) {
  if (!container.gpu_problem) return null;
  return (
    <Tooltip title={container.gpu_problem}>
      <Tag
        color="error"
        icon={<WarningOutlined />}
        tabIndex={0}
        data-testid={`container-gpu-problem-${container.container_id}`}
      >
        GPU 异常
      </Tag>
    </Tooltip>
  );
}

/** The reason in full, for the container's detail views. */
export function GpuProblemAlert({ container }: { container: Container }) {
  if (!container.gpu_problem) return null;
  return (
    <Alert
      type="error"
      showIcon
      message="GPU 异常"
      description={container.gpu_problem}
      data-testid="container-gpu-problem-detail"
    />
  );
}
