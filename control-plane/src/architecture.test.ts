// The control plane's structure, checked over its source so it holds without anyone remembering
// it (docs/architecture.md):
// - agents/ is a leaf: the gRPC client pool, knowing no module and no job;
// - modules never import jobs/ (jobs call modules, not the other way round);
// - a module never imports another module's repository or models (type-only imports aside);
// - queries are made in repositories and models only, never knex('table') in a service or job;
// - each table belongs to one module, and only that module's code queries it (knex calls, model
//   table names and SQL text alike): others go through the owner's service or a narrow
//   interface platform.ts passes in.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

/** Which module owns each table (its migrations made it; its repository reads and writes it). */
const OWNERS: Record<string, string> = {
  users: 'users',
  sessions: 'auth',
  api_keys: 'api-keys',
  verification_codes: 'verification',
  outbox_messages: 'messages',
  wechat_sandbox_codes: 'wechat',
  rate_limit_counters: 'rate-limits',
  images: 'catalogue',
  frameworks: 'catalogue',
  framework_versions: 'catalogue',
  cloud_products: 'cloud-products',
  nodes: 'nodes',
  node_gpus: 'nodes',
  gpu_samples: 'nodes',
  node_images: 'nodes',
  platform_ca: 'fleet',
  node_join_tokens: 'fleet',
  containers: 'containers',
  gpu_allocations: 'containers',
  container_gpu_samples: 'containers',
  container_gpu_samples_5m: 'containers',
  port_allocations: 'containers',
  purchase_requests: 'containers',
  volumes: 'storage',
  billing_accounts: 'billing',
  ledger_entries: 'billing',
  ledger_lines: 'billing',
  payments: 'billing',
  coupons: 'billing',
  container_meters: 'billing',
  container_orders: 'billing',
  invoices: 'billing',
  settlement_runs: 'billing',
  container_notices: 'billing',
  user_images: 'images',
  image_quotas: 'images',
  user_image_publications: 'images',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'db' ? [] : sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((full) => ({
  file: path.relative(SRC, full),
  text: readFileSync(full, 'utf8'),
}));

interface Import {
  from: string;
  /** The resolved path relative to src/, for relative imports. */
  target: string | undefined;
  typeOnly: boolean;
}

function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  const pattern = /^(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/gms;
  for (const m of text.matchAll(pattern)) {
    const from = m[4] as string;
    const names = m[3] ?? '';
    // `import { type A, type B }` is type-only too.
    const typeOnly =
      Boolean(m[2]) ||
      (/^\{[^}]*\}$/s.test(names.trim()) &&
        names
          .replace(/[{}]/g, '')
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
          .every((n) => n.startsWith('type ')));
    const target = from.startsWith('.')
      ? path.normalize(path.join(path.dirname(file), from)).replace(/\.js$/, '.ts')
      : undefined;
    found.push({ from, target, typeOnly });
  }
  return found;
}

const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1];

describe('the structure of the control plane', () => {
  it('finds the source (a check over nothing would pass)', () => {
    expect(files.length).toBeGreaterThan(80);
    expect(files.some((f) => f.file === path.join('jobs', 'settlement.ts'))).toBe(true);
  });

  it('agents/ is a leaf: no module, no job', () => {
    const wrong = files
      .filter((f) => f.file.startsWith('agents/'))
      .flatMap((f) =>
        importsOf(f.file, f.text)
          .filter((i) => i.target?.startsWith('modules/') || i.target?.startsWith('jobs/'))
          .map((i) => `${f.file} → ${i.from}`),
      );
    expect(wrong).toEqual([]);
  });

  it('modules do not import jobs/', () => {
    const wrong = files
      .filter((f) => f.file.startsWith('modules/'))
      .flatMap((f) =>
        importsOf(f.file, f.text)
          .filter((i) => i.target?.startsWith('jobs/'))
          .map((i) => `${f.file} → ${i.from}`),
      );
    expect(wrong).toEqual([]);
  });

  it('no module imports another module’s repository (beyond the types of its rows)', () => {
    const wrong = files.flatMap((f) => {
      const own = moduleOf(f.file);
      if (!own) return [];
      return importsOf(f.file, f.text)
        .filter((i) => !i.typeOnly && i.target && /repository\.ts$/.test(i.target))
        .filter((i) => moduleOf(i.target as string) !== own)
        .map((i) => `${f.file} → ${i.from}`);
    });
    expect(wrong).toEqual([]);
  });

  it('no module imports another module’s models', () => {
    const wrong = files.flatMap((f) => {
      const own = moduleOf(f.file);
      if (!own) return [];
      return importsOf(f.file, f.text)
        .filter((i) => !i.typeOnly && i.target && /model\.ts$/.test(i.target))
        .filter((i) => moduleOf(i.target as string) !== own)
        .map((i) => `${f.file} → ${i.from}`);
    });
    expect(wrong).toEqual([]);
  });

  it("queries are made in repositories and models only (no knex('table') in services, jobs or routes)", () => {
    const call = /\b(?:knex|trx)(?:<[^>]*>)?\(\s*['"`][a-z_]+['"`]/g;
    const wrong = files
      .filter((f) => !/(^|\/|-)(repository|model)\.ts$/.test(f.file))
      .flatMap((f) => [...f.text.matchAll(call)].map((m) => `${f.file}: ${m[0]}`));
    expect(wrong).toEqual([]);
  });

  it('each table is queried only by the module that owns it', () => {
    const tables = Object.keys(OWNERS).join('|');
    // knex('table'), tableName = 'table', and SQL in strings: from / join / update / into table.
    const query = new RegExp(
      `\\(\\s*'(${tables})'\\s*[,)]|tableName = '(${tables})'|\\b(?:from|join|update|into) (${tables})\\b`,
      'gi',
    );
    const crossings = new Set<string>();
    for (const f of files) {
      const own = moduleOf(f.file);
      for (const m of f.text.matchAll(query)) {
        const table = (m[1] ?? m[2] ?? m[3]) as string;
        if (own !== OWNERS[table]) crossings.add(`${f.file} ${table}`);
      }
    }
    expect([...crossings], 'a table queried outside the module that owns it').toEqual([]);
  });
});
