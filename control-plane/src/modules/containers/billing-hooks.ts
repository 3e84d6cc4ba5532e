import type { Knex } from 'knex';
import type { BillingType } from '../pricing/pricing.js';

/** What a purchase tells billing about the container it buys. */
export interface PurchaseCharge {
  userId: number;
  containerId: string;
  containerName: string;
  billingType: BillingType;
  duration: number;
  unitPriceFen: number;
  gpuCount: number;
  totalFen: number;
  productName: string;
  serverName: string;
  gpuType: string;
  region: string;
}

/** The container facts billing checks before a start. */
export interface StartingContainer {
  id: string;
  user_id: number;
  billing_type: string;
  price_fen: number;
  gpu_count: number;
  no_gpu_price_fen: number;
  expires_at: Date | null;
}

/**
 * How the container lifecycle tells billing what happens (the billing module implements it):
 * purchases are charged inside the allocation's transaction, starts need money (or time left),
 * and the running time of hourly containers is metered between `running` and `stopped`.
 */
export interface ContainerBilling {
  chargePurchase(
    trx: Knex.Transaction,
    p: PurchaseCharge,
  ): Promise<{ orderId: number; expiresAt: Date | null }>;
  /** The container could not be created: the charge goes back. */
  purchaseFailed(orderId: number): Promise<void>;
  /** Refuses the start: an hourly container needs one hour of balance, a prepaid one time left. */
  beforeStart(c: StartingContainer, noGpu: boolean): Promise<void>;
  running(containerId: string): Promise<void>;
  stopped(containerId: string): Promise<void>;
  destroyed(containerId: string): Promise<void>;
}
