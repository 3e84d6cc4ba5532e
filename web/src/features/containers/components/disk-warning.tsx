import { WarningOutlined } from '@ant-design/icons';
import type { Container } from '@gpucloud/control-plane/api';
import { Alert, Tag, Tooltip } from 'antd';

/**
 * The row's amber flag when the container's 系统盘 (writable layer) nears or passes the node's
 * allowance on a node that cannot limit it; the server's reason and advice on hover.
 */
export function DiskWarningTag({ container }: { container: Container }) {
  if (!container.disk_warning) return null;
  return (
    <Tooltip title={container.disk_warning}>
      <Tag
        color="warning"
        icon={<WarningOutlined />}
        tabIndex={0}
        data-testid={`container-disk-warning-${container.container_id}`}
      >
        系统盘将满
      </Tag>
    </Tooltip>
  );
}

/** The warning in full, for the container's detail views. */
export function DiskWarningAlert({ container }: { container: Container }) {
  if (!container.disk_warning) return null;
  return (
    <Alert
      type="warning"
      showIcon
      message="系统盘将满"
      description={container.disk_warning}
      data-testid="container-disk-warning-detail"
    />
  );
}
