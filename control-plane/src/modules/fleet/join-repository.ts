import type { Knex } from 'knex';

/** A join token's row (node_join_tokens); the token itself is never stored, only its SHA-256. */
export interface JoinTokenRow {
  id: number;
  token_hash: string;
  name: string | null;
  region: string;
  created_by: number | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  node_id: number | null;
}

/** Owns platform_ca and node_join_tokens. */
export class JoinRepository {
  constructor(private readonly knex: Knex) {}

  transaction<T>(run: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(run);
  }

  async readCa(): Promise<{ certificate_pem: string; key_sealed: string } | undefined> {
    return this.knex('platform_ca').where({ id: 1 }).first('certificate_pem', 'key_sealed');
  }

  /** Stores the CA unless one is stored already (the first replica wins). */
  async insertCaIfAbsent(ca: { certificate_pem: string; key_sealed: string }): Promise<void> {
    await this.knex('platform_ca')
      .insert({ id: 1, ...ca })
      .onConflict('id')
      .ignore();
  }

  async insertToken(values: {
    token_hash: string;
    name: string | null;
    region: string;
    created_by: number | null;
    expires_at: Date;
  }): Promise<JoinTokenRow> {
    const [row] = await this.knex('node_join_tokens').insert(values).returning('*');
    return normalize(row);
  }

  /** The newest tokens first. */
  async listTokens(limit: number): Promise<JoinTokenRow[]> {
    const rows = await this.knex('node_join_tokens').orderBy('id', 'desc').limit(limit);
    return rows.map(normalize);
  }

  async findToken(id: number): Promise<JoinTokenRow | undefined> {
    const row = await this.knex('node_join_tokens').where({ id }).first();
    return row && normalize(row);
  }

  /** Deletes an unused token; false when there is no such unused token. */
  async deleteUnused(id: number): Promise<boolean> {
    return (await this.knex('node_join_tokens').where({ id }).whereNull('used_at').delete()) > 0;
  }

  /** The token if it may be used now (unused, not expired); nothing is written. */
  async findUsable(tokenHash: string): Promise<JoinTokenRow | undefined> {
    const row = await this.knex('node_join_tokens')
      .where({ token_hash: tokenHash })
      .whereNull('used_at')
      .where('expires_at', '>', this.knex.fn.now())
      .first();
    return row && normalize(row);
  }

  /**
   * Marks the token used, if it still may be used (in the join's transaction): of two joins with
   * one token, one gets the row and the other nothing.
   */
  async claim(tokenHash: string, trx: Knex.Transaction): Promise<JoinTokenRow | undefined> {
    const [row] = await trx('node_join_tokens')
      .where({ token_hash: tokenHash })
      .whereNull('used_at')
      .where('expires_at', '>', trx.fn.now())
      .update({ used_at: trx.fn.now() })
      .returning('*');
    return row && normalize(row);
  }

  async linkNode(tokenId: number, nodeId: number, trx: Knex.Transaction): Promise<void> {
    await trx('node_join_tokens').where({ id: tokenId }).update({ node_id: nodeId });
  }
}

function normalize(row: Record<string, unknown>): JoinTokenRow {
  return {
    ...(row as unknown as JoinTokenRow),
    id: Number(row.id),
    created_by: row.created_by === null ? null : Number(row.created_by),
    node_id: row.node_id === null ? null : Number(row.node_id),
  };
}
