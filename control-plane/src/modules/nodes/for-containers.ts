// The nodes module's part of the containers module's list statement: SQL text about this module's
// tables (nodes, node_gpus), without bind parameters, that the containers repository embeds, so a
// container list is one statement with its nodes and GPUs (no query per node, no host_info read
// whole). The columns are what a container's view shows of them (containers/view.ts); the change
// triggers of migration 70 announce a change of exactly these.

/** The node columns a container's view reads, as `node_*` columns of the statement. */
export interface ContainerNodeFacts {
  node_name: string | null;
  node_address: string | null;
  node_public_host: string | null;
  /** host_info.publicHost where the agent reported a string there; else null. */
  node_reported_host: string | null;
  node_simulated: boolean | null;
  node_status: string | null;
  node_region: string | null;
}

/** The facts of one GPU a container holds, as the views read them (gpus.ts). */
export interface ContainerGpuFacts {
  uuid: string;
  gpu_index: number;
  pci_bus_id: string;
  health_problem: string;
  mig_enabled: boolean;
  fabric_state: string;
  missing_since: string | null;
}

export const nodesForContainersSql = {
  /** Joins the node `alias` of the container whose node id is `nodeId` (an SQL expression). */
  joinNode: (alias: string, nodeId: string) => `left join nodes ${alias} on ${alias}.id = ${nodeId}`,
  /** The ContainerNodeFacts columns of the joined node `alias` (group by `alias`.id). */
  nodeColumns: (alias: string) =>
    [
      `${alias}.name as node_name`,
      `${alias}.address as node_address`,
      `${alias}.public_host as node_public_host`,
      `case when jsonb_typeof(${alias}.host_info -> 'publicHost') = 'string'
            then ${alias}.host_info ->> 'publicHost' end as node_reported_host`,
      `${alias}.simulated as node_simulated`,
      `${alias}.status as node_status`,
      `${alias}.region as node_region`,
    ].join(', '),
  /** Joins the GPU `alias` of node `nodeId` with the UUID `uuid` (SQL expressions), where there is one. */
  joinGpu: (alias: string, nodeId: string, uuid: string) =>
    `left join node_gpus ${alias} on ${alias}.node_id = ${nodeId} and ${alias}.uuid = ${uuid}`,
  /** An aggregate: the joined GPUs `alias` as a JSON array of ContainerGpuFacts. */
  gpuFacts: (alias: string) =>
    `coalesce(json_agg(json_build_object(
        'uuid', ${alias}.uuid, 'gpu_index', ${alias}.gpu_index, 'pci_bus_id', ${alias}.pci_bus_id,
        'health_problem', ${alias}.health_problem, 'mig_enabled', ${alias}.mig_enabled,
        'fabric_state', ${alias}.fabric_state, 'missing_since', ${alias}.missing_since))
      filter (where ${alias}.uuid is not null), '[]'::json)`,
} as const;
