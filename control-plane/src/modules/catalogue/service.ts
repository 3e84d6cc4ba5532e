import { notFound } from '../../framework/errors.js';
import type { CatalogueRepository, FrameworkVersionRow } from './repository.js';

export interface FrameworkVersionView {
  id: number;
  framework_id: number;
  version: string;
  image: string;
  cuda_version: string;
  system_type: 'ubuntu' | 'windows';
  ports: Record<string, number | string>;
  mounts: { source: string; target: string }[];
}

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

export class CatalogueService {
  constructor(private readonly repo: CatalogueRepository) {}

  async frameworks() {
    const rows = await this.repo.frameworks();
    return rows.map((f) => ({ id: f.id, name: f.name, ports: f.ports }));
  }

  async versions(frameworkId: number): Promise<FrameworkVersionView[]> {
    if (!(await this.repo.framework(frameworkId))) throw notFound('框架不存在');
    return (await this.repo.versions(frameworkId)).map(versionView);
  }

  async version(frameworkId: number, versionId: number): Promise<FrameworkVersionView> {
    const v = await this.repo.version(versionId);
    if (!v || v.framework_id !== frameworkId) throw notFound('框架版本不存在');
    return versionView(v);
  }

  async images() {
    const rows = await this.repo.images();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      icon: r.icon,
      description: r.description,
      category: r.category,
      created_at: r.created_at.toISOString(),
      framework: { name: r.framework_name, version: { name: r.version, cuda_version: r.cuda_version } },
    }));
  }
}
