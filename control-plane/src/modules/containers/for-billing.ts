import type { Knex } from 'knex';
import { conflict } from '../../framework/errors.js';
import { ContainersForBillingRepository, containersSettlementSql } from './for-billing-repository.js';
import type { ContainersRepository } from './repository.js';

/**
 * What the billing module reads and writes of containers, on this module's repository (billing
 * owns no container column: platform.ts passes this as its BillingContainers). The one writer of
 * a renewal's expires_at.
 */
export function containersForBilling(repo: ContainersRepository) {
  const sets = new ContainersForBillingRepository();
  return {
    find: (id: string, trx?: Knex.Transaction) => repo.billed(id, trx),
    runningHourly: () => repo.transaction((trx) => sets.runningHourly(trx)),
    runningHourlyCount: () => repo.transaction((trx) => sets.runningHourlyCount(trx)),
    renewalTarget: (id: string) => repo.renewalTarget(id),
    addCost: (trx: Knex.Transaction, id: string, fen: number) => repo.addCost(trx, id, fen),
    /** A settlement's reads and writes of containers, as SQL billing's statement embeds. */
    settlementSql: containersSettlementSql,
    /** A paid renewal: the end moves `hours` on from the current end, or from now when past. */
    async extendPrepaid(trx: Knex.Transaction, id: string, hours: number) {
      const c = await repo.lockExpiry(trx, id);
      if (!c || c.status === 'deleted') throw conflict('容器已删除，无法续费', 'CONTAINER_DELETED');
      const now = new Date();
      const from = c.expires_at && c.expires_at > now ? c.expires_at : now;
      const end = new Date(from.getTime() + hours * 3600_000);
      await repo.update(id, { expires_at: end }, trx);
      return { from, end };
    },
  };
}
