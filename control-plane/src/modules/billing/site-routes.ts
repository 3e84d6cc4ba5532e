import Router from '@koa/router';
import type { AppState } from '../../framework/auth.js';
import { yuan } from './numbers.js';

/**
 * What the console shows before sign-in about this deployment: the trial credit a new user gets
 * (NEW_USER_CREDIT_YUAN), so the register screen and the app market's banner say the amount the
 * server books. Public: no sign-in needed.
 */
export function siteRoutes(billing: { newUserCreditFen: number }): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });
  const newUserCredit = yuan(billing.newUserCreditFen);
  router.get('/site', (ctx) => {
    ctx.body = { new_user_credit: newUserCredit };
  });
  return router;
}
