import type { Knex } from 'knex';

export interface FrameworkRow {
  id: number;
  name: string;
  ports: Record<string, number | string>;
  sort: number;
}

export interface FrameworkVersionRow {
  id: number;
  framework_id: number;
  version: string;
  image: string;
  cuda_version: string;
  system_type: 'ubuntu' | 'windows';
  ports: Record<string, number | string>;
  mounts: { source: string; target: string }[];
}

export interface ImageRow {
  id: number;
  name: string;
  icon: string;
  description: string;
  category: string;
  framework_version_id: number;
  created_at: Date;
}

export class CatalogueRepository {
  constructor(private readonly knex: Knex) {}

  frameworks(): Promise<FrameworkRow[]> {
    return this.knex<FrameworkRow>('frameworks').orderBy([{ column: 'sort' }, { column: 'id' }]);
  }

  framework(id: number): Promise<FrameworkRow | undefined> {
    return this.knex<FrameworkRow>('frameworks').where({ id }).first();
  }

  versions(frameworkId: number): Promise<FrameworkVersionRow[]> {
    return this.knex<FrameworkVersionRow>('framework_versions')
      .where({ framework_id: frameworkId })
      .orderBy('id');
  }

  version(id: number): Promise<FrameworkVersionRow | undefined> {
    return this.knex<FrameworkVersionRow>('framework_versions').where({ id }).first();
  }

  images(
    filter: { category?: string | undefined; search?: string | undefined } = {},
  ): Promise<
    (ImageRow & { framework_id: number; framework_name: string; version: string; cuda_version: string })[]
  > {
    const q = this.knex('images');
    if (filter.category && filter.category !== 'all') q.where('images.category', filter.category);
    if (filter.search) {
      const like = `%${filter.search.replace(/[%_\\]/g, '\\$&')}%`;
      q.where((w) =>
        w
          .whereILike('images.name', like)
          .orWhereILike('images.description', like)
          .orWhereILike('frameworks.name', like),
      );
    }
    return q
      .join('framework_versions', 'framework_versions.id', 'images.framework_version_id')
      .join('frameworks', 'frameworks.id', 'framework_versions.framework_id')
      .select(
        'images.*',
        'frameworks.id as framework_id',
        'frameworks.name as framework_name',
        'framework_versions.version',
        'framework_versions.cuda_version',
      )
      .orderBy('images.id');
  }

  /** Inserts or updates a framework by name; returns its id. */
  async upsertFramework(name: string, ports: Record<string, number>, sort: number): Promise<number> {
    const [row] = await this.knex('frameworks')
      .insert({ name, ports: JSON.stringify(ports), sort })
      .onConflict('name')
      .merge(['ports', 'sort'])
      .returning('id');
    return (row as { id: number }).id;
  }

  async upsertVersion(v: Omit<FrameworkVersionRow, 'id'>): Promise<number> {
    const [row] = await this.knex('framework_versions')
      .insert({ ...v, ports: JSON.stringify(v.ports), mounts: JSON.stringify(v.mounts) })
      .onConflict(['framework_id', 'version'])
      .merge(['image', 'cuda_version', 'system_type', 'ports', 'mounts'])
      .returning('id');
    return (row as { id: number }).id;
  }

  async insertFramework(name: string, ports: Record<string, number>): Promise<FrameworkRow> {
    const [row] = await this.knex('frameworks')
      .insert({ name, ports: JSON.stringify(ports) })
      .returning('*');
    return row as FrameworkRow;
  }

  async updateFramework(id: number, name: string, ports: Record<string, number>): Promise<void> {
    await this.knex('frameworks')
      .where({ id })
      .update({ name, ports: JSON.stringify(ports) });
  }

  async deleteFramework(id: number): Promise<void> {
    await this.knex('frameworks').where({ id }).delete();
  }

  allVersions(): Promise<FrameworkVersionRow[]> {
    return this.knex<FrameworkVersionRow>('framework_versions').orderBy('id');
  }

  async insertVersion(v: Omit<FrameworkVersionRow, 'id'>): Promise<FrameworkVersionRow> {
    const [row] = await this.knex('framework_versions')
      .insert({ ...v, ports: JSON.stringify(v.ports), mounts: JSON.stringify(v.mounts) })
      .returning('*');
    return row as FrameworkVersionRow;
  }

  async updateVersion(id: number, v: Omit<FrameworkVersionRow, 'id' | 'framework_id'>): Promise<void> {
    await this.knex('framework_versions')
      .where({ id })
      .update({ ...v, ports: JSON.stringify(v.ports), mounts: JSON.stringify(v.mounts) });
  }

  async deleteVersion(id: number): Promise<void> {
    await this.knex('framework_versions').where({ id }).delete();
  }

  image(id: number): Promise<ImageRow | undefined> {
    return this.knex<ImageRow>('images').where({ id }).first();
  }

  async insertImage(v: Omit<ImageRow, 'id' | 'created_at'>): Promise<number> {
    const [row] = await this.knex('images').insert(v).returning('id');
    return (row as { id: number }).id;
  }

  async updateImage(id: number, v: Omit<ImageRow, 'id' | 'created_at'>): Promise<void> {
    await this.knex('images').where({ id }).update(v);
  }

  async deleteImage(id: number): Promise<void> {
    await this.knex('images').where({ id }).delete();
  }

  async ensureImage(v: Omit<ImageRow, 'id' | 'created_at'>): Promise<void> {
    const existing = await this.knex('images').where({ name: v.name }).first();
    if (existing) await this.knex('images').where({ id: existing.id }).update(v);
    else await this.knex('images').insert(v);
  }
}
