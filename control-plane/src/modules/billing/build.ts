import type Router from '@koa/router';
import type { Knex } from 'knex';
import { type BillingSettings, DEFAULT_NEW_USER_CREDIT_FEN } from '../../billing-settings.js';
import type { KeyedChangeCache } from '../../db/change-cache.js';
import type { AppState } from '../../framework/auth.js';
import type { LifecycleSettings } from '../../lifecycle-settings.js';
import { AccountService } from './account.js';
import { AccountsRepository } from './accounts-repository.js';
import { billingAdminRoutes } from './admin-routes.js';
import { ContainerBillingHooks } from './container-billing.js';
import type { BalanceReply } from './contract.js';
import { CouponsService } from './coupons.js';
import { CouponsRepository } from './coupons-repository.js';
import { InvoicesService } from './invoices.js';
import { InvoicesRepository } from './invoices-repository.js';
import { Ledger } from './ledger.js';
import { LedgerRepository } from './ledger-repository.js';
import { Metering } from './metering.js';
import { MetersRepository } from './meters-repository.js';
import { Notices, type Notifier } from './notices.js';
import { NoticesRepository } from './notices-repository.js';
import { OrdersService } from './orders.js';
import { OrdersRepository } from './orders-repository.js';
import { PaymentsService } from './payments.js';
import { PaymentsRepository } from './payments-repository.js';
import type { BillingContainers, BillingUsers } from './ports.js';
import { Records } from './records.js';
import { RecordsRepository } from './records-repository.js';
import { RenewalsService } from './renewals.js';
import { billingRoutes, commerceRoutes, paymentCallbackRoutes } from './routes.js';
import { SandboxPayProvider } from './sandbox-pay.js';
import { SettlementRepository } from './settlement-repository.js';
import { SettlementRunsRepository } from './settlement-runs-repository.js';
import { siteRoutes } from './site-routes.js';
import { type PayProvider, WechatPayV3 } from './wechat-pay.js';

export interface BillingDeps {
  settings: BillingSettings & LifecycleSettings & { publicUrl?: string | undefined; databaseUrl: string };
  knex: Knex;
  notifier: Notifier;
  /** The tables billing does not own, through their modules' services. */
  users: BillingUsers;
  containers: BillingContainers;
  log: (message: string, err?: unknown) => void;
  /** The balance replies kept between changes (db/change-cache.ts); none: every read asks the database. */
  balanceCache?: KeyedChangeCache<BalanceReply>;
}

/** Money: one part of the object graph (ledger, payments, orders, metering, invoices, coupons). Its timers are in src/jobs. */
export function buildBilling(d: BillingDeps) {
  const { knex, settings, log } = d;
  const accounts = new AccountsRepository(knex);
  const entries = new LedgerRepository(knex);
  const ledger = new Ledger(accounts, entries);
  const coupons = new CouponsService(new CouponsRepository(knex), entries, ledger, d.users);
  const ordersRepo = new OrdersRepository(knex);
  const orders = new OrdersService(ordersRepo, ledger, coupons, d.containers);
  const paymentsRepo = new PaymentsRepository(knex);
  const wechatPay = settings.wechatPay ? new WechatPayV3(settings.wechatPay) : undefined;
  const provider: PayProvider | undefined =
    wechatPay ??
    (settings.paymentsSandbox === false
      ? undefined
      : new SandboxPayProvider(paymentsRepo, settings.publicUrl));
  const payments = new PaymentsService({
    repo: paymentsRepo,
    ledger,
    coupons,
    orders,
    provider,
    users: d.users,
    log,
  });
  const records = new Records(new RecordsRepository(knex), entries);
  const metering = new Metering(
    ledger,
    new MetersRepository(knex),
    ordersRepo,
    d.containers,
    new SettlementRepository(),
  );
  const notices = new Notices(new NoticesRepository(knex), {
    notifier: d.notifier,
    users: d.users,
    containers: d.containers,
    releaseAfterMs: settings.releaseAfterMs,
    warnBeforeMs: settings.warnBeforeMs,
    log,
  });
  const newUserCreditFen = settings.newUserCreditFen ?? DEFAULT_NEW_USER_CREDIT_FEN;
  const account = new AccountService({
    ledger,
    accounts,
    records,
    coupons,
    newUserCreditFen,
    ...(d.balanceCache ? { balanceCache: d.balanceCache } : {}),
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
    renewals: new RenewalsService({ ledger, orders, ordersRepo, payments, containers: d.containers }),
    invoices: new InvoicesService(new InvoicesRepository(knex), ordersRepo, d.users),
    containerHooks: new ContainerBillingHooks({ ledger, orders, ordersRepo, metering }),
    settlementRuns: new SettlementRunsRepository(knex),
    /** The trial credit of a new user (fen), as GET /api/site shows it. */
    newUserCreditFen,
    log,
  };
}

export type Billing = ReturnType<typeof buildBilling>;

export function billingRouters(b: Billing): Router<AppState>[] {
  return [
    siteRoutes(b),
    paymentCallbackRoutes(b),
    billingRoutes(b),
    commerceRoutes(b),
    billingAdminRoutes(b),
  ];
}
