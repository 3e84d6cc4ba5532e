import type { Knex } from 'knex';
import {
  FrameworkModel,
  type FrameworkRow,
  FrameworkVersionModel,
  type FrameworkVersionRow,
  ImageModel,
  type ImageRow,
} from './model.js';

export type { FrameworkRow, FrameworkVersionRow, ImageRow } from './model.js';

/** An image with its framework and version, as the app market lists it. */
export type ImageWithFramework = ImageRow & {
  framework_id: number;
  framework_name: string;
  version: string;
  cuda_version: string;
};

/** The row of a model as a plain object (not a model instance). */
const plain = <T>(model: { toJSON(): object }): T => ({ ...model.toJSON() }) as T;

/** Owns frameworks, framework_versions and images. */
export class CatalogueRepository {
  constructor(private readonly knex: Knex) {}

  async frameworks(): Promise<FrameworkRow[]> {
    const rows = await FrameworkModel.query(this.knex).modify('ordered');
    return rows.map((r) => plain<FrameworkRow>(r));
  }

  async framework(id: number): Promise<FrameworkRow | undefined> {
    const row = await FrameworkModel.query(this.knex).findById(id);
    return row && plain<FrameworkRow>(row);
  }

  async versions(frameworkId: number): Promise<FrameworkVersionRow[]> {
    const rows = await FrameworkVersionModel.query(this.knex)
      .where({ framework_id: frameworkId })
      .modify('ordered');
    return rows.map((r) => plain<FrameworkVersionRow>(r));
  }

  async version(id: number): Promise<FrameworkVersionRow | undefined> {
    const row = await FrameworkVersionModel.query(this.knex).findById(id);
    return row && plain<FrameworkVersionRow>(row);
  }

  async images(
    filter: { category?: string | undefined; search?: string | undefined } = {},
  ): Promise<ImageWithFramework[]> {
    // Joined through the relations: aliased `frameworkVersion` and `frameworkVersion:framework`.
    const q = ImageModel.query(this.knex).joinRelated('frameworkVersion.framework');
    if (filter.category && filter.category !== 'all') q.where('images.category', filter.category);
    if (filter.search) {
      const like = `%${filter.search.replace(/[%_\\]/g, '\\$&')}%`;
      q.where((w) =>
        w
          .whereILike('images.name', like)
          .orWhereILike('images.description', like)
          .orWhereILike('frameworkVersion:framework.name', like),
      );
    }
    const rows = await q
      .select(
        'images.*',
        'frameworkVersion:framework.id as framework_id',
        'frameworkVersion:framework.name as framework_name',
        'frameworkVersion.version',
        'frameworkVersion.cuda_version',
      )
      .orderBy('images.id');
    return rows.map((r) => plain<ImageWithFramework>(r));
  }

  /** Inserts or updates a framework by name; returns its id. */
  async upsertFramework(name: string, ports: Record<string, number>, sort: number): Promise<number> {
    const row = await FrameworkModel.query(this.knex)
      .insert({ name, ports, sort })
      .onConflict('name')
      .merge(['ports', 'sort'])
      .returning('id');
    return row.id;
  }

  /** The seed's versions: driver capabilities an admin gave one stay as they are. */
  async upsertVersion(v: Omit<FrameworkVersionRow, 'id' | 'extra_driver_capabilities'>): Promise<number> {
    const row = await FrameworkVersionModel.query(this.knex)
      .insert(v)
      .onConflict(['framework_id', 'version'])
      .merge(['image', 'cuda_version', 'system_type', 'ports', 'mounts'])
      .returning('id');
    return row.id;
  }

  async insertFramework(name: string, ports: Record<string, number>): Promise<FrameworkRow> {
    const row = await FrameworkModel.query(this.knex).insert({ name, ports }).returning('*');
    return plain<FrameworkRow>(row);
  }

  async updateFramework(id: number, name: string, ports: Record<string, number>): Promise<void> {
    await FrameworkModel.query(this.knex).findById(id).patch({ name, ports });
  }

  async deleteFramework(id: number): Promise<void> {
    await FrameworkModel.query(this.knex).deleteById(id);
  }

  async allVersions(): Promise<FrameworkVersionRow[]> {
    const rows = await FrameworkVersionModel.query(this.knex).modify('ordered');
    return rows.map((r) => plain<FrameworkVersionRow>(r));
  }

  async insertVersion(v: Omit<FrameworkVersionRow, 'id'>): Promise<FrameworkVersionRow> {
    const row = await FrameworkVersionModel.query(this.knex).insert(v).returning('*');
    return plain<FrameworkVersionRow>(row);
  }

  async updateVersion(id: number, v: Omit<FrameworkVersionRow, 'id' | 'framework_id'>): Promise<void> {
    await FrameworkVersionModel.query(this.knex).findById(id).patch(v);
  }

  async deleteVersion(id: number): Promise<void> {
    await FrameworkVersionModel.query(this.knex).deleteById(id);
  }

  async image(id: number): Promise<ImageRow | undefined> {
    const row = await ImageModel.query(this.knex).findById(id);
    return row && plain<ImageRow>(row);
  }

  async insertImage(v: Omit<ImageRow, 'id' | 'created_at'>): Promise<number> {
    const row = await ImageModel.query(this.knex).insert(v).returning('id');
    return row.id;
  }

  async updateImage(id: number, v: Omit<ImageRow, 'id' | 'created_at'>): Promise<void> {
    await ImageModel.query(this.knex).findById(id).patch(v);
  }

  async deleteImage(id: number): Promise<void> {
    await ImageModel.query(this.knex).deleteById(id);
  }

  async ensureImage(v: Omit<ImageRow, 'id' | 'created_at'>): Promise<void> {
    const existing = await ImageModel.query(this.knex).where({ name: v.name }).first();
    if (existing) await ImageModel.query(this.knex).findById(existing.id).patch(v);
    else await ImageModel.query(this.knex).insert(v);
  }
}
