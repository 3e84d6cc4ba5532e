import type { Knex } from 'knex';
import { conflict } from '../../framework/errors.js';
import type { ContainerBilling, PurchaseCharge, StartingContainer } from '../containers/billing-hooks.js';
import { insufficientBalance, type Ledger } from './ledger.js';
import type { Metering } from './metering.js';
import type { OrdersService } from './orders.js';
import type { OrdersRepository } from './orders-repository.js';

/** Billing's side of the container lifecycle (see ContainerBilling). */
export class ContainerBillingHooks implements ContainerBilling {
  constructor(
    private readonly d: {
      ledger: Ledger;
      orders: OrdersService;
      ordersRepo: OrdersRepository;
      metering: Metering;
    },
  ) {}

  chargePurchase(trx: Knex.Transaction, p: PurchaseCharge) {
    return this.d.orders.chargePurchase(trx, p);
  }

  purchaseFailed(orderId: number) {
    return this.d.orders.refundPurchase(orderId);
  }

  async beforeStart(c: StartingContainer, noGpu: boolean): Promise<void> {
    if (c.billing_type !== 'hourly') {
      if (c.expires_at && c.expires_at <= new Date())
        throw conflict('实例已到期，请续费后再启动', 'CONTAINER_EXPIRED');
      return;
    }
    const rate = noGpu || c.gpu_count === 0 ? c.no_gpu_price_fen : c.price_fen * c.gpu_count;
    if ((await this.d.ledger.balance(c.user_id)) < rate) {
      throw insufficientBalance('余额不足，账户余额需至少可支付1小时费用');
    }
  }

  running(containerId: string) {
    return this.d.metering.resume(containerId);
  }

  stopped(containerId: string) {
    return this.d.metering.pause(containerId);
  }

  async destroyed(containerId: string) {
    await this.d.metering.pause(containerId, new Date(), 'completed');
    await this.d.ordersRepo.completeOpen(containerId, ['paid', 'running', 'stopped']);
  }
}
