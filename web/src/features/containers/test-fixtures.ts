import type { Container } from '@gpucloud/control-plane/api';

/**
 * A container as GET /api/containers answers it, for tests: every field the control plane sends,
 * with neutral values (nothing shown beyond what `overrides` set).
 */
export function aContainer(overrides: Partial<Container> = {}): Container {
  return {
    container_id: 'c-1',
    name: 'box',
    username: '',
    status: 'running',
    image_name: 'pytorch:2.1-cuda12.1',
    create_time: '2025-03-01T08:00:00Z',
    start_time: null,
    end_time: null,
    stopped_time: null,
    billing_type: 'hourly',
    price: 0,
    total_cost: 0,
    gpu_count: 1,
    gpu_type: '',
    gpu_indices: [],
    gpus: [],
    gpu_problem: null,
    region: '',
    node_id: 1,
    node_name: '',
    node_status: 'online',
    simulated: false,
    ssh_server: '',
    ssh_port: null,
    password: '',
    frame_ports: {},
    custom_ports: [],
    ports: [],
    mounts: [],
    start_error: null,
    jupyter: '',
    writable_layer_bytes: null,
    disk_warning: null,
    pull_progress: null,
    pull_phase: null,
    no_gpu: false,
    no_gpu_price: 0,
    pending_mounts: null,
    ...overrides,
  };
}

/** Containers as GET /api/containers answers them, for component tests. */
export const runningContainer: Container = aContainer({
  container_id: 'c-run',
  name: 'train-box',
  status: 'running',
  image_name: 'pytorch:2.1-cuda12.1',
  create_time: '2025-03-01T08:00:00Z',
  end_time: null,
  billing_type: 'hourly',
  gpu_count: 2,
  gpu_type: 'RTX 4090',
  gpu_indices: [0, 1],
  gpus: [
    { uuid: 'GPU-4090-0000-aaaa', index: 0, pci_bus_id: '00000000:01:00.0', state: 'ok' },
    { uuid: 'GPU-4090-0001-bbbb', index: 1, pci_bus_id: '00000000:02:00.0', state: 'ok' },
  ],
  simulated: true,
  ssh_server: 'gpu1.example.com',
  ssh_port: 10001,
  password: 'pa55word',
  frame_ports: { '22': 10001, '8888': 10002 },
  custom_ports: [12000],
  mounts: [],
  pending_mounts: null,
  no_gpu: false,
});

export const stoppedContainer: Container = {
  ...runningContainer,
  container_id: 'c-stop',
  name: 'idle-box',
  status: 'stopped',
  custom_ports: [],
};

/** A WebSocket stand-in that records what the console or log viewer sends. */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  binaryType = 'blob';
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  sent: unknown[] = [];
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: unknown) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
}
