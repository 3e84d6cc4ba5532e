import type { Knex } from 'knex';
import { badRequest, conflict, notFound } from '../../framework/errors.js';
import type { PurchaseCharge } from '../containers/billing-hooks.js';
import { BILLING_TYPES, type BillingType, totalPriceFen } from '../pricing/pricing.js';
import type { OrderListReply, OrderReply } from './contract.js';
import type { CouponsService } from './coupons.js';
import { insufficientBalance, type Ledger } from './ledger.js';
import { businessNo, iso, yuan } from './numbers.js';
import {
  INVOICEABLE_STATUSES,
  type OrderRow,
  type OrderStatus,
  type OrdersRepository,
  type OrderWithInvoiced,
} from './orders-repository.js';
import type { BillingContainers } from './ports.js';

/** A container order as listed (the shape lives in contract.ts). */
export type OrderView = OrderReply;

export function orderView(o: OrderWithInvoiced): OrderView {
  const invoiced = Number(o.invoiced_fen ?? 0);
  const periodHours = BILLING_TYPES[o.billing_type as BillingType]?.periodHours ?? 1;
  const hours = o.billing_type === 'hourly' ? o.billed_seconds / 3600 : o.duration * periodHours;
  return {
    id: o.id,
    order_id: o.order_no,
    container_id: o.container_id,
    create_time: o.created_at.toISOString(),
    product_type: 'GPU容器',
    product_name: o.product_name,
    order_type: o.order_type,
    billing_method: o.billing_type,
    unit_price: yuan(o.unit_price_fen),
    duration: o.duration,
    usage_duration: Math.round(hours * 100) / 100,
    amount: yuan(o.amount_fen),
    discount: yuan(o.discount_fen),
    invoiced_amount: yuan(invoiced),
    invoiceable_amount: INVOICEABLE_STATUSES.includes(o.status)
      ? yuan(Math.max(0, o.amount_fen - invoiced))
      : 0,
    status: o.status,
    container_server_name: o.server_name,
    container_gpu_type: o.gpu_type,
    container_gpu_count: o.gpu_count,
    container_region: o.region,
    start_time: iso(o.start_time),
    end_time: iso(o.end_time),
    paid_at: iso(o.paid_at),
  };
}

/** Container orders: created at purchase and renewal, paid from the balance or by WeChat. */
export class OrdersService {
  constructor(
    private readonly repo: OrdersRepository,
    private readonly ledger: Ledger,
    private readonly coupons: CouponsService,
    private readonly containers: Pick<BillingContainers, 'extendPrepaid'>,
  ) {}

  /**
   * In the purchase's transaction: the order, the selected coupon, and for prepaid types the full
   * charge (refused with 402 when the balance is short). An hourly purchase needs a balance
   * covering one hour; its usage is metered. Returns the order and, for prepaid, the expiry.
   */
  async chargePurchase(
    trx: Knex.Transaction,
    p: PurchaseCharge,
  ): Promise<{ orderId: number; expiresAt: Date | null }> {
    const prepaid = p.billingType !== 'hourly';
    await this.ledger.lockBalance(trx, p.userId);
    const now = new Date();
    const expiresAt = prepaid
      ? new Date(now.getTime() + p.duration * BILLING_TYPES[p.billingType].periodHours * 3600_000)
      : null;
    const orderNo = businessNo('O', now);
    const orderId = await this.repo.insert(trx, {
      order_no: orderNo,
      user_id: p.userId,
      container_id: p.containerId,
      order_type: 'purchase',
      billing_type: p.billingType,
      product_name: p.productName,
      server_name: p.serverName,
      gpu_type: p.gpuType,
      gpu_count: p.gpuCount,
      region: p.region,
      unit_price_fen: p.unitPriceFen,
      duration: p.duration,
      amount_fen: prepaid ? p.totalFen : 0,
      discount_fen: 0,
      status: prepaid ? 'paid' : 'stopped',
      start_time: now,
      end_time: expiresAt,
      paid_at: prepaid ? now : null,
    });
    const discount = await this.coupons.applySelected(trx, {
      userId: p.userId,
      amountFen: p.totalFen,
      usedFor: `订单 ${orderNo}`,
      orderId,
    });
    if (discount > 0) await this.repo.update(orderId, { discount_fen: discount }, trx);
    if (prepaid) {
      await this.ledger.post(trx, {
        userId: p.userId,
        amountFen: -p.totalFen,
        kind: 'expense',
        description: `购买容器 ${p.containerName}（${BILLING_TYPES[p.billingType].label} × ${p.duration}）`,
        paymentMethod: 'balance',
        containerId: p.containerId,
        orderId,
        billedSeconds: p.duration * BILLING_TYPES[p.billingType].periodHours * 3600,
        floorFen: 0,
      });
    } else {
      const oneHour = p.unitPriceFen * p.gpuCount;
      if ((await this.ledger.lockBalance(trx, p.userId)) < oneHour) {
        throw insufficientBalance('余额不足，账户余额需至少可支付1小时费用');
      }
    }
    return { orderId, expiresAt };
  }

  /** A purchase whose container could not be created: the charge goes back, the order is cancelled. */
  async refundPurchase(orderId: number): Promise<void> {
    await this.ledger.transaction(async (trx) => {
      const owner = await this.repo.find(orderId, trx);
      if (!owner) return;
      await this.ledger.lockBalance(trx, owner.user_id);
      const order = await this.repo.lock(trx, orderId);
      if (!order || order.status === 'cancelled') return;
      if (order.amount_fen > 0) {
        await this.ledger.post(trx, {
          userId: order.user_id,
          amountFen: order.amount_fen,
          kind: 'refund',
          description: `退款：订单 ${order.order_no} 创建失败`,
          paymentMethod: 'balance',
          containerId: order.container_id,
          orderId,
          uniqueKey: `refund:${orderId}`,
        });
      }
      // The coupon it used comes back too: a failed purchase leaves the user exactly as before.
      await this.coupons.returnForOrder(trx, order);
      await this.repo.update(orderId, { status: 'cancelled', end_time: new Date() }, trx);
    });
  }

  /** A renewal order of a prepaid container (pending until paid). */
  async createRenewal(
    trx: Knex.Transaction,
    c: RenewableContainer,
    duration: number,
  ): Promise<{ orderId: number; amountFen: number; orderNo: string }> {
    const billingType = c.billing_type as BillingType;
    const t = BILLING_TYPES[billingType];
    if (!t || billingType === 'hourly') throw badRequest('按小时计费的实例无需续费', 'RENEW_HOURLY');
    if (duration > t.maxDuration)
      throw badRequest(`${t.label}的使用时长最多为${t.maxDuration}`, 'DURATION_TOO_LONG');
    const amountFen = totalPriceFen({
      unitPriceFen: c.price_fen,
      gpuCount: c.gpu_count,
      billingType,
      duration,
    });
    const orderNo = businessNo('O');
    const orderId = await this.repo.insert(trx, {
      order_no: orderNo,
      user_id: c.user_id,
      container_id: c.id,
      order_type: 'renewal',
      billing_type: billingType,
      product_name: c.product_name,
      server_name: c.node_name,
      gpu_type: c.gpu_type,
      gpu_count: c.gpu_count,
      region: c.region,
      unit_price_fen: c.price_fen,
      duration,
      amount_fen: amountFen,
      discount_fen: 0,
      status: 'pending',
      start_time: null,
      end_time: null,
    });
    return { orderId, amountFen, orderNo };
  }

  /**
   * Pays a pending order from the balance in the caller's transaction (402 when short) and applies
   * it: a renewal extends the container's expiry from its current end (or now, when past).
   */
  async payFromBalance(trx: Knex.Transaction, orderId: number): Promise<OrderRow> {
    const owner = await this.repo.find(orderId, trx);
    if (owner) await this.ledger.lockBalance(trx, owner.user_id);
    const order = await this.repo.lock(trx, orderId);
    if (!order) throw notFound('订单不存在', 'ORDER_NOT_FOUND');
    if (order.status !== 'pending') throw conflict('订单不是待付款状态', 'ORDER_NOT_PENDING');
    const discount = await this.coupons.applySelected(trx, {
      userId: order.user_id,
      amountFen: order.amount_fen,
      usedFor: `订单 ${order.order_no}`,
      orderId,
    });
    await this.ledger.post(trx, {
      userId: order.user_id,
      amountFen: -order.amount_fen,
      kind: 'expense',
      description: `续费容器 ${order.product_name}（${BILLING_TYPES[order.billing_type as BillingType].label} × ${order.duration}）`,
      paymentMethod: 'balance',
      containerId: order.container_id,
      orderId,
      billedSeconds: order.duration * BILLING_TYPES[order.billing_type as BillingType].periodHours * 3600,
      floorFen: 0,
    });
    const hours = order.duration * BILLING_TYPES[order.billing_type as BillingType].periodHours;
    // The renewal moves the container's end (the containers module writes it; it is what stops it).
    const { from, end } = await this.containers.extendPrepaid(trx, order.container_id, hours);
    const now = new Date();
    await this.repo.update(
      orderId,
      { status: 'paid', paid_at: now, start_time: from, end_time: end, discount_fen: discount },
      trx,
    );
    return { ...order, status: 'paid' };
  }

  async cancel(userId: number, orderId: number): Promise<OrderView> {
    await this.ledger.transaction(async (trx) => {
      // The lock order of every path that pays an order: the account, then the order.
      await this.ledger.lockBalance(trx, userId);
      const order = await this.repo.lock(trx, orderId);
      if (!order || order.user_id !== userId) throw notFound('订单不存在', 'ORDER_NOT_FOUND');
      if (order.status !== 'pending') throw conflict('只能取消待付款的订单', 'ORDER_NOT_PENDING');
      await this.repo.update(orderId, { status: 'cancelled' }, trx);
    });
    return this.get(userId, orderId);
  }

  async get(userId: number, id: number): Promise<OrderView> {
    const order = await this.repo.find(id);
    if (!order || order.user_id !== userId) throw notFound('订单不存在', 'ORDER_NOT_FOUND');
    return orderView(order);
  }

  async requireOwn(userId: number, id: number, trx?: Knex.Transaction) {
    const order = await this.repo.find(id, trx);
    if (!order || order.user_id !== userId) throw notFound('订单不存在', 'ORDER_NOT_FOUND');
    return order;
  }

  async list(
    userId: number,
    filter: { offset: number; limit: number; status?: OrderStatus | 'invoiceable' | undefined },
  ): Promise<OrderListReply> {
    const { items, total } = await this.repo.list({ userId, ...filter });
    return { items: items.map(orderView), total };
  }
}

/** What a renewal needs to know of its container. */
export interface RenewableContainer {
  id: string;
  user_id: number;
  billing_type: string;
  price_fen: number;
  gpu_count: number;
  gpu_type: string;
  region: string;
  node_name: string;
  product_name: string;
  expires_at: Date | null;
}
