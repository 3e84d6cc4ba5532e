// Bundles the CLI into one file, dist/gpucloud.js, that runs with plain `node` (no TypeScript
// loader, no node_modules: `ws` is inside). Type checking is tsc's (`npm run build` runs it first).
import { chmodSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const { version } = JSON.parse(readFileSync(here('./package.json'), 'utf8'));
const outfile = here('./dist/gpucloud.js');

await build({
  entryPoints: [here('./src/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  define: { CLI_VERSION: JSON.stringify(version) },
  // ws loads its optional native helpers with require() inside try/catch: a real require lets
  // that fail quietly where they are not installed.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cliRequire } from 'node:module';\nconst require = __cliRequire(import.meta.url);",
  },
  external: ['bufferutil', 'utf-8-validate'],
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
