// Set-up shared by `npm start` and `npm test`: dependencies, the console build, secrets.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
// GPUCLOUD_DATA_DIR moves everything `npm start` keeps (tests run it in a folder of their own).
export const DATA_DIR = process.env.GPUCLOUD_DATA_DIR
  ? path.resolve(process.env.GPUCLOUD_DATA_DIR)
  : path.join(ROOT, '.data');

export function log(line) {
  console.log(`[gpucloud] ${line}`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // test-results.json is what the last test run wrote, not a source of the build.
    if (['node_modules', 'dist', 'test-results.json'].includes(entry.name)) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Installs Debian packages the platform needs on this machine (the agent's container toolbox)
 * when they are missing and we may: as root, with apt-get. Otherwise returns what is missing.
 */
export function ensureDebianPackages(packages) {
  if (packages.length === 0) return [];
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' });
  if (process.getuid?.() !== 0 || apt.status !== 0) return packages;
  log(`安装 Debian 软件包: ${packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env });
  return [];
}

/** npm install when node_modules is missing or older than package-lock.json / a package.json. */
export function ensureDependencies() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const manifests = [
    'package.json',
    'package-lock.json',
    ...['proto', 'node-agent', 'control-plane', 'web', 'cli', 'e2e'].map((p) => `${p}/package.json`),
  ];
  const newestManifest = Math.max(
    ...manifests.map((m) => (existsSync(path.join(ROOT, m)) ? statSync(path.join(ROOT, m)).mtimeMs : 0)),
  );
  if (existsSync(marker) && statSync(marker).mtimeMs >= newestManifest) return;
  log('安装依赖 (npm install)…');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

/** Builds the console when web/dist is missing or older than its sources. */
export function ensureWebBuild({ force = false } = {}) {
  const index = path.join(ROOT, 'web', 'dist', 'index.html');
  const stale = !existsSync(index) || newestMtime(path.join(ROOT, 'web')) > statSync(index).mtimeMs;
  if (!force && !stale) return;
  log('构建控制台 (web)…');
  run('npm', ['run', 'build', '-w', '@gpucloud/web']);
}

/** Secrets generated once per checkout and kept in .data/secrets.json (never committed). */
export function loadSecrets() {
  mkdirSync(DATA_DIR, { recursive: true });
  const file = path.join(DATA_DIR, 'secrets.json');
  const secrets = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  let changed = false;
  const fill = (key, make) => {
    if (!secrets[key]) {
      secrets[key] = make();
      changed = true;
    }
  };
  fill('secretKey', () => randomBytes(32).toString('hex'));
  fill('adminPassword', () => randomBytes(9).toString('base64url'));
  fill('agentToken', () => randomBytes(24).toString('base64url'));
  // The embedded PostgreSQL's; a cluster made with the old fixed password takes it at its next start.
  fill('databasePassword', () => randomBytes(24).toString('base64url'));
  if (changed) writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

export function hasNvidiaGpu() {
  const r = spawnSync('nvidia-smi', ['-L'], { encoding: 'utf8' });
  return r.status === 0 && /GPU \d+:/.test(r.stdout);
}
