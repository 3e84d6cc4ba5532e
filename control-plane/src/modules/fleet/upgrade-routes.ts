import Router from '@koa/router';
import { type AppState, requireAdmin } from '../../framework/auth.js';
import { idParam } from '../../framework/validate.js';
import type { UpgradeService } from './upgrade.js';

/**
 * `POST /api/admin/nodes/{id}/upgrade` → 202 `{ from, to }` once the node's agent took the
 * bundle (it restarts then; the node view says 升级中 until it reports the new build).
 */
export function upgradeRoutes(upgrades: UpgradeService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin/nodes' });
  router.use(requireAdmin);

  router.post('/:id/upgrade', async (ctx) => {
    const reply = await upgrades.start(idParam(ctx.params.id));
    ctx.status = 202;
    ctx.body = reply;
  });

  return router;
}
