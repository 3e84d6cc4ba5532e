import { isUniqueViolation } from '../../framework/db-errors.js';
import { conflict, notFound } from '../../framework/errors.js';
import type {
  AdminFrameworkReply,
  AppImageReply,
  FrameworkReply,
  FrameworkVersionReply,
  SavedFrameworkReply,
  SavedImageReply,
} from './contract.js';
import type { CatalogueRepository, FrameworkVersionRow, ImageRow } from './repository.js';
import type { FrameworkInput, ImageInput, VersionInput } from './schema.js';

/** Which catalogue entries live containers still use (owned by the containers module). */
export interface CatalogueUsage {
  liveContainersOfVersions(versionIds: number[]): Promise<number>;
}

export interface CatalogueImage {
  image: string;
  versions: { id: number; label: string }[];
}

/** A framework version as the market and the admin read it (the shape lives in contract.ts). */
export type FrameworkVersionView = FrameworkVersionReply;

export interface ContainerPort {
  name: string;
  port: number;
}

/**
 * The container ports a version exposes: numeric entries of its map, plus the Windows
 * `custom` entry ("rdp:3389,ssh:22").
 */
export function containerPortsOf(ports: Record<string, number | string>): ContainerPort[] {
  const out: ContainerPort[] = [];
  for (const [name, value] of Object.entries(ports)) {
    if (name === 'custom' && typeof value === 'string') {
      for (const part of value.split(',')) {
        const [n, p] = part.split(':');
        const port = Number(p);
        if (n && Number.isInteger(port) && port > 0 && port < 65536) out.push({ name: n.trim(), port });
      }
    } else {
      const port = Number(value);
      if (Number.isInteger(port) && port > 0 && port < 65536) out.push({ name, port });
    }
  }
  const seen = new Set<number>();
  return out.filter((p) => {
    if (seen.has(p.port)) return false;
    seen.add(p.port);
    return true;
  });
}

function versionView(v: FrameworkVersionRow): FrameworkVersionView {
  return { ...v };
}

function savedImage(row: ImageRow): SavedImageReply {
  return { ...row, created_at: row.created_at.toISOString() };
}

export class CatalogueService {
  constructor(
    private readonly repo: CatalogueRepository,
    private readonly usage: CatalogueUsage,
  ) {}

  async frameworks(): Promise<FrameworkReply[]> {
    const rows = await this.repo.frameworks();
    return rows.map((f) => ({ id: f.id, name: f.name, ports: f.ports }));
  }

  async versions(frameworkId: number): Promise<FrameworkVersionView[]> {
    if (!(await this.repo.framework(frameworkId))) throw notFound('框架不存在');
    return (await this.repo.versions(frameworkId)).map(versionView);
  }

  async version(frameworkId: number, versionId: number): Promise<FrameworkVersionView> {
    const v = await this.findVersion(frameworkId, versionId);
    if (!v) throw notFound('框架版本不存在');
    return v;
  }

  /** The version of that framework; undefined when there is none. */
  async findVersion(frameworkId: number, versionId: number): Promise<FrameworkVersionView | undefined> {
    const v = await this.repo.version(versionId);
    return v && v.framework_id === frameworkId ? versionView(v) : undefined;
  }

  async images(
    filter: { category?: string | undefined; search?: string | undefined } = {},
  ): Promise<AppImageReply[]> {
    const rows = await this.repo.images(filter);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      icon: r.icon,
      description: r.description,
      category: r.category,
      created_at: r.created_at.toISOString(),
      framework_version_id: r.framework_version_id,
      framework: {
        id: r.framework_id,
        name: r.framework_name,
        version: { id: r.framework_version_id, name: r.version, cuda_version: r.cuda_version },
      },
    }));
  }

  async image(id: number): Promise<ImageRow> {
    const row = await this.repo.image(id);
    if (!row) throw notFound('镜像不存在');
    return row;
  }

  /** Every image of the catalogue with the framework versions that run it ("PyTorch 2.4.0"). */
  async catalogueImages(): Promise<CatalogueImage[]> {
    const [frameworks, versions] = await Promise.all([this.repo.frameworks(), this.repo.allVersions()]);
    const names = new Map(frameworks.map((f) => [f.id, f.name]));
    const byImage = new Map<string, CatalogueImage>();
    for (const v of versions) {
      const entry = byImage.get(v.image) ?? { image: v.image, versions: [] };
      entry.versions.push({ id: v.id, label: `${names.get(v.framework_id) ?? ''} ${v.version}`.trim() });
      byImage.set(v.image, entry);
    }
    return [...byImage.values()];
  }

  versionById(id: number): Promise<FrameworkVersionRow | undefined> {
    return this.repo.version(id);
  }

  // ------------------------------------------------------------------ administration

  async adminFrameworks(): Promise<AdminFrameworkReply[]> {
    const [frameworks, versions] = await Promise.all([this.repo.frameworks(), this.repo.allVersions()]);
    return frameworks.map((f) => ({
      ...f,
      versions: versions.filter((v) => v.framework_id === f.id).map(versionView),
    }));
  }

  async createFramework(input: FrameworkInput): Promise<SavedFrameworkReply> {
    try {
      return await this.repo.insertFramework(input.name, input.ports);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('框架名称已存在', 'FRAMEWORK_NAME_TAKEN');
      throw err;
    }
  }

  async updateFramework(id: number, input: FrameworkInput): Promise<SavedFrameworkReply> {
    if (!(await this.repo.framework(id))) throw notFound('框架不存在');
    try {
      await this.repo.updateFramework(id, input.name, input.ports);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('框架名称已存在', 'FRAMEWORK_NAME_TAKEN');
      throw err;
    }
    return (await this.repo.framework(id)) as SavedFrameworkReply;
  }

  async deleteFramework(id: number): Promise<void> {
    if (!(await this.repo.framework(id))) throw notFound('框架不存在');
    const versions = await this.repo.versions(id);
    if ((await this.usage.liveContainersOfVersions(versions.map((v) => v.id))) > 0) {
      throw conflict('该框架仍有容器在使用', 'FRAMEWORK_IN_USE');
    }
    await this.repo.deleteFramework(id);
  }

  async createVersion(frameworkId: number, input: VersionInput): Promise<FrameworkVersionView> {
    if (!(await this.repo.framework(frameworkId))) throw notFound('框架不存在');
    try {
      return versionView(await this.repo.insertVersion({ framework_id: frameworkId, ...input }));
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('该框架已有同名版本', 'VERSION_NAME_TAKEN');
      throw err;
    }
  }

  async updateVersion(id: number, input: VersionInput): Promise<FrameworkVersionView> {
    if (!(await this.repo.version(id))) throw notFound('框架版本不存在');
    try {
      await this.repo.updateVersion(id, input);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('该框架已有同名版本', 'VERSION_NAME_TAKEN');
      throw err;
    }
    return versionView((await this.repo.version(id)) as FrameworkVersionRow);
  }

  async deleteVersion(id: number): Promise<void> {
    if (!(await this.repo.version(id))) throw notFound('框架版本不存在');
    if ((await this.usage.liveContainersOfVersions([id])) > 0)
      throw conflict('该版本仍有容器在使用', 'VERSION_IN_USE');
    await this.repo.deleteVersion(id);
  }

  async createImage(input: ImageInput): Promise<SavedImageReply> {
    if (!(await this.repo.version(input.framework_version_id))) throw notFound('框架版本不存在');
    return savedImage(await this.image(await this.repo.insertImage(input)));
  }

  async updateImage(id: number, input: ImageInput): Promise<SavedImageReply> {
    await this.image(id);
    if (!(await this.repo.version(input.framework_version_id))) throw notFound('框架版本不存在');
    await this.repo.updateImage(id, input);
    return savedImage(await this.image(id));
  }

  async deleteImage(id: number): Promise<void> {
    await this.image(id);
    await this.repo.deleteImage(id);
  }
}
