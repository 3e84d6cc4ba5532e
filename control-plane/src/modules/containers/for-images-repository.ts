import type { Knex } from 'knex';
import { ContainerModel } from './model.js';

/**
 * What the images module reads and writes of containers (platform.ts hands these over): which
 * live containers were made from saved images, which source containers still exist, and the
 * custom image a purchase records.
 */
export class ContainersForImagesRepository {
  constructor(private readonly knex: Knex) {}

  /** The live (not deleted) containers made from these saved images. */
  async imageUses(
    imageIds: number[],
  ): Promise<{ image_id: number; container_id: string; container_name: string }[]> {
    if (imageIds.length === 0) return [];
    const rows = (await ContainerModel.query(this.knex)
      .modify('live')
      .whereIn('custom_image_id', imageIds)
      .orderBy('created_at', 'asc')
      .select('id', 'name', 'custom_image_id')) as unknown as {
      id: string;
      name: string;
      custom_image_id: number;
    }[];
    return rows.map((r) => ({
      image_id: Number(r.custom_image_id),
      container_id: r.id,
      container_name: r.name,
    }));
  }

  /** Which of these containers are not deleted. */
  async liveIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await ContainerModel.query(this.knex).modify('live').whereIn('id', ids).select('id');
    return new Set(rows.map((r) => r.id));
  }

  /** The saved image a purchase is made from (in the purchase's transaction). */
  async setCustomImage(id: string, imageId: number, trx: Knex.Transaction): Promise<void> {
    await trx('containers').where({ id }).update({ custom_image_id: imageId });
  }
}
