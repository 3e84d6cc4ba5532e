import type { ContainerView } from '../containers/view.js';
import type { McpContainerReply } from './contract.js';
import type { McpStatus } from './schema.js';

/** A container as the MCP API shows it (the shape lives in contract.ts). */
export type McpContainerView = McpContainerReply;

/** The platform's statuses folded into the five of the MCP dashboard. */
export function mcpStatus(status: string): McpStatus {
  switch (status) {
    case 'running':
      return 'running';
    case 'stopped':
      return 'stopped';
    case 'creating':
    case 'pulling':
    case 'starting':
      return 'creating';
    case 'deleted':
      return 'deleted';
    default:
      // error, failed, not_found: the container cannot run as it is.
      return 'failed';
  }
}

export function mcpContainerView(c: ContainerView, imageName: (image: string) => string): McpContainerView {
  return {
    container_id: c.container_id,
    name: c.name,
    image_name: imageName(c.image_name),
    image: c.image_name,
    gpu_count: c.gpu_count,
    gpu_type: c.gpu_type,
    status: mcpStatus(c.status),
    platform_status: c.status,
    pull_progress: c.pull_progress,
    created_at: c.create_time,
    started_at: c.start_time,
    stopped_at: c.stopped_time,
    region: c.region,
    node_name: c.node_name,
    ssh_server: c.ssh_server,
    ssh_port: c.ssh_port,
    ports: c.ports,
    price: c.price,
    total_cost: c.total_cost,
    no_gpu: c.no_gpu,
    start_error: c.start_error,
  };
}
