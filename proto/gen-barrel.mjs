// Writes src/generated/index.ts re-exporting every generated message, enum and service type.
import { readdirSync, writeFileSync } from 'node:fs';

const dir = new URL('./src/generated/gpucloud/agent/v1/', import.meta.url);
const lines = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .map((f) => `export type * from './gpucloud/agent/v1/${f.slice(0, -3)}';`);
writeFileSync(new URL('./src/generated/index.ts', import.meta.url), `${lines.join('\n')}\n`);
