import type { Knex } from 'knex';

export interface VolumeRow {
  id: number;
  user_id: number;
  node_id: number;
  name: string;
  path: string;
  size_bytes: number;
  measured_at: Date | null;
  created_at: Date;
}

/** A container mount that uses a volume (from the containers' mounts and pending mounts). */
export interface VolumeUse {
  volume_id: number;
  container_id: string;
  container_name: string;
  mount_path: string;
  pending: boolean;
}

const toRow = (r: VolumeRow): VolumeRow => ({ ...r, size_bytes: Number(r.size_bytes) });

/** Owns volumes; reads which containers mount them from the containers' JSON mounts. */
export class VolumesRepository {
  constructor(private readonly knex: Knex) {}

  async listForUser(userId: number): Promise<VolumeRow[]> {
    const rows = await this.knex<VolumeRow>('volumes').where({ user_id: userId }).orderBy('id', 'asc');
    return rows.map(toRow);
  }

  async findForUser(userId: number, id: number): Promise<VolumeRow | undefined> {
    const row = await this.knex<VolumeRow>('volumes').where({ id, user_id: userId }).first();
    return row && toRow(row);
  }

  async findByName(userId: number, name: string): Promise<VolumeRow | undefined> {
    const row = await this.knex<VolumeRow>('volumes').where({ user_id: userId, name }).first();
    return row && toRow(row);
  }

  /** Undefined when the user already has a volume of that name. */
  async insert(
    row: Pick<VolumeRow, 'user_id' | 'node_id' | 'name' | 'path'>,
  ): Promise<VolumeRow | undefined> {
    const [inserted] = await this.knex<VolumeRow>('volumes')
      .insert(row)
      .onConflict(['user_id', 'name'])
      .ignore()
      .returning('*');
    return inserted && toRow(inserted);
  }

  /** False when the new name is taken by another of the user's volumes. */
  async rename(userId: number, id: number, name: string): Promise<boolean> {
    const taken = await this.knex('volumes').where({ user_id: userId, name }).whereNot({ id }).first('id');
    if (taken) return false;
    try {
      await this.knex('volumes').where({ id, user_id: userId }).update({ name });
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return false; // renamed concurrently
      throw err;
    }
  }

  async delete(id: number): Promise<void> {
    await this.knex('volumes').where({ id }).delete();
  }

  async recordSize(id: number, sizeBytes: number, at: Date): Promise<void> {
    await this.knex('volumes').where({ id }).update({ size_bytes: sizeBytes, measured_at: at });
  }

  async usedBytes(userId: number): Promise<number> {
    const row = await this.knex('volumes').where({ user_id: userId }).sum({ total: 'size_bytes' }).first();
    return Number(row?.total ?? 0);
  }

  countOnNode(nodeId: number): Promise<number> {
    return this.knex('volumes')
      .where({ node_id: nodeId })
      .count({ n: '*' })
      .first()
      .then((r) => Number(r?.n ?? 0));
  }

  /** Mounts of live containers (and mounts saved for their next start) naming these volumes. */
  async uses(volumeIds: number[]): Promise<VolumeUse[]> {
    if (volumeIds.length === 0) return [];
    const result = await this.knex.raw<{ rows: VolumeUse[] }>(
      `SELECT (m->>'source')::bigint AS volume_id, c.id AS container_id, c.name AS container_name,
              m->>'target' AS mount_path, src.pending
         FROM containers c
         CROSS JOIN LATERAL (
           SELECT false AS pending, c.mounts AS list
           UNION ALL SELECT true, coalesce(c.pending_mounts, '[]'::jsonb)
         ) src
         CROSS JOIN LATERAL jsonb_array_elements(src.list) m
        WHERE c.status <> 'deleted'
          AND m->>'source' ~ '^[0-9]+$'
          AND (m->>'source')::bigint IN (${volumeIds.map(() => '?').join(', ')})
        ORDER BY c.created_at, c.id`,
      volumeIds,
    );
    return result.rows.map((r) => ({ ...r, volume_id: Number(r.volume_id) }));
  }
}
