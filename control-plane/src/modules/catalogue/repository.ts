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

  images(): Promise<(ImageRow & { framework_name: string; version: string; cuda_version: string })[]> {
    return this.knex('images')
      .join('framework_versions', 'framework_versions.id', 'images.framework_version_id')
      .join('frameworks', 'frameworks.id', 'framework_versions.framework_id')
      .select(
        'images.*',
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

  async ensureImage(v: Omit<ImageRow, 'id' | 'created_at'>): Promise<void> {
    const existing = await this.knex('images').where({ name: v.name }).first();
    if (existing) await this.knex('images').where({ id: existing.id }).update(v);
    else await this.knex('images').insert(v);
  }
}
