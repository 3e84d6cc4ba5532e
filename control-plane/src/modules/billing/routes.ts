import Router from '@koa/router';
import { type AppContext, type AppState, currentUser, requireUser } from '../../framework/auth.js';
import { AppError, badRequest } from '../../framework/errors.js';
import type { FastRead } from '../../framework/fast-path.js';
import { containerIdParam, idParam, parse } from '../../framework/validate.js';
import type { Billing } from './build.js';
import {
  couponsQuery,
  invoiceApplySchema,
  invoiceStatusSchema,
  invoicesQuery,
  ordersQuery,
  payMethodSchema,
  recordsQuery,
  renewSchema,
  skipLimitQuery,
  thresholdSchema,
  topUpSchema,
  tradeNoQuery,
  transactionsQuery,
} from './schema.js';
import { WechatPayError, WechatPayResourceError } from './wechat-pay.js';

/** WeChat Pay's notification (no session: the signature authenticates) and the sandbox payment page. */
export function paymentCallbackRoutes(b: Billing): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/billing' });

  // WeChat Pay's notification: no session, the signature is the authentication.
  router.post('/wechat/notify', async (ctx) => {
    const wechat = b.wechatPay;
    if (!wechat) {
      ctx.status = 404;
      ctx.body = { code: 'FAIL', message: '未配置微信支付' };
      return;
    }
    const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
    try {
      const { eventType, transaction } = wechat.parseNotification({
        timestamp: ctx.get('wechatpay-timestamp') || undefined,
        nonce: ctx.get('wechatpay-nonce') || undefined,
        signature: ctx.get('wechatpay-signature') || undefined,
        serial: ctx.get('wechatpay-serial') || undefined,
        body: raw,
      });
      if (eventType === 'TRANSACTION.SUCCESS') await b.payments.notified(transaction);
      ctx.status = 204;
    } catch (err) {
      // WeChat retries anything but a 2xx for a day: a refusal of ours is a 4xx with its reason
      // ({code: FAIL}); only our own failure is a 500 (then the retry is welcome).
      b.log('wechat pay notification refused', err);
      if (err instanceof WechatPayResourceError) {
        ctx.status = 400;
        ctx.body = { code: 'FAIL', message: '通知内容解密失败' };
      } else if (err instanceof WechatPayError || err instanceof SyntaxError) {
        ctx.status = 401;
        ctx.body = { code: 'FAIL', message: '签名验证失败' };
      } else if (err instanceof AppError && err.status < 500) {
        ctx.status = err.status;
        ctx.body = { code: 'FAIL', message: err.detail };
      } else {
        ctx.status = 500;
        ctx.body = { code: 'FAIL', message: '处理失败' };
      }
    }
  });

  // The sandbox payment page (what the QR code opens when WeChat Pay is not configured): the
  // order's owner only, signed in (anonymous 401, another user 403).
  router.get('/wechat/sandbox/:no', requireUser, async (ctx) => {
    const { out_trade_no } = parse(tradeNoQuery, { out_trade_no: ctx.params.no });
    ctx.body = await b.payments.sandboxInfo(currentUser(ctx).id, out_trade_no);
  });
  router.post('/wechat/sandbox/:no/pay', requireUser, async (ctx) => {
    const { out_trade_no } = parse(tradeNoQuery, { out_trade_no: ctx.params.no });
    ctx.body = await b.payments.sandboxPay(currentUser(ctx).id, out_trade_no);
  });

  return router;
}

/** Balance, top-up (WeChat Pay), billing records. */
/** GET /api/billing/balance: also answered before Koa for a remembered session (app.ts). */
export function balanceRead(b: Billing): FastRead {
  return { path: '/api/billing/balance', read: (user) => b.account.balance(user.id) };
}

export function billingRoutes(b: Billing): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/billing' });
  router.use(requireUser);

  const balance = balanceRead(b);
  router.get('/balance', async (ctx) => {
    ctx.body = await balance.read(currentUser(ctx));
  });
  router.get('/statistics', async (ctx) => {
    ctx.body = await b.account.statistics(currentUser(ctx).id);
  });
  router.post('/alert-threshold', async (ctx) => {
    const body = parse(thresholdSchema, ctx.request.body);
    ctx.body = await b.account.setAlertThreshold(currentUser(ctx).id, body.threshold);
  });
  router.get('/payment-provider', async (ctx) => {
    ctx.body = { provider: b.payments.providerKind };
  });

  const topUp = async (ctx: AppContext) => {
    const body = parse(topUpSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await b.payments.create({
      userId: currentUser(ctx).id,
      amountFen: body.amount,
      description: body.description || '账户充值',
    });
  };
  router.post('/wechat/create', topUp);
  router.post('/recharge', topUp);

  router.get('/wechat/query', async (ctx) => {
    const q = parse(tradeNoQuery, ctx.query);
    ctx.body = await b.payments.query(currentUser(ctx).id, q.out_trade_no);
  });
  router.post('/wechat/cancel', async (ctx) => {
    const body = parse(tradeNoQuery, ctx.request.body);
    ctx.body = await b.payments.cancel(currentUser(ctx).id, body.out_trade_no);
  });

  router.get('/billing-records', async (ctx) => {
    const q = parse(recordsQuery, ctx.query);
    if (q.start_date && q.end_date && q.start_date > q.end_date) throw badRequest('开始日期不能晚于结束日期');
    ctx.body = await b.records.records({
      userId: currentUser(ctx).id,
      type: q.type === 'all' ? undefined : q.type,
      from: q.start_date,
      to: q.end_date,
      offset: q.skip,
      limit: q.limit,
    });
  });
  return router;
}

/** Orders, transactions, invoices, coupons and renewals. */
export function commerceRoutes(b: Billing): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });
  router.use(requireUser);

  router.get('/orders/container-orders', async (ctx) => {
    const q = parse(skipLimitQuery, ctx.query);
    ctx.body = await b.orders.list(currentUser(ctx).id, { offset: q.skip, limit: q.limit });
  });
  router.get('/orders', async (ctx) => {
    const q = parse(ordersQuery, ctx.query);
    ctx.body = await b.orders.list(currentUser(ctx).id, { offset: q.skip, limit: q.limit, status: q.status });
  });
  router.get('/orders/:id', async (ctx) => {
    ctx.body = await b.orders.get(currentUser(ctx).id, idParam(ctx.params.id));
  });
  router.post('/orders/:id/pay', async (ctx) => {
    const body = parse(payMethodSchema, ctx.request.body);
    ctx.body = await b.renewals.pay(currentUser(ctx).id, idParam(ctx.params.id), body.payment_method);
  });
  router.post('/orders/:id/cancel', async (ctx) => {
    ctx.body = await b.orders.cancel(currentUser(ctx).id, idParam(ctx.params.id));
  });
  router.post('/containers/:id/renew', async (ctx) => {
    const body = parse(renewSchema, ctx.request.body);
    ctx.body = await b.renewals.renew(currentUser(ctx).id, containerIdParam(ctx.params.id), {
      duration: body.duration,
      method: body.payment_method,
    });
  });

  router.get('/transactions', async (ctx) => {
    const q = parse(transactionsQuery, ctx.query);
    ctx.body = await b.records.transactions({
      userId: currentUser(ctx).id,
      type: q.type,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
  });

  router.get('/invoices', async (ctx) => {
    const q = parse(invoicesQuery, ctx.query);
    ctx.body = await b.invoices.list({
      userId: currentUser(ctx).id,
      page: q.page,
      pageSize: q.page_size,
      status: q.status,
    });
  });
  router.post('/invoices', async (ctx) => {
    const body = parse(invoiceApplySchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await b.invoices.apply(currentUser(ctx).id, {
      orderId: body.order_id,
      title: body.title,
      taxNo: body.tax_no.toUpperCase(),
      amountFen: body.amount,
    });
  });
  router.get('/invoices/:id', async (ctx) => {
    ctx.body = await b.invoices.get(currentUser(ctx).id, idParam(ctx.params.id));
  });
  router.put('/invoices/:id', async (ctx) => {
    const body = parse(invoiceStatusSchema, ctx.request.body);
    ctx.body = await b.invoices.setStatus(currentUser(ctx).id, idParam(ctx.params.id), body.status);
  });
  router.get('/invoices/:id/download', async (ctx) => {
    const doc = await b.invoices.document(currentUser(ctx).id, idParam(ctx.params.id));
    ctx.type = 'text/html; charset=utf-8';
    ctx.attachment(doc.filename);
    ctx.body = doc.html;
  });

  router.get('/coupons', async (ctx) => {
    const q = parse(couponsQuery, ctx.query);
    ctx.body = await b.coupons.list(currentUser(ctx).id, {
      page: q.page,
      pageSize: q.page_size,
      status: q.status,
    });
  });
  router.post('/coupons/:id/use', async (ctx) => {
    ctx.body = await b.coupons.select(currentUser(ctx).id, idParam(ctx.params.id));
  });
  return router;
}
