import type { Knex } from 'knex';
import * as foundation from './20261121000001_foundation.js';
import * as nodeHealth from './20261121000002_node_health.js';
import * as accounts from './20261121000010_accounts.js';
import * as containerOps from './20261121000020_container_ops.js';
import * as billing from './20261121000030_billing.js';
import * as storage from './20261121000040_storage.js';
import * as containerStateClock from './20261121000041_container_state_clock.js';
import * as containerJupyter from './20261124000050_container_jupyter.js';
import * as containerPull from './20261124000051_container_pull.js';
import * as nodeImages from './20261124000052_node_images.js';
import * as containerChanges from './20261124000053_container_changes.js';
import * as billingAccounts from './20261124000054_billing_accounts.js';
import * as gpuTruth from './20261124000055_gpu_truth.js';
import * as containerLayer from './20261125000056_container_layer.js';
import * as provisionLease from './20261125000057_provision_lease.js';
import * as settlementSets from './20261125000058_settlement_sets.js';
import * as marketChanges from './20261125000059_market_changes.js';
import * as settlementStatement from './20261125000060_settlement_statement.js';
import * as replyChanges from './20261125000070_reply_changes.js';
import * as userImages from './20261125000072_user_images.js';
import * as nodeJoin from './20261125000074_node_join.js';
import * as nodeMaintenance from './20261125000075_node_maintenance.js';
import * as nodeAgentVersions from './20261125000076_node_agent_versions.js';
import * as containerGpuSamples from './20261126000080_container_gpu_samples.js';
import * as workProgress from './20261126000082_work_progress.js';

/**
 * Every migration, in order. Listed statically (instead of read from the folder) so they load
 * the same way under tsx, vitest and a bundler.
 */
const MIGRATIONS: Record<string, Knex.Migration> = {
  '20261121000001_foundation': foundation,
  '20261121000002_node_health': nodeHealth,
  '20261121000010_accounts': accounts,
  '20261121000020_container_ops': containerOps,
  '20261121000030_billing': billing,
  '20261121000040_storage': storage,
  '20261121000041_container_state_clock': containerStateClock,
  '20261124000050_container_jupyter': containerJupyter,
  '20261124000051_container_pull': containerPull,
  '20261124000052_node_images': nodeImages,
  '20261124000053_container_changes': containerChanges,
  '20261124000054_billing_accounts': billingAccounts,
  '20261124000055_gpu_truth': gpuTruth,
  '20261125000056_container_layer': containerLayer,
  '20261125000057_provision_lease': provisionLease,
  '20261125000058_settlement_sets': settlementSets,
  '20261125000059_market_changes': marketChanges,
  '20261125000060_settlement_statement': settlementStatement,
  '20261125000070_reply_changes': replyChanges,
  '20261125000072_user_images': userImages,
  '20261125000074_node_join': nodeJoin,
  '20261125000075_node_maintenance': nodeMaintenance,
  '20261125000076_node_agent_versions': nodeAgentVersions,
  '20261126000080_container_gpu_samples': containerGpuSamples,
  '20261126000082_work_progress': workProgress,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};
