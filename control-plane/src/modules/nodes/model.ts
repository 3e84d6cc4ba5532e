import { Model, type Modifiers, type QueryBuilder, type RelationMappingsThunk } from 'objection';

/** A labelled container on the host that the platform has no live row for. */
export interface UnknownContainer {
  container_id: string;
  docker_id: string;
  owner_id: string;
  state: string;
  image: string;
}

export interface GpuMetric {
  /** Absent in samples stored before GPUs were named by UUID (read by index then). */
  uuid?: string;
  index: number;
  utilization_percent: number;
  memory_used_mib: number;
  memory_total_mib: number;
  temperature_c: number;
  power_draw_w: number;
}

/** A GPU host with its agent: what it reported last (host_info, GPUs, Docker) and its status. */
export class NodeModel extends Model {
  static override tableName = 'nodes';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // last_heartbeat_at, reconciled_at, images_listed_at, created_at and updated_at are Date
  // objects: left out of `properties`. The image disk sizes are bigints, read as numbers
  // (db/knex.ts). host_info and unknown_containers are JSON (written as JSON by Objection).
  static override jsonSchema = {
    type: 'object',
    required: ['name', 'address', 'token', 'region'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      address: { type: 'string' },
      token: { type: 'string' },
      region: { type: 'string' },
      public_host: { type: ['string', 'null'] },
      status: { type: 'string', enum: ['online', 'offline', 'unsafe'] },
      host_info: { type: ['object', 'null'] },
      docker_available: { type: 'boolean' },
      docker_error: { type: ['string', 'null'] },
      simulated: { type: 'boolean' },
      gpu_model: { type: ['string', 'null'] },
      gpu_total: { type: 'integer' },
      port_range_start: { type: 'integer' },
      port_range_end: { type: 'integer' },
      unknown_containers: { type: 'array' },
      image_disk_total_bytes: { type: ['integer', 'null'] },
      image_disk_free_bytes: { type: ['integer', 'null'] },
      tls: { type: 'string', enum: ['config', 'platform'] },
      maintenance_reason: { type: ['string', 'null'] },
      last_error: { type: ['string', 'null'] },
      agent_version: { type: ['string', 'null'] },
      agent_build: { type: ['string', 'null'] },
      agent_protocol: { type: ['integer', 'null'] },
      upgrade_target: { type: ['string', 'null'] },
      upgrade_error: { type: ['string', 'null'] },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    gpus: {
      relation: Model.HasManyRelation,
      modelClass: NodeGpuModel,
      join: { from: 'nodes.id', to: 'node_gpus.node_id' },
    },
    gpuSamples: {
      relation: Model.HasManyRelation,
      modelClass: GpuSampleModel,
      join: { from: 'nodes.id', to: 'gpu_samples.node_id' },
    },
    images: {
      relation: Model.HasManyRelation,
      modelClass: NodeImageModel,
      join: { from: 'nodes.id', to: 'node_images.node_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<NodeModel>> = {
    online(query) {
      query.where('nodes.status', 'online');
    },
  };

  id!: number;
  name!: string;
  address!: string;
  token!: string;
  region!: string;
  public_host!: string | null;
  status!: 'online' | 'offline' | 'unsafe';
  last_heartbeat_at!: Date | null;
  host_info!: Record<string, unknown> | null;
  docker_available!: boolean;
  docker_error!: string | null;
  simulated!: boolean;
  gpu_model!: string | null;
  gpu_total!: number;
  port_range_start!: number;
  port_range_end!: number;
  created_at!: Date;
  updated_at!: Date;
  unknown_containers!: UnknownContainer[];
  reconciled_at!: Date | null;
  image_disk_total_bytes!: number | null;
  image_disk_free_bytes!: number | null;
  images_listed_at!: Date | null;
  /** How the node is dialled: 'config' (AGENT_TLS_* or plaintext), 'platform' (mutual TLS, joined). */
  tls!: 'config' | 'platform';
  /** 维护中 since then (not offered in the market; running containers kept); null when not. */
  maintenance_since!: Date | null;
  maintenance_until!: Date | null;
  maintenance_reason!: string | null;
  /** The node monitor's last failed call to the node, cleared when one succeeds. */
  last_error!: string | null;
  last_error_at!: Date | null;
  /** The agent's version, build and protocol (GetHostInfo); null until read (migration 76). */
  agent_version!: string | null;
  agent_build!: string | null;
  agent_protocol!: number | null;
  /** 升级中 since then, to the build upgrade_target; upgrade_error says why the last one failed. */
  upgrading_since!: Date | null;
  upgrade_target!: string | null;
  upgrade_error!: string | null;
  upgrade_error_at!: Date | null;

  gpus?: NodeGpuModel[];
  gpuSamples?: GpuSampleModel[];
  images?: NodeImageModel[];
}

/** A node's GPUs in order: lowest index first (the UUID breaks a tie while indexes move). */
export const GPU_ORDER = [{ column: 'node_gpus.gpu_index' }, { column: 'node_gpus.uuid' }];

/**
 * One GPU of a node, as its agent reported it last, named by its UUID (the index and bus id are
 * for people). A GPU no longer reported keeps its row with missing_since set. missing_since and
 * problem_since are Date objects: left out of `properties`.
 */
export class NodeGpuModel extends Model {
  static override tableName = 'node_gpus';

  static override jsonSchema = {
    type: 'object',
    required: ['node_id', 'gpu_index', 'uuid', 'model'],
    properties: {
      id: { type: 'integer' },
      node_id: { type: 'integer' },
      gpu_index: { type: 'integer' },
      uuid: { type: 'string' },
      model: { type: 'string' },
      memory_total_mib: { type: 'integer' },
      pci_bus_id: { type: 'string' },
      health_problem: { type: 'string' },
      persistence_mode: { type: 'boolean' },
      mig_enabled: { type: 'boolean' },
      fabric_state: { type: 'string' },
      numa_node: { type: 'integer' },
      nvlink_peers: { type: 'array', items: { type: 'string' } },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    node: {
      relation: Model.BelongsToOneRelation,
      modelClass: NodeModel,
      join: { from: 'node_gpus.node_id', to: 'nodes.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<NodeGpuModel>> = {
    byIndex(query) {
      query.orderBy(GPU_ORDER);
    },
  };

  id!: number;
  node_id!: number;
  gpu_index!: number;
  uuid!: string;
  model!: string;
  memory_total_mib!: number;
  pci_bus_id!: string;
  health_problem!: string;
  persistence_mode!: boolean;
  mig_enabled!: boolean;
  fabric_state!: string;
  numa_node!: number;
  nvlink_peers!: string[];
  missing_since!: Date | null;
  problem_since!: Date | null;

  node?: NodeModel;
}

/** The GPU metrics of a node in one time bucket. */
export class GpuSampleModel extends Model {
  static override tableName = 'gpu_samples';

  // bucket is a Date: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['node_id', 'gpus'],
    properties: {
      id: { type: 'integer' },
      node_id: { type: 'integer' },
      gpus: { type: 'array' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    node: {
      relation: Model.BelongsToOneRelation,
      modelClass: NodeModel,
      join: { from: 'gpu_samples.node_id', to: 'nodes.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<GpuSampleModel>> = {
    /** Buckets from `since` on, oldest first. */
    since(query, since: Date) {
      query.where('gpu_samples.bucket', '>=', since).orderBy('gpu_samples.bucket');
    },
  };

  id!: number;
  node_id!: number;
  bucket!: Date;
  gpus!: GpuMetric[];

  node?: NodeModel;
}

/** An image a node holds (present), is pulling for a warm-up, or failed to pull. */
export class NodeImageModel extends Model {
  static override tableName = 'node_images';
  static override useLimitInFirst = true;

  // updated_at is a Date: left out of `properties`. size_bytes is a bigint, read as a number.
  static override jsonSchema = {
    type: 'object',
    required: ['node_id', 'image', 'status'],
    properties: {
      id: { type: 'integer' },
      node_id: { type: 'integer' },
      image: { type: 'string' },
      status: { type: 'string', enum: ['present', 'pulling', 'failed'] },
      progress: { type: 'integer' },
      pull_phase: { type: ['string', 'null'] },
      size_bytes: { type: ['integer', 'null'] },
      error: { type: ['string', 'null'] },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    node: {
      relation: Model.BelongsToOneRelation,
      modelClass: NodeModel,
      join: { from: 'node_images.node_id', to: 'nodes.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<NodeImageModel>> = {
    present(query) {
      query.where('node_images.status', 'present');
    },
  };

  id!: number;
  node_id!: number;
  image!: string;
  status!: 'present' | 'pulling' | 'failed';
  progress!: number;
  /** While pulling: downloading or extracting (下载中 / 解压中). */
  pull_phase!: string | null;
  size_bytes!: number | null;
  error!: string | null;
  updated_at!: Date;

  node?: NodeModel;
}

export type NodeRow = Pick<
  NodeModel,
  | 'id'
  | 'name'
  | 'address'
  | 'token'
  | 'region'
  | 'public_host'
  | 'status'
  | 'last_heartbeat_at'
  | 'host_info'
  | 'docker_available'
  | 'docker_error'
  | 'simulated'
  | 'gpu_model'
  | 'gpu_total'
  | 'port_range_start'
  | 'port_range_end'
  | 'created_at'
  | 'unknown_containers'
  | 'reconciled_at'
  | 'image_disk_total_bytes'
  | 'image_disk_free_bytes'
  | 'images_listed_at'
  | 'tls'
  | 'maintenance_since'
  | 'maintenance_until'
  | 'maintenance_reason'
  | 'last_error'
  | 'last_error_at'
  | 'agent_version'
  | 'agent_build'
  | 'agent_protocol'
  | 'upgrading_since'
  | 'upgrade_target'
  | 'upgrade_error'
  | 'upgrade_error_at'
>;

export type NodeGpuRow = Pick<
  NodeGpuModel,
  | 'node_id'
  | 'gpu_index'
  | 'uuid'
  | 'model'
  | 'memory_total_mib'
  | 'pci_bus_id'
  | 'health_problem'
  | 'persistence_mode'
  | 'mig_enabled'
  | 'fabric_state'
  | 'numa_node'
  | 'nvlink_peers'
  | 'missing_since'
  | 'problem_since'
>;

/** What the agent reports of a GPU (the row without what the control plane keeps). */
export type ReportedGpu = Omit<NodeGpuRow, 'node_id' | 'missing_since' | 'problem_since'>;

export type GpuSampleRow = Pick<GpuSampleModel, 'bucket' | 'gpus'>;

export type NodeImageRow = Pick<
  NodeImageModel,
  'node_id' | 'image' | 'status' | 'progress' | 'pull_phase' | 'size_bytes' | 'error' | 'updated_at'
>;
