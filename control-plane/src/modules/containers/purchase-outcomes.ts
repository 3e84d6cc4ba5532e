// How each purchase ended, as the purchase service decides it: refused at the request (why), or
// accepted and then provisioned (running, or the start failed and the charge went back). Each
// purchase is told once; the metrics count them (gpucloud_purchases_total{outcome}).
import { AppError } from '../../framework/errors.js';
import { GPU_INSUFFICIENT } from './allocator.js';

export const PURCHASE_OUTCOMES = [
  /** Provisioned: the container runs (运行中). */
  'ok',
  /** Accepted, then the pull, create or start failed (失败, charge returned). */
  'failed_start',
  /** Accepted; the process provisioning it stopped and the purchase was taken over and failed. */
  'interrupted',
  /** Accepted, destroyed by its owner before it was made. */
  'cancelled',
  'insufficient_balance',
  /** Not enough free GPUs (or host ports) on the node. */
  'no_capacity',
  /** A refused value: price, duration, framework, ports, mounts. */
  'validation',
  /** The node is offline, unsafe, draining or its Docker is down. */
  'node_unavailable',
  /** Any other refusal of the request (a port taken meanwhile, a product or image not found). */
  'refused',
  /** An unexpected failure (500). */
  'error',
] as const;

export type PurchaseOutcome = (typeof PURCHASE_OUTCOMES)[number];

/** Whoever counts purchases (the metrics); absent = nobody. */
export interface PurchaseOutcomes {
  record(outcome: PurchaseOutcome): void;
}

const NODE_UNAVAILABLE = new Set(['NODE_OFFLINE', 'NODE_UNSAFE', 'NODE_MAINTENANCE', 'DOCKER_UNAVAILABLE']);
const NO_CAPACITY = new Set([GPU_INSUFFICIENT, 'PORTS_EXHAUSTED']);

/** Why a purchase request was refused, from the error it was refused with. */
export function refusalOutcome(err: unknown): PurchaseOutcome {
  if (!(err instanceof AppError)) return 'error';
  if (err.status === 402 || err.code === 'INSUFFICIENT_BALANCE') return 'insufficient_balance';
  if (NO_CAPACITY.has(err.code)) return 'no_capacity';
  if (NODE_UNAVAILABLE.has(err.code) || err.status === 503) return 'node_unavailable';
  if (err.status === 400 || err.status === 422) return 'validation';
  if (err.status >= 500) return 'error';
  return 'refused';
}
