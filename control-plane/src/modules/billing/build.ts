import type Router from '@koa/router';
import type { Knex } from 'knex';
import { type BillingSettings, DEFAULT_NEW_USER_CREDIT_FEN } from '../../billing-settings.js';
import type { AppState } from '../../framework/auth.js';
import { AccountService } from './account.js';
import { billingAdminRoutes } from './admin-routes.js';
import { ContainerBillingHooks } from './container-billing.js';
import { CouponsService } from './coupons.js';
import { InvoicesService } from './invoices.js';
import { Ledger } from './ledger.js';
import { Metering } from './metering.js';
import { Notices, type Notifier } from './notices.js';
import { OrdersService } from './orders.js';
import { OrdersRepository } from './orders-repository.js';
import { PaymentsService } from './payments.js';
import { PaymentsRepository } from './payments-repository.js';
import { RecordsRepository } from './records.js';
import { RenewalsService } from './renewals.js';
import { billingRoutes, commerceRoutes, paymentCallbackRoutes } from './routes.js';
import { SandboxPayProvider } from './sandbox-pay.js';
import { SettlementRuns } from './settlement-runs.js';
import { type PayProvider, WechatPayV3 } from './wechat-pay.js';

export interface BillingDeps {
  settings: BillingSettings & { publicUrl?: string | undefined; databaseUrl: string };
  knex: Knex;
  notifier: Notifier;
  log: (message: string, err?: unknown) => void;
}

/** Money: one part of the object graph (ledger, payments, orders, metering, invoices, coupons). Its timers are in src/jobs. */
export function buildBilling(d: BillingDeps) {
  const { knex, settings, log } = d;
  const ledger = new Ledger(knex);
  const coupons = new CouponsService(knex, ledger);
  const ordersRepo = new OrdersRepository(knex);
  const orders = new OrdersService(ordersRepo, ledger, coupons);
  const paymentsRepo = new PaymentsRepository(knex);
  const wechatPay = settings.wechatPay ? new WechatPayV3(settings.wechatPay) : undefined;
  const provider: PayProvider | undefined =
    wechatPay ??
    (settings.paymentsSandbox === false
      ? undefined
      : new SandboxPayProvider(paymentsRepo, settings.publicUrl));
  const payments = new PaymentsService({ repo: paymentsRepo, ledger, coupons, orders, provider, log });
  const records = new RecordsRepository(knex);
  const metering = new Metering(ledger, ordersRepo);
  const notices = new Notices(knex, d.notifier, log);
  const account = new AccountService({
    ledger,
    records,
    coupons,
    newUserCreditFen: settings.newUserCreditFen ?? DEFAULT_NEW_USER_CREDIT_FEN,
  });
  return {
    ledger,
    account,
    coupons,
    orders,
    payments,
    wechatPay,
    records,
    metering,
    notices,
    renewals: new RenewalsService({ ledger, orders, payments }),
    invoices: new InvoicesService(knex, ordersRepo),
    containerHooks: new ContainerBillingHooks({ ledger, orders, ordersRepo, metering }),
    settlementRuns: new SettlementRuns(knex),
    log,
  };
}

export type Billing = ReturnType<typeof buildBilling>;

export function billingRouters(b: Billing): Router<AppState>[] {
  return [paymentCallbackRoutes(b), billingRoutes(b), commerceRoutes(b), billingAdminRoutes(b)];
}
