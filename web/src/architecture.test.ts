// The console's structure, checked over its source (docs/architecture.md): features do not import
// each other in loops (what two features share lives in lib/ or components/), query keys come
// from lib/query-keys.ts, every request goes through lib/api-client.ts, and the API's request and
// reply types come from the control plane (@gpucloud/control-plane/api), imported as types only
// and never declared again here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));
const FEATURES = path.join(SRC, 'features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((full) => ({ full, text: readFileSync(full, 'utf8') }));

/** Every file of src/, tests included (a test's hand-written mirror is a mirror too). */
function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return allFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

const everyFile = allFiles(SRC)
  .filter((full) => full !== fileURLToPath(import.meta.url))
  .map((full) => ({ full, text: readFileSync(full, 'utf8') }));

/** The types control-plane/src/api.ts exports: the console's one source of API shapes. */
const API_FILE = path.join(SRC, '..', '..', 'control-plane', 'src', 'api.ts');
const apiTypes = new Set(
  [...readFileSync(API_FILE, 'utf8').matchAll(/^export type ([A-Za-z_$][\w$]*)/gm)].map(
    (m) => m[1] as string,
  ),
);

/** `interface X` and `type X =` declarations of a file (not `import type` / `export type {…}`). */
function declaredTypes(text: string): string[] {
  return [
    ...text.matchAll(
      /^[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(?:interface|type)[ \t]+([A-Za-z_$][\w$]*)/gm,
    ),
  ].map((m) => m[1] as string);
}

/** Declarations that re-declare an API type: `<file>: <name>`. */
function mirrors(list: { full: string; text: string }[]): string[] {
  return list.flatMap(({ full, text }) =>
    declaredTypes(text)
      .filter((name) => apiTypes.has(name))
      .map((name) => `${path.relative(SRC, full)}: ${name}`),
  );
}

/** Imports of the control plane that are not `import type … from '@gpucloud/control-plane/api'`. */
function controlPlaneImports(list: { full: string; text: string }[]): string[] {
  const statement = /^(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'(@gpucloud\/control-plane[^']*)'/gms;
  const bare = /(?:^import\s+|\bimport\(\s*|\brequire\(\s*)'(@gpucloud\/control-plane[^']*)'/gm;
  return list.flatMap(({ full, text }) => [
    ...[...text.matchAll(statement)]
      .filter((m) => !m[2] || m[4] !== '@gpucloud/control-plane/api')
      .map((m) => `${path.relative(SRC, full)}: ${m[0].split('\n')[0]}`),
    ...[...text.matchAll(bare)].map((m) => `${path.relative(SRC, full)}: ${m[0]}`),
  ]);
}

const featureOf = (full: string) =>
  full.startsWith(`${FEATURES}${path.sep}`) ? path.relative(FEATURES, full).split(path.sep)[0] : undefined;

/** feature → the other features it imports. */
function featureGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { full, text } of files) {
    const from = featureOf(full);
    if (!from) continue;
    for (const m of text.matchAll(/from '(\.[^']+)'/g)) {
      const to = featureOf(path.normalize(path.join(path.dirname(full), m[1] as string)));
      if (to && to !== from) {
        const edges = graph.get(from) ?? new Set<string>();
        edges.add(to);
        graph.set(from, edges);
      }
    }
  }
  return graph;
}

/** Every loop of the graph, as a path that comes back to its start. */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const visit = (node: string, trail: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === trail[0]) found.push([...trail, next].join(' → '));
      else if (!trail.includes(next) && next > (trail[0] as string)) visit(next, [...trail, next]);
    }
  };
  for (const start of graph.keys()) visit(start, [start]);
  return found;
}

describe('the structure of the console', () => {
  it('finds the features and their imports (a check over nothing would pass)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(featureGraph().get('containers')?.has('billing')).toBe(true);
  });

  it('no feature imports another in a loop', () => {
    expect(cycles(featureGraph())).toEqual([]);
  });

  it('detects a loop where there is one', () => {
    const loop = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(loop)).toEqual(['a → b → c → a']);
  });

  it('query keys come from lib/query-keys.ts only', () => {
    const own = files
      .filter(({ full }) => /query-keys\.ts$/.test(full))
      .map(({ full }) => path.relative(SRC, full));
    expect(own).toEqual([path.join('lib', 'query-keys.ts')]);
  });

  it('reads the API types of the control plane (a check over nothing would pass)', () => {
    expect(apiTypes.size).toBeGreaterThan(50);
    for (const name of ['Container', 'CloudProduct', 'Balance', 'Volume', 'GpuNode', 'McpContainer']) {
      expect(apiTypes.has(name)).toBe(true);
    }
    expect(everyFile.some(({ text }) => text.includes("from '@gpucloud/control-plane/api'"))).toBe(true);
  });

  it('declares no type of the API again (the control plane’s are imported instead)', () => {
    expect(mirrors(everyFile)).toEqual([]);
  });

  it('detects a re-declared API type, and a value import of the control plane', () => {
    const fake = [
      {
        full: path.join(SRC, 'a.ts'),
        text: 'export interface Container {\n  id: string;\n}\ntype Local = 1;\n',
      },
      { full: path.join(SRC, 'b.ts'), text: '  export type Balance = { balance: number };\n' },
      {
        full: path.join(SRC, 'c.ts'),
        text: "import { type Container } from '@gpucloud/control-plane/api';\n",
      },
      {
        full: path.join(SRC, 'd.ts'),
        text: "import type { GpuNode } from '@gpucloud/control-plane/platform';\n",
      },
      { full: path.join(SRC, 'e.ts'), text: "const m = import('@gpucloud/control-plane/api');\n" },
      {
        full: path.join(SRC, 'f.ts'),
        text: "import type { Container } from '@gpucloud/control-plane/api';\n",
      },
    ];
    expect(mirrors(fake)).toEqual(['a.ts: Container', 'b.ts: Balance']);
    expect(controlPlaneImports(fake).map((line) => line.slice(0, 4))).toEqual(['c.ts', 'd.ts', 'e.ts']);
  });

  it('imports the control plane as types only, from its api entry (nothing of it in the bundle)', () => {
    expect(controlPlaneImports(everyFile)).toEqual([]);
  });

  it('every request goes through lib/api-client.ts (no fetch of its own)', () => {
    const own = files
      .filter(({ full, text }) => !full.endsWith(path.join('lib', 'api-client.ts')) && /\bfetch\(/.test(text))
      .map(({ full }) => path.relative(SRC, full));
    expect(own).toEqual([]);
  });
});
