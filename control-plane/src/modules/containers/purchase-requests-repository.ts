import type { Knex } from 'knex';
import { PurchaseRequestModel } from './model.js';

/** A purchase made with an Idempotency-Key: its body's hash and, once known, its answer. */
export interface PurchaseRequest {
  request_hash: string;
  /** 0 while the purchase is under way; then the HTTP status it was answered with. */
  status: number;
  response: unknown;
}

/** Owns purchase_requests: the answers of purchases made with an Idempotency-Key. */
export class PurchaseRequestsRepository {
  constructor(private readonly knex: Knex) {}

  /** Claims the key for this request; false when the user used it before (see `find`). */
  async claim(userId: number, key: string, requestHash: string): Promise<boolean> {
    const claimed = await PurchaseRequestModel.query(this.knex)
      .insert({ user_id: userId, idempotency_key: key, request_hash: requestHash, status: 0, response: {} })
      .onConflict(['user_id', 'idempotency_key'])
      .ignore()
      .returning('id');
    // ON CONFLICT DO NOTHING returns no row; Objection still hands back the inserted model.
    return (claimed as unknown as { id?: number }).id !== undefined;
  }

  async find(userId: number, key: string): Promise<PurchaseRequest | undefined> {
    const row = await PurchaseRequestModel.query(this.knex)
      .where({ user_id: userId, idempotency_key: key })
      .first();
    return row ? { request_hash: row.request_hash, status: row.status, response: row.response } : undefined;
  }

  async remember(userId: number, key: string, status: number, response: unknown): Promise<void> {
    await PurchaseRequestModel.query(this.knex)
      .where({ user_id: userId, idempotency_key: key })
      .patch({ status, response: response as object });
  }

  /** Forgets the key: the outcome is unknown to the caller, so a retry tries again. */
  async forget(userId: number, key: string): Promise<void> {
    await PurchaseRequestModel.query(this.knex).where({ user_id: userId, idempotency_key: key }).delete();
  }
}
