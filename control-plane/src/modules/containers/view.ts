import type { SecretBox } from '../../framework/secret-box.js';
import { publicHostOf } from '../nodes/service.js';
import type { ContainerReply } from './contract.js';
import { diskWarning } from './disk-warning.js';
import type { ContainerRecord } from './repository.js';

/** A container as the console and the MCP API read it (the shape lives in contract.ts). */
export type ContainerView = ContainerReply;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** 下载中 until the node says it unpacks (a row from before the phase was kept: downloading). */
const pullPhase = (phase: string | null) => (phase === 'extracting' ? 'extracting' : 'downloading');

/** The status its owner sees: a purchase the node creates and starts is 启动中 (starting). */
export const shownStatus = (c: Pick<ContainerRecord, 'status'>) =>
  c.status === 'creating' ? 'starting' : c.status;

export function containerView(c: ContainerRecord, secrets: SecretBox): ContainerView {
  const framePorts: Record<string, number> = {};
  for (const p of c.ports) if (!p.custom) framePorts[String(p.container_port)] = p.host_port;
  return {
    container_id: c.id,
    name: c.name,
    username: c.username,
    status: shownStatus(c),
    pull_progress: c.status === 'pulling' ? (c.pull_progress ?? 0) : null,
    pull_phase: c.status === 'pulling' ? pullPhase(c.pull_phase) : null,
    image_name: c.image,
    create_time: c.created_at.toISOString(),
    start_time: iso(c.started_at),
    end_time: iso(c.expires_at),
    stopped_time: iso(c.stopped_at),
    billing_type: c.billing_type,
    price: c.price_fen / 100,
    total_cost: c.total_cost_fen / 100,
    gpu_count: c.gpu_count,
    gpu_type: c.gpu_type,
    gpu_indices: c.gpu_indices,
    gpus: c.gpus,
    gpu_problem: c.gpu_problem,
    region: c.region,
    node_id: c.node_id,
    node_name: c.node_name,
    node_status: c.node_status,
    simulated: c.node_simulated,
    ssh_server: publicHostOf({
      public_host: c.node_public_host,
      address: c.node_address,
      host_info: c.node_host_info,
    }),
    ssh_port: framePorts['22'] ?? null,
    password: secrets.open(c.password_encrypted),
    frame_ports: framePorts,
    custom_ports: c.ports.filter((p) => p.custom).map((p) => p.host_port),
    ports: c.ports.map((p) => ({ name: p.name, container_port: p.container_port, host_port: p.host_port })),
    mounts: c.mounts,
    start_error: c.start_error,
    jupyter: c.jupyter,
    writable_layer_bytes: c.writable_layer_bytes,
    disk_warning: diskWarning(c.writable_layer_bytes, c.writable_layer_allowance_bytes),
    no_gpu: c.no_gpu,
    no_gpu_price: c.no_gpu_price_fen / 100,
    pending_mounts: c.pending_mounts,
  };
}
