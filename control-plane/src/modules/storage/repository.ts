import type { Knex } from 'knex';
import { UniqueViolationError } from 'objection';
import { VolumeModel, type VolumeRow } from './model.js';

export type { VolumeRow } from './model.js';

/** A container mount that uses a volume (from the containers' mounts and pending mounts). */
export interface VolumeUse {
  volume_id: number;
  container_id: string;
  container_name: string;
  mount_path: string;
  pending: boolean;
}

const toRow = (model: VolumeModel): VolumeRow => {
  const r = model.toJSON() as VolumeRow;
  return { ...r, size_bytes: Number(r.size_bytes) };
};

/** Owns volumes; reads which containers mount them from the containers' JSON mounts. */
export class VolumesRepository {
  constructor(private readonly knex: Knex) {}

  async listForUser(userId: number): Promise<VolumeRow[]> {
    const rows = await VolumeModel.query(this.knex).modify('ofUser', userId).orderBy('id', 'asc');
    return rows.map(toRow);
  }

  async findForUser(userId: number, id: number): Promise<VolumeRow | undefined> {
    const row = await VolumeModel.query(this.knex).modify('ofUser', userId).findById(id);
    return row && toRow(row);
  }

  async findByName(userId: number, name: string): Promise<VolumeRow | undefined> {
    const row = await VolumeModel.query(this.knex).modify('ofUser', userId).where({ name }).first();
    return row && toRow(row);
  }

  /** Undefined when the user already has a volume of that name. */
  async insert(
    row: Pick<VolumeRow, 'user_id' | 'node_id' | 'name' | 'path'>,
  ): Promise<VolumeRow | undefined> {
    const inserted = await VolumeModel.query(this.knex)
      .insert(row)
      .onConflict(['user_id', 'name'])
      .ignore()
      .returning('*');
    // Nothing returned (the name is taken): Objection hands back the model it was given, id-less.
    return inserted.id === undefined ? undefined : toRow(inserted);
  }

  /** False when the new name is taken by another of the user's volumes. */
  async rename(userId: number, id: number, name: string): Promise<boolean> {
    const taken = await VolumeModel.query(this.knex)
      .modify('ofUser', userId)
      .where({ name })
      .whereNot({ id })
      .select('id')
      .first();
    if (taken) return false;
    try {
      await VolumeModel.query(this.knex).modify('ofUser', userId).findById(id).patch({ name });
      return true;
    } catch (err) {
      if (err instanceof UniqueViolationError) return false; // renamed concurrently
      throw err;
    }
  }

  async delete(id: number): Promise<void> {
    await VolumeModel.query(this.knex).deleteById(id);
  }

  /**
   * Marks the user's volume 删除中, held by the caller until `leaseUntil`; undefined when it is
   * absent or already being deleted.
   */
  async markDeleting(userId: number, id: number, leaseUntil: Date): Promise<VolumeRow | undefined> {
    const rows = await VolumeModel.query(this.knex)
      .modify('ofUser', userId)
      .where({ id })
      .whereNull('deleting_since')
      .patch({
        deleting_since: new Date(),
        delete_progress: 0,
        delete_lease_until: leaseUntil,
        delete_error: null,
      })
      .returning('*');
    const row = (rows as unknown as VolumeModel[])[0];
    return row && toRow(row);
  }

  /** Ends 删除中 without a delete: the volume is back as it was, with `error` shown when given. */
  async unmarkDeleting(id: number, error: string | null): Promise<void> {
    await VolumeModel.query(this.knex).findById(id).whereNotNull('deleting_since').patch({
      deleting_since: null,
      delete_progress: null,
      delete_lease_until: null,
      delete_error: error,
    });
  }

  async setDeleteProgress(id: number, percent: number): Promise<void> {
    await VolumeModel.query(this.knex)
      .findById(id)
      .whereNotNull('deleting_since')
      .patch({ delete_progress: percent });
  }

  async renewDeleteLease(id: number, until: Date): Promise<void> {
    await VolumeModel.query(this.knex)
      .findById(id)
      .whereNotNull('deleting_since')
      .patch({ delete_lease_until: until });
  }

  /**
   * Takes over deletes whose process let go or died (their lease ran out): each one goes to one
   * caller, held until `until`.
   */
  async claimAbandonedDeletes(now: Date, until: Date, limit = 50): Promise<VolumeRow[]> {
    const result = await this.knex.raw(
      `UPDATE volumes SET delete_lease_until = ?
        WHERE id IN (SELECT id FROM volumes
                      WHERE deleting_since IS NOT NULL
                        AND (delete_lease_until IS NULL OR delete_lease_until < ?)
                      ORDER BY deleting_since LIMIT ? FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [until, now, limit],
    );
    return (result.rows as VolumeRow[]).map((r) => ({ ...r, size_bytes: Number(r.size_bytes) }));
  }

  async recordSize(id: number, sizeBytes: number, at: Date): Promise<void> {
    await VolumeModel.query(this.knex).findById(id).patch({ size_bytes: sizeBytes, measured_at: at });
  }

  async usedBytes(userId: number): Promise<number> {
    const row = (await VolumeModel.query(this.knex)
      .modify('ofUser', userId)
      .sum('size_bytes as total')
      .first()) as unknown as { total: string | number | null } | undefined;
    return Number(row?.total ?? 0);
  }

  countOnNode(nodeId: number): Promise<number> {
    return VolumeModel.query(this.knex).where({ node_id: nodeId }).resultSize();
  }

  /** The volumes kept on the node, oldest first (named when the node's removal is refused). */
  async onNode(nodeId: number): Promise<{ id: number; name: string }[]> {
    const rows = await VolumeModel.query(this.knex)
      .where({ node_id: nodeId })
      .select('id', 'name')
      .orderBy('id');
    return rows.map((r) => ({ id: r.id, name: r.name }));
  }
}
