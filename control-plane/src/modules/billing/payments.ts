import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError, badRequest, conflict, forbidden, notFound, unavailable } from '../../framework/errors.js';
import type {
  AdminPaymentListReply,
  AdminPaymentReply,
  CreatedPaymentReply,
  PaymentClosedReply,
  SandboxPaymentReply,
  TradeStateReply,
} from './contract.js';
import type { CouponsService } from './coupons.js';
import type { Ledger } from './ledger.js';
import { businessNo, iso, yuan } from './numbers.js';
import type { OrdersService } from './orders.js';
import type { PaymentRow, PaymentsRepository } from './payments-repository.js';
import { type BillingUsers, withUsernames } from './ports.js';
import type { NotifiedTransaction, PayProvider } from './wechat-pay.js';

export const MSG_PAY_UNAVAILABLE = '微信支付服务暂时不可用，请稍后再试或选择其他支付方式';
/** A QR code is valid for two hours, like WeChat's default. */
const PAYMENT_TTL_MS = 2 * 3600_000;

/** The QR of a top-up or an order's payment (the shape lives in contract.ts). */
export type CreatedPayment = CreatedPaymentReply;

export function paymentView(p: PaymentRow & { username?: string }): AdminPaymentReply {
  return {
    id: p.id,
    out_trade_no: p.out_trade_no,
    amount: yuan(p.amount_fen),
    provider: p.provider,
    status: p.status,
    trade_state: p.trade_state,
    transaction_id: p.transaction_id,
    description: p.description,
    order_id: p.order_id,
    create_time: p.created_at.toISOString(),
    paid_at: iso(p.paid_at),
    ...(p.username !== undefined ? { username: p.username } : {}),
  };
}

/**
 * Top-ups and order payments through WeChat Pay (Native): create → QR → query / notify → the
 * balance is credited exactly once per out_trade_no, whichever path (query, callback, sandbox) sees
 * the payment first.
 */
export class PaymentsService {
  constructor(
    private readonly d: {
      repo: PaymentsRepository;
      ledger: Ledger;
      coupons: CouponsService;
      orders: OrdersService;
      /** undefined: payments are switched off (no WeChat Pay and no sandbox). */
      provider: PayProvider | undefined;
      users: Pick<BillingUsers, 'usernames' | 'idsMatching'>;
      log: (message: string, err?: unknown) => void;
    },
  ) {}

  get providerKind(): 'wechat' | 'sandbox' | 'none' {
    return this.d.provider?.kind ?? 'none';
  }

  private provider(): PayProvider {
    if (!this.d.provider) throw unavailable(MSG_PAY_UNAVAILABLE, 'PAYMENT_UNAVAILABLE');
    return this.d.provider;
  }

  async create(p: {
    userId: number;
    amountFen: number;
    description: string;
    orderId?: number;
  }): Promise<CreatedPayment> {
    const provider = this.provider();
    const outTradeNo = businessNo('P');
    const payment = await this.d.repo.insert({
      out_trade_no: outTradeNo,
      user_id: p.userId,
      amount_fen: p.amountFen,
      provider: provider.kind,
      description: p.description.slice(0, 120),
      order_id: p.orderId ?? null,
    });
    try {
      const { codeUrl } = await provider.createNative({
        outTradeNo,
        description: payment.description,
        amountFen: p.amountFen,
        expiresAt: new Date(Date.now() + PAYMENT_TTL_MS),
      });
      await this.d.repo.update(payment.id, { code_url: codeUrl });
      return {
        out_trade_no: outTradeNo,
        code_url: codeUrl,
        amount: yuan(p.amountFen),
        provider: provider.kind,
      };
    } catch (err) {
      this.d.log(`wechat pay: creating ${outTradeNo} failed`, err);
      await this.d.repo.update(payment.id, { status: 'failed', trade_state: 'PAYERROR' });
      throw unavailable(MSG_PAY_UNAVAILABLE, 'PAYMENT_UNAVAILABLE');
    }
  }

  private async own(userId: number, outTradeNo: string): Promise<PaymentRow> {
    const p = await this.d.repo.findByTradeNo(outTradeNo);
    if (!p || p.user_id !== userId) throw notFound('支付订单不存在', 'PAYMENT_NOT_FOUND');
    return p;
  }

  /** The trade state the console polls every 3 s; a SUCCESS seen here credits like a callback. */
  async query(userId: number, outTradeNo: string): Promise<TradeStateReply> {
    const p = await this.own(userId, outTradeNo);
    if (p.status !== 'pending') return { out_trade_no: outTradeNo, trade_state: p.trade_state };
    let answer: Awaited<ReturnType<PayProvider['query']>>;
    try {
      answer = await this.provider().query(outTradeNo);
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.d.log(`wechat pay: query ${outTradeNo} failed`, err);
      throw unavailable(MSG_PAY_UNAVAILABLE, 'PAYMENT_UNAVAILABLE');
    }
    if (answer.tradeState === 'SUCCESS') {
      await this.confirmPaid(outTradeNo, {
        transactionId: answer.transactionId,
        amountFen: answer.amountFen,
      });
    } else if (['CLOSED', 'REVOKED', 'PAYERROR'].includes(answer.tradeState)) {
      await this.d.repo.update(p.id, { status: 'failed', trade_state: answer.tradeState });
    }
    return { out_trade_no: outTradeNo, trade_state: answer.tradeState };
  }

  /** Cancel in the QR dialog: the order is closed at WeChat so it can no longer be paid. */
  async cancel(userId: number, outTradeNo: string): Promise<PaymentClosedReply> {
    const p = await this.own(userId, outTradeNo);
    if (p.status !== 'pending') return { ok: true, trade_state: p.trade_state };
    try {
      await this.provider().close(outTradeNo);
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.d.log(`wechat pay: close ${outTradeNo} failed`, err);
      throw unavailable(MSG_PAY_UNAVAILABLE, 'PAYMENT_UNAVAILABLE');
    }
    // Paid in the meantime? The close fails at WeChat for paid orders; check once more.
    const after = await this.d.repo.findByTradeNo(outTradeNo);
    if (after?.status === 'pending') {
      await this.d.repo.update(p.id, { status: 'closed', trade_state: 'CLOSED', closed_at: new Date() });
      return { ok: true, trade_state: 'CLOSED' };
    }
    return { ok: true, trade_state: after?.trade_state ?? 'CLOSED' };
  }

  /** A sandbox payment of the signed-in user: another user's is refused (403). */
  private async sandboxPayment(userId: number, outTradeNo: string): Promise<PaymentRow> {
    if (this.d.provider?.kind !== 'sandbox') throw notFound('沙箱支付未启用', 'SANDBOX_DISABLED');
    const p = await this.d.repo.findByTradeNo(outTradeNo);
    if (!p) throw notFound('支付订单不存在', 'PAYMENT_NOT_FOUND');
    if (p.user_id !== userId) throw forbidden('只能支付自己的订单', 'PAYMENT_NOT_OWNER');
    return p;
  }

  /**
   * The sandbox page's button: the payment succeeds, through the same path as a real callback.
   * Only the order's owner may press it.
   */
  async sandboxPay(userId: number, outTradeNo: string): Promise<PaymentClosedReply> {
    const p = await this.sandboxPayment(userId, outTradeNo);
    if (p.status === 'closed' || p.status === 'failed') throw conflict('该支付订单已关闭', 'PAYMENT_CLOSED');
    await this.confirmPaid(outTradeNo, {
      transactionId: `SANDBOX${randomBytes(10).toString('hex').toUpperCase()}`,
      amountFen: p.amount_fen,
    });
    return { ok: true, trade_state: 'SUCCESS' };
  }

  async sandboxInfo(userId: number, outTradeNo: string): Promise<SandboxPaymentReply> {
    const p = await this.sandboxPayment(userId, outTradeNo);
    return {
      out_trade_no: p.out_trade_no,
      amount: yuan(p.amount_fen),
      description: p.description,
      trade_state: p.trade_state,
    };
  }

  /** A verified, decrypted notification from WeChat Pay. */
  async notified(transaction: NotifiedTransaction): Promise<void> {
    if (transaction.trade_state !== 'SUCCESS') return;
    await this.confirmPaid(transaction.out_trade_no, {
      transactionId: transaction.transaction_id,
      amountFen: transaction.amount.total,
    });
  }

  /**
   * The money arrived: the recharge is booked once (the payment row is locked, its status and the
   * ledger's unique key both guard replays), the selected coupon applies, and a payment made for a
   * pending order pays that order from the new balance.
   */
  async confirmPaid(
    outTradeNo: string,
    p: { transactionId?: string | undefined; amountFen?: number | undefined },
  ) {
    await this.d.ledger.transaction(async (trx: Knex.Transaction) => {
      const found = await this.d.repo.findByTradeNo(outTradeNo, trx);
      if (found) await this.d.ledger.lockBalance(trx, found.user_id);
      const payment = await this.d.repo.lockByTradeNo(trx, outTradeNo);
      if (!payment) throw notFound('支付订单不存在', 'PAYMENT_NOT_FOUND');
      if (payment.status === 'success') return;
      if (p.amountFen !== undefined && p.amountFen !== payment.amount_fen) {
        throw badRequest('支付金额与订单不符', 'PAYMENT_AMOUNT_MISMATCH');
      }
      const now = new Date();
      await this.d.repo.update(
        payment.id,
        { status: 'success', trade_state: 'SUCCESS', transaction_id: p.transactionId ?? null, paid_at: now },
        trx,
      );
      await this.d.ledger.post(trx, {
        userId: payment.user_id,
        amountFen: payment.amount_fen,
        kind: 'recharge',
        description: payment.order_id ? `微信支付：${payment.description}` : '微信支付充值',
        paymentMethod: 'wechat',
        paymentId: payment.id,
        uniqueKey: `payment:${payment.id}`,
      });
      if (payment.order_id) {
        const order = await this.d.orders.requireOwn(payment.user_id, payment.order_id, trx);
        // The order may have been paid or cancelled meanwhile: then the money stays on the balance.
        if (order.status === 'pending') {
          const orderId = payment.order_id;
          try {
            // A savepoint: an order that cannot be paid (balance below zero before) keeps the money.
            await trx.transaction((sp) => this.d.orders.payFromBalance(sp, orderId));
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            this.d.log(`payment ${outTradeNo}: order ${orderId} stays pending: ${err.detail}`);
          }
        }
      } else {
        await this.d.coupons.applySelected(trx, {
          userId: payment.user_id,
          amountFen: payment.amount_fen,
          usedFor: `充值 ${payment.out_trade_no}`,
          paymentId: payment.id,
        });
      }
    });
  }

  /**
   * Pending payments whose QR expired: asked once more (a lost notification still credits),
   * otherwise closed, so they show as failed and pay-now creates a new one.
   */
  async settleStale(now = new Date()): Promise<void> {
    if (!this.d.provider) return;
    for (const p of await this.d.repo.stalePending(new Date(now.getTime() - PAYMENT_TTL_MS - 60_000))) {
      try {
        const answer = await this.d.provider.query(p.out_trade_no);
        if (answer.tradeState === 'SUCCESS') {
          await this.confirmPaid(p.out_trade_no, {
            transactionId: answer.transactionId,
            amountFen: answer.amountFen,
          });
        } else {
          await this.d.provider.close(p.out_trade_no).catch(() => {});
          await this.d.repo.update(p.id, { status: 'closed', trade_state: 'CLOSED', closed_at: now });
        }
      } catch (err) {
        this.d.log(`wechat pay: stale payment ${p.out_trade_no} not settled`, err);
      }
    }
  }

  async listAll(filter: {
    page: number;
    size: number;
    status?: PaymentRow['status'] | undefined;
    username?: string | undefined;
  }): Promise<AdminPaymentListReply> {
    const userIds = filter.username ? await this.d.users.idsMatching(filter.username) : undefined;
    if (userIds?.length === 0) return { items: [], total: 0 };
    const { items, total } = await this.d.repo.listAll({
      offset: (filter.page - 1) * filter.size,
      limit: filter.size,
      status: filter.status,
      userIds,
    });
    return { items: (await withUsernames(this.d.users, items)).map(paymentView), total };
  }

  pendingForOrder(orderId: number) {
    return this.d.repo.pendingForOrder(orderId);
  }
}
