import type { Knex } from 'knex';
import { isUniqueViolation } from '../../framework/db-errors.js';
import type { ImageContents } from './contract.js';
import { ImageQuotaModel, UserImageModel, UserImagePublicationModel, type UserImageRow } from './model.js';

export type { UserImageRow } from './model.js';

/** A user's image quota: at most this many images holding at most this many bytes. */
export interface QuotaLimits {
  maxCount: number;
  maxBytes: number;
}

/** What a user's images take now: those saving or saved count; bytes of those saved. */
export interface QuotaUse {
  count: number;
  bytes: number;
}

export type NewImage = Pick<
  UserImageRow,
  | 'user_id'
  | 'name'
  | 'tag'
  | 'description'
  | 'source_container_id'
  | 'source_container_name'
  | 'source_image'
  | 'node_id'
  | 'ports'
  | 'extra_driver_capabilities'
  | 'save_lease_until'
>;

export type InsertOutcome =
  | { row: UserImageRow }
  | { refused: 'count' | 'bytes'; limits: QuotaLimits }
  | { refused: 'taken' };

const toRow = (model: UserImageModel): UserImageRow => {
  const r = model.toJSON() as UserImageRow;
  return { ...r, size_bytes: Number(r.size_bytes) };
};

/** Owns user_images, image_quotas and user_image_publications. */
export class ImagesRepository {
  constructor(private readonly knex: Knex) {}

  private images(trx?: Knex.Transaction) {
    return UserImageModel.query(trx ?? this.knex);
  }

  private live(trx?: Knex.Transaction) {
    return this.images(trx).whereNull('user_images.deleted_at');
  }

  async listForUser(userId: number): Promise<UserImageRow[]> {
    const rows = await this.live().where({ user_id: userId }).orderBy('id', 'desc');
    return rows.map(toRow);
  }

  async listAll(): Promise<UserImageRow[]> {
    const rows = await this.live().orderBy('id', 'desc');
    return rows.map(toRow);
  }

  async findForUser(userId: number, id: number): Promise<UserImageRow | undefined> {
    const row = await this.live().where({ user_id: userId }).findById(id);
    return row && toRow(row);
  }

  async find(id: number): Promise<UserImageRow | undefined> {
    const row = await this.live().findById(id);
    return row && toRow(row);
  }

  /** Whether a save of this container is under way (the agent allows one at a time). */
  async savingFrom(containerId: string): Promise<boolean> {
    const row = await this.live()
      .where({ source_container_id: containerId, status: 'saving' })
      .select('id')
      .first();
    return row !== undefined;
  }

  /** The user's quota override, if an admin set one. */
  async quotaOverride(userId: number, trx?: Knex.Transaction): Promise<QuotaLimits | undefined> {
    const row = await ImageQuotaModel.query(trx ?? this.knex).findById(userId);
    return row ? { maxCount: row.max_count, maxBytes: Number(row.max_bytes) } : undefined;
  }

  async setQuota(userId: number, limits: QuotaLimits): Promise<void> {
    await ImageQuotaModel.query(this.knex)
      .insert({ user_id: userId, max_count: limits.maxCount, max_bytes: limits.maxBytes })
      .onConflict('user_id')
      .merge({ max_count: limits.maxCount, max_bytes: limits.maxBytes, updated_at: new Date() } as never);
  }

  async usage(userId: number, trx?: Knex.Transaction): Promise<QuotaUse> {
    const row = (await this.live(trx)
      .where({ user_id: userId })
      .whereIn('status', ['saving', 'ready'])
      .select(
        UserImageModel.raw('count(*)::int as count'),
        UserImageModel.raw("coalesce(sum(size_bytes) filter (where status = 'ready'), 0)::bigint as bytes"),
      )
      .first()) as unknown as { count: number; bytes: number | string } | undefined;
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /**
   * Inserts a new image being saved when the user's quota allows it and the name:tag is free; one
   * user's inserts are serialised (an advisory lock), so two saves at once cannot both pass the
   * quota. `limits` is the quota unless the user has an override.
   */
  insertWithinQuota(image: NewImage, defaults: QuotaLimits): Promise<InsertOutcome> {
    return this.knex.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(hashtext('user_images'), ?::int)", [image.user_id]);
      const limits = (await this.quotaOverride(image.user_id, trx)) ?? defaults;
      const use = await this.usage(image.user_id, trx);
      if (use.count >= limits.maxCount) return { refused: 'count', limits };
      if (use.bytes >= limits.maxBytes) return { refused: 'bytes', limits };
      const taken = await this.live(trx)
        .where({ user_id: image.user_id, name: image.name, tag: image.tag })
        .select('id')
        .first();
      if (taken) return { refused: 'taken' };
      const inserted = await this.images(trx).insert({ ...image, status: 'saving', progress: 0 });
      return { row: toRow(inserted) };
    });
  }

  async setRepository(id: number, repository: string): Promise<void> {
    await this.images().findById(id).patch({ repository });
  }

  /** The save's progress, while it is still saving. */
  async setProgress(id: number, progress: number): Promise<void> {
    await this.images()
      .where({ id, status: 'saving' })
      .patch({ progress, updated_at: new Date() } as Partial<UserImageModel>);
  }

  async renewLease(id: number, until: Date): Promise<void> {
    await this.images().where({ id, status: 'saving' }).patch({ save_lease_until: until });
  }

  /** The save succeeded; false when the row is no longer saving (marked failed meanwhile). */
  async finish(
    id: number,
    saved: { digest: string; size_bytes: number; contents: ImageContents | null },
  ): Promise<boolean> {
    const n = await this.images()
      .where({ id, status: 'saving' })
      .patch({
        ...saved,
        status: 'ready',
        progress: 100,
        error: null,
        save_lease_until: null,
        updated_at: new Date(),
      } as Partial<UserImageModel>);
    return n > 0;
  }

  async fail(id: number, error: string): Promise<boolean> {
    const n = await this.images()
      .where({ id, status: 'saving' })
      .patch({
        status: 'failed',
        error,
        save_lease_until: null,
        updated_at: new Date(),
      } as Partial<UserImageModel>);
    return n > 0;
  }

  /** Saves whose process is gone (their lease ran out) become failed; their ids. */
  async failAbandoned(now: Date, error: string): Promise<number[]> {
    const rows = await this.images()
      .where('status', 'saving')
      .where((q) => q.whereNull('save_lease_until').orWhere('save_lease_until', '<', now))
      .patch({ status: 'failed', error, save_lease_until: null, updated_at: now } as Partial<UserImageModel>)
      .returning('id');
    return (rows as unknown as { id: number }[]).map((r) => Number(r.id));
  }

  /** False when the name:tag is taken by another of the user's images. */
  async update(
    userId: number,
    id: number,
    patch: Partial<Pick<UserImageRow, 'name' | 'tag' | 'description'>>,
  ): Promise<boolean> {
    try {
      await this.live()
        .where({ user_id: userId })
        .findById(id)
        .patch({ ...patch, updated_at: new Date() } as Partial<UserImageModel>);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async markDeleted(id: number): Promise<void> {
    await this.images()
      .findById(id)
      .patch({ deleted_at: new Date(), updated_at: new Date() } as Partial<UserImageModel>);
  }

  async publish(imageId: number, frameworkVersionId: number): Promise<void> {
    await UserImagePublicationModel.query(this.knex).insert({
      image_id: imageId,
      framework_version_id: frameworkVersionId,
    });
  }

  /** The framework versions each image was published as. */
  async publications(imageIds: number[]): Promise<{ image_id: number; framework_version_id: number }[]> {
    if (imageIds.length === 0) return [];
    const rows = await UserImagePublicationModel.query(this.knex)
      .whereIn('image_id', imageIds)
      .orderBy('created_at', 'desc');
    return rows.map((r) => ({
      image_id: Number(r.image_id),
      framework_version_id: Number(r.framework_version_id),
    }));
  }

  /** A published image by its repository (a warm-up of a catalogue version names its reference). */
  async publishedByRepository(repository: string): Promise<UserImageRow | undefined> {
    const row = await this.live()
      .where({ repository })
      .whereExists(
        UserImagePublicationModel.query(this.knex).whereColumn(
          'user_image_publications.image_id',
          'user_images.id',
        ),
      )
      .first();
    return row && toRow(row);
  }

  /** The image a published framework version pulls (for the catalogue's pull grant). */
  async publishedImage(frameworkVersionId: number): Promise<UserImageRow | undefined> {
    const link = await UserImagePublicationModel.query(this.knex).findById(frameworkVersionId);
    if (!link) return undefined;
    const row = await this.images().findById(link.image_id);
    return row && toRow(row);
  }
}
