import type { Knex } from 'knex';

// What billing asks of the modules that own the tables it does not: platform.ts passes these in,
// built on those modules' services (the way NodeUsage works for the nodes module).

/** Of the users module: names for listings, the admin's filters, where notices go. */
export interface BillingUsers {
  usernames(userIds: number[]): Promise<Map<number, string>>;
  /** Ids of users whose username contains `fragment` (case-insensitive). */
  idsMatching(fragment: string): Promise<number[]>;
  /** The users with exactly these usernames (those not found are left out). */
  byUsernames(usernames: string[]): Promise<{ id: number; username: string }[]>;
  /** The e-mail, and the phone once verified; undefined for a user that is gone. */
  contact(userId: number): Promise<{ email: string | null; phone: string | null } | undefined>;
}

/** What billing reads of a container (metering, notices). */
export interface BilledContainer {
  id: string;
  user_id: number;
  name: string;
  status: string;
  billing_type: string;
  price_fen: number;
  gpu_count: number;
  no_gpu: boolean;
  no_gpu_price_fen: number;
  started_at: Date | null;
  stopped_at: Date | null;
  deleted_at: Date | null;
}

/**
 * The containers module's part of a settlement statement (billing/settlement-repository.ts): SQL
 * text about its own table that billing embeds in its WITH chain, so a batch of any size is one
 * statement and no container leaves the database. No bind parameters in either.
 */
export interface ContainersSettlementSql {
  /** A relation of every container: id, name, status, billing_type, stopped_at, deleted_at. */
  readonly settling: string;
  /** An UPDATE adding `fen` of the relation named `source` (id, fen) to the containers' running totals. */
  addCosts(source: string): string;
}

/** What a renewal reads of a container. */
export interface RenewalTarget {
  id: string;
  user_id: number;
  name: string;
  billing_type: string;
  price_fen: number;
  gpu_count: number;
  gpu_type: string;
  status: string;
  expires_at: Date | null;
}

/** Of the containers module: what metering, renewals and notices read, and the two writes. */
export interface BillingContainers {
  find(id: string, trx?: Knex.Transaction): Promise<BilledContainer | undefined>;
  /** Hourly containers that run now (metering opens a meter for any it has none for). */
  runningHourly(): Promise<{ id: string; user_id: number; started_at: Date | null }[]>;
  /** How many hourly containers run now (metering compares it with the running ones it metered). */
  runningHourlyCount(): Promise<number>;
  renewalTarget(id: string): Promise<RenewalTarget | undefined>;
  /** Adds a charge to the container's running total (its 累计费用), in the charge's transaction. */
  addCost(trx: Knex.Transaction, id: string, fen: number): Promise<void>;
  /** A settlement's reads and writes of containers, as SQL for its statement. */
  settlementSql: ContainersSettlementSql;
  /**
   * A paid renewal of `hours`: the prepaid end moves from the current end (or now, when past),
   * in the payment's transaction with the container's row locked. Refused (409) once deleted.
   */
  extendPrepaid(trx: Knex.Transaction, id: string, hours: number): Promise<{ from: Date; end: Date }>;
}

/** Rows of a listing with their owners' usernames. */
export async function withUsernames<T extends { user_id: number }>(
  users: Pick<BillingUsers, 'usernames'>,
  rows: T[],
): Promise<(T & { username: string })[]> {
  const names = await users.usernames(rows.map((r) => r.user_id));
  return rows.map((r) => ({ ...r, username: names.get(r.user_id) ?? '' }));
}
