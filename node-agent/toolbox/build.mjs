#!/usr/bin/env node
// Assembles the agent's toolbox: what every rented container needs to be reachable, whatever
// its image holds (no sshd, no tools, no libc at all). The agent mounts it read-only at
// /.gpucloud in every container and runs its init (init.sh) as the child of PID 1.
//
//   bin/busybox, bin/sh      static busybox (Debian busybox-static): the init's only tools
//   bin/dropbear, bin/dropbearkey
//                            Dropbear (Debian dropbear-bin) with its own loader and libraries:
//   libexec/sftp-server      OpenSSH's sftp-server (Debian openssh-sftp-server), likewise
//   bin/scp                  OpenSSH's scp (Debian openssh-client) for `scp -O`, likewise
//   lib/                     glibc's loader and the libraries those three need; the binaries'
//                            ELF interpreter and RPATH point here (patchelf), so they run in a
//                            musl image or one without any libc, and never load the image's
//   init, access, lib/common.sh
//   staged/                  empty: the mount point of a container's staged access (the agent's
//                            host folder of that container, staged-access.ts)
//
// Everything comes from Debian packages installed on this host; nothing is downloaded. The
// result goes to DEST/<recipe hash>/ and DEST/current points at it: running containers keep
// the version they were created with (their bind mount names the folder), new ones get the new.
//
// Usage: node node-agent/toolbox/build.mjs [DEST]   (its last line is the toolbox folder)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the toolbox appears inside every container. */
export const TOOLBOX_MOUNT = '/.gpucloud';
const RECIPE_VERSION = '1';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPTS = { init: 'init.sh', access: 'access.sh', health: 'health.sh', 'lib/common.sh': 'common.sh' };

/** Binary → [Debian package, where it goes in the toolbox]. */
const BINARIES = [
  ['/usr/sbin/dropbear', 'dropbear-bin', 'bin/dropbear'],
  ['/usr/bin/dropbearkey', 'dropbear-bin', 'bin/dropbearkey'],
  ['/usr/lib/openssh/sftp-server', 'openssh-sftp-server', 'libexec/sftp-server'],
  // The remote end of the legacy scp protocol (`scp -O`, the default before OpenSSH 9).
  ['/usr/bin/scp', 'openssh-client', 'bin/scp'],
];
const BUSYBOX = ['/bin/busybox', '/usr/bin/busybox'];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

function staticBusybox() {
  for (const p of BUSYBOX) {
    if (!existsSync(p)) continue;
    // A dynamically linked busybox (Debian's `busybox` package) needs the image's libc.
    const interp = spawnSync('patchelf', ['--print-interpreter', p], { encoding: 'utf8' });
    if (interp.status !== 0) return p;
  }
  throw new Error('缺少静态 busybox (static busybox missing): apt-get install busybox-static');
}

/** What is missing on this host to build the toolbox, as Debian package names. */
export function missingPackages() {
  const missing = new Set();
  for (const [file, pkg] of BINARIES) if (!existsSync(file)) missing.add(pkg);
  if (!BUSYBOX.some((p) => existsSync(p))) missing.add('busybox-static');
  if (spawnSync('patchelf', ['--version']).status !== 0) missing.add('patchelf');
  return [...missing];
}

/** The libraries a binary loads (ldd), its loader included. */
function sharedLibraries(binary) {
  const libs = new Set();
  for (const line of run('ldd', [binary]).split('\n')) {
    const m = line.match(/=>\s+(\/\S+)/) ?? line.match(/^\s+(\/\S+)\s+\(/);
    if (m?.[1]) libs.add(m[1]);
  }
  return [...libs];
}

function recipeHash(busybox) {
  const hash = createHash('sha256').update(RECIPE_VERSION);
  for (const file of Object.values(SCRIPTS)) hash.update(readFileSync(path.join(HERE, file)));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const [file] of BINARIES) hash.update(readFileSync(file));
  hash.update(readFileSync(busybox));
  return hash.digest('hex').slice(0, 16);
}

function assemble(dir, busybox) {
  for (const sub of ['bin', 'lib', 'libexec', 'staged']) mkdirSync(path.join(dir, sub), { recursive: true });
  copyFileSync(busybox, path.join(dir, 'bin/busybox'));
  chmodSync(path.join(dir, 'bin/busybox'), 0o755);
  symlinkSync('busybox', path.join(dir, 'bin/sh'));
  const libs = new Set();
  for (const [file, , dest] of BINARIES) {
    copyFileSync(file, path.join(dir, dest));
    for (const lib of sharedLibraries(file)) libs.add(lib);
  }
  let loader = '';
  for (const lib of libs) {
    const name = path.basename(lib);
    if (name.startsWith('ld-linux')) loader = name;
    copyFileSync(realpathSync(lib), path.join(dir, 'lib', name));
    chmodSync(path.join(dir, 'lib', name), 0o755);
  }
  if (!loader) throw new Error('no ELF loader (ld-linux) found among the libraries');
  for (const [, , dest] of BINARIES) {
    run('patchelf', [
      '--set-interpreter',
      `${TOOLBOX_MOUNT}/lib/${loader}`,
      '--force-rpath',
      '--set-rpath',
      `${TOOLBOX_MOUNT}/lib`,
      path.join(dir, dest),
    ]);
  }
  for (const [dest, file] of Object.entries(SCRIPTS)) {
    writeFileSync(path.join(dir, dest), readFileSync(path.join(HERE, file)), { mode: 0o755 });
  }
}

/**
 * Builds the toolbox under `dest` unless the current one has the same recipe; returns the
 * folder of the current version (`dest/<hash>`).
 */
export function ensureToolbox({ dest, log = () => {} }) {
  const missing = missingPackages();
  if (missing.length > 0) {
    throw new Error(`构建工具箱缺少软件包 (toolbox needs): apt-get install ${missing.join(' ')}`);
  }
  const busybox = staticBusybox();
  const hash = recipeHash(busybox);
  const dir = path.join(dest, hash);
  const current = path.join(dest, 'current');
  if (!existsSync(path.join(dir, '.complete'))) {
    log(`构建容器工具箱 ${dir} (Dropbear + sftp-server + busybox)…`);
    const work = `${dir}.tmp-${process.pid}`;
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    try {
      assemble(work, busybox);
      writeFileSync(path.join(work, '.complete'), `${hash}\n`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(work, dir);
    } catch (err) {
      rmSync(work, { recursive: true, force: true });
      throw err;
    }
  }
  // Readable by every user: the toolbox is mounted into containers whose processes may not be root.
  chmodSync(dest, 0o755);
  chmodSync(dir, 0o755);
  const link = `${current}.tmp-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(hash, link);
  renameSync(link, current);
  return dir;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dest = path.resolve(process.argv[2] ?? '/var/lib/gpucloud/toolbox');
  try {
    console.log(ensureToolbox({ dest, log: (line) => console.log(line) }));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
