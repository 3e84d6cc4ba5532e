import { badRequest, conflict, notFound } from '../../framework/errors.js';
import type { PayReply } from './contract.js';
import type { Ledger } from './ledger.js';
import { yuan } from './numbers.js';
import type { OrdersService, RenewableContainer } from './orders.js';
import type { OrdersRepository } from './orders-repository.js';
import type { PaymentsService } from './payments.js';
import type { BillingContainers } from './ports.js';

export type PayMethod = 'balance' | 'wechat';

/** The answer of paying an order or renewing (the shape lives in contract.ts). */
export type PayAnswer = PayReply;

/** 续费 of prepaid containers and 立即支付 of pending orders: from the balance or by WeChat Pay. */
export class RenewalsService {
  constructor(
    private readonly d: {
      ledger: Ledger;
      orders: OrdersService;
      ordersRepo: OrdersRepository;
      payments: PaymentsService;
      containers: Pick<BillingContainers, 'renewalTarget'>;
    },
  ) {}

  /** The container as it was bought (its purchase order names the product, node and region). */
  private async container(userId: number, containerId: string): Promise<RenewableContainer> {
    const c = await this.d.containers.renewalTarget(containerId);
    if (!c || c.user_id !== userId || c.status === 'deleted') throw notFound('容器不存在');
    const bought = await this.d.ordersRepo.purchaseOf(containerId);
    return {
      ...c,
      product_name: bought?.product_name ?? c.name,
      node_name: bought?.server_name ?? '',
      region: bought?.region ?? '',
    };
  }

  async renew(
    userId: number,
    containerId: string,
    p: { duration: number; method: PayMethod },
  ): Promise<PayAnswer> {
    const c = await this.container(userId, containerId);
    if (c.billing_type === 'hourly') throw badRequest('按小时计费的实例无需续费', 'RENEW_HOURLY');
    if (p.method === 'balance') {
      const result = await this.d.ledger.transaction(async (trx) => {
        // The account first, before the order is written and the container locked (ledger.ts's
        // lock order): parallel renewals of one user queue here instead of deadlocking further on.
        await this.d.ledger.lockBalance(trx, userId);
        const order = await this.d.orders.createRenewal(trx, c, p.duration);
        await this.d.orders.payFromBalance(trx, order.orderId);
        return order;
      });
      return { order_id: result.orderId, status: 'paid', amount: yuan(result.amountFen) };
    }
    const order = await this.d.ledger.transaction((trx) => this.d.orders.createRenewal(trx, c, p.duration));
    const payment = await this.d.payments.create({
      userId,
      amountFen: order.amountFen,
      description: `续费订单 ${order.orderNo}`,
      orderId: order.orderId,
    });
    return { order_id: order.orderId, status: 'pending', amount: yuan(order.amountFen), payment };
  }

  /** 立即支付 of a pending order. */
  async pay(userId: number, orderId: number, method: PayMethod): Promise<PayAnswer> {
    const order = await this.d.orders.requireOwn(userId, orderId);
    if (order.status !== 'pending') throw conflict('订单不是待付款状态', 'ORDER_NOT_PENDING');
    if (method === 'balance') {
      await this.d.ledger.transaction(async (trx) => {
        await this.d.ledger.lockBalance(trx, userId);
        return this.d.orders.payFromBalance(trx, orderId);
      });
      return { order_id: orderId, status: 'paid', amount: yuan(order.amount_fen) };
    }
    const payment = await this.d.payments.create({
      userId,
      amountFen: order.amount_fen,
      description: `订单 ${order.order_no}`,
      orderId,
    });
    return { order_id: orderId, status: 'pending', amount: yuan(order.amount_fen), payment };
  }
}
