/**
 * `npm run bench`: every bench in e2e/bench, one after another (they would disturb each other's
 * timings side by side), then the README's table between its bench markers, from
 * bench-results.json. `npm run bench -- api logs` runs only those.
 *
 * A bench that breaks makes this exit non-zero; a goal not met does not (benches measure).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { markdownTable, readResults } from './results.js';

export const BENCHES = ['api', 'logs', 'settlement', 'fleet', 'purchase-ssh', 'web-budget'] as const;

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** The README with its table between the markers replaced (unchanged when a marker is missing). */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return readme;
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

function main(): void {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(BENCHES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`unknown bench: ${unknown.join(', ')} (known: ${BENCHES.join(', ')})`);
    process.exit(2);
  }
  const chosen = wanted.length > 0 ? wanted : [...BENCHES];
  const broken: string[] = [];
  for (const name of chosen) {
    console.log(`\n=== bench ${name} ===`);
    const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
    const run = spawnSync('npx', ['tsx', script], { stdio: 'inherit' });
    if (run.status !== 0) broken.push(`${name} (exit ${run.status ?? run.signal})`);
  }
  const table = markdownTable(readResults());
  writeFileSync(README, withTable(readFileSync(README, 'utf8'), table));
  console.log(`\n${table}\n`);
  if (broken.length > 0) {
    console.error(`benches that broke: ${broken.join(', ')}`);
    process.exitCode = 1;
  } else {
    console.log(`${chosen.length} benches ran; the README's table is updated from bench-results.json`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
