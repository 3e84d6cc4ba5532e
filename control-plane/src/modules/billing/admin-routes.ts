import Router from '@koa/router';
import { type AppState, currentUser, requireAdmin } from '../../framework/auth.js';
import { idParam, parse } from '../../framework/validate.js';
import type { Billing } from './build.js';
import {
  adjustSchema,
  adminCouponsQuery,
  adminInvoicesQuery,
  adminPaymentsQuery,
  grantCouponsSchema,
} from './schema.js';

/** Admin money tools: balance adjustments, payments, invoices to issue, coupons to grant. */
export function billingAdminRoutes(b: Billing): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });
  router.use(requireAdmin);

  router.post('/users/:id/balance', async (ctx) => {
    const body = parse(adjustSchema, ctx.request.body);
    ctx.body = await b.account.adjust(currentUser(ctx), idParam(ctx.params.id), body.amount, body.reason);
  });

  router.get('/payments', async (ctx) => {
    const q = parse(adminPaymentsQuery, ctx.query);
    ctx.body = await b.payments.listAll({
      page: q.page,
      size: q.size,
      status: q.status,
      username: q.username || undefined,
    });
  });

  router.get('/invoices', async (ctx) => {
    const q = parse(adminInvoicesQuery, ctx.query);
    ctx.body = await b.invoices.list({ page: q.page, pageSize: q.size, status: q.status });
  });
  router.post('/invoices/:id/issue', async (ctx) => {
    ctx.body = await b.invoices.issue(currentUser(ctx).id, idParam(ctx.params.id));
  });
  router.get('/invoices/:id/download', async (ctx) => {
    const doc = await b.invoices.document(undefined, idParam(ctx.params.id));
    ctx.type = 'text/html; charset=utf-8';
    ctx.attachment(doc.filename);
    ctx.body = doc.html;
  });

  router.get('/coupons', async (ctx) => {
    const q = parse(adminCouponsQuery, ctx.query);
    ctx.body = await b.coupons.listAll({
      page: q.page,
      size: q.size,
      status: q.status,
      username: q.username || undefined,
    });
  });
  router.post('/coupons', async (ctx) => {
    const body = parse(grantCouponsSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await b.coupons.grant(currentUser(ctx).id, {
      name: body.name,
      amountFen: body.amount,
      minAmountFen: body.minAmount,
      expiresAt: body.expireDate,
      usernames: [...new Set(body.usernames)],
    });
  });
  router.delete('/coupons/:id', async (ctx) => {
    await b.coupons.revoke(idParam(ctx.params.id));
    ctx.body = { ok: true };
  });
  return router;
}
