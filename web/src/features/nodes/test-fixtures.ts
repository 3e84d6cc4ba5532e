import type { GpuNode, NodeGpu } from '@gpucloud/control-plane/api';

/**
 * A node as GET /api/admin/nodes(/{id}) answers it, for tests: every field the control plane
 * sends, with neutral values (nothing shown beyond what `overrides` set).
 */
export function aNode(overrides: Partial<GpuNode> = {}): GpuNode {
  return {
    id: 7,
    name: 'gpu-a',
    address: '10.0.0.1:50051',
    region: '华东一区',
    status: 'offline',
    last_heartbeat_at: null,
    public_host: '',
    hostname: '',
    cpu_model: '',
    cpu_cores: 0,
    memory_total_bytes: 0,
    docker_available: true,
    docker_error: null,
    docker_version: '',
    nvidia_driver_version: '',
    cuda_version: '',
    container_toolkit_version: '',
    container_toolkit_mode: '',
    nvidia_container_cli_version: '',
    nvidia_container_runtime_hook_version: '',
    nvidia_cdi_hook_version: '',
    gpu_device_path: '',
    warnings: [],
    gpu_probe_error: '',
    unsafe_reason: '',
    simulated: false,
    gpu_model: 'A100',
    gpu_total: 4,
    gpu_allocated: 0,
    gpu_free: 4,
    gpus: [],
    unknown_containers: [],
    reconciled_at: null,
    heartbeat_age_ms: null,
    gpu_usage: { free: 4, used: 0, held: 0, total: 4 },
    toolkit_unsafe: false,
    toolkit_unsafe_reason: '',
    image_disk_free_bytes: null,
    image_disk_total_bytes: null,
    volume_disk_free_bytes: null,
    volume_disk_total_bytes: null,
    last_error: null,
    last_error_at: null,
    maintenance: null,
    agent_version: null,
    agent_build: null,
    agent_protocol: null,
    agent_outdated: false,
    incompatible_reason: '',
    upgrading_since: null,
    upgrade_error: null,
    upgrade_error_at: null,
    ...overrides,
  };
}

/** One GPU of a node, healthy and free unless `overrides` say otherwise. */
export function aNodeGpu(index: number, overrides: Partial<NodeGpu> = {}): NodeGpu {
  return {
    uuid: `GPU-${String(index).padStart(8, '0')}-1111-2222-3333-444455556666`,
    index,
    pci_bus_id: `00000000:${(index + 1).toString(16).padStart(2, '0').toUpperCase()}:00.0`,
    model: 'NVIDIA A100-SXM4-80GB',
    memory_total_mib: 81920,
    state: 'ok',
    health_problem: '',
    persistence_mode: true,
    fabric_state: '',
    numa_node: 0,
    nvlink_peers: [],
    allocated: false,
    container_id: null,
    ...overrides,
  };
}
