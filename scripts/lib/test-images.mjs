// Builds the Docker test images that stand in for the official catalogue images (pytorch/pytorch,
// nvidia/cuda, …): a root filesystem whose command is a shell, no sshd, nothing from a container
// registry. Debian rootfs come from debootstrap against the machine's own Debian mirror, the
// busybox ones from Debian's busybox-static on this machine; each is packed as a tarball, cached
// under <dataDir>/test-images keyed by its recipe, and loaded with `docker import`.
//
//   debian   bookworm minbase + rsync, CMD bash, PATH/CUDA_VERSION/WORKDIR like the CUDA images
//   busybox  only a static busybox (no libc, no /etc/passwd), CMD sh
//   server   the busybox rootfs serving /www with `busybox httpd` on port 8080
//   jupyter  the debian rootfs + Debian's classic notebook (jupyter-notebook 6), CMD bash
//
// The jupyter rootfs is the debian tarball unpacked again with the notebook packages installed by
// apt in a chroot (about 1 minute), which is much faster than a second debootstrap (2.5 minutes,
// and its dependency resolver cannot configure python3-zmq et al.). Downloaded .deb files are
// kept in <dataDir>/test-images/debs, shared by debootstrap (--cache-dir) and that apt run.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEST_IMAGES = {
  debian: 'gpucloud-test/debian-bash:local',
  busybox: 'gpucloud-test/busybox-sh:local',
  server: 'gpucloud-test/server:local',
  jupyter: 'gpucloud-test/jupyter:local',
};

const RECIPE_VERSION = '1';
const SUITE = 'bookworm';
const DEBIAN_PACKAGES = ['rsync'];
const JUPYTER_PACKAGES = ['jupyter-notebook', 'python3-notebook'];
const DEFAULT_MIRROR = 'http://deb.debian.org/debian';
const STD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
// Like the pytorch/pytorch images: an extra directory in front of the standard PATH.
const IMAGE_PATH = `/opt/conda/bin:${STD_PATH}`;
const SERVER_PAGE = 'gpucloud test server\n';

// Run on every Debian rootfs before it is packed (argument: the rootfs). Like the official
// images: no apt caches or package lists, no resolv.conf/hostname of the build machine.
const DEBIAN_FINISH = `set -e
r="$1"
rm -f "$r"/var/cache/apt/archives/*.deb "$r"/var/cache/apt/*.bin
rm -rf "$r"/var/lib/apt/lists/*
mkdir -p "$r"/var/lib/apt/lists/partial "$r"/workspace
: > "$r"/etc/resolv.conf
echo localhost > "$r"/etc/hostname
`;

const DEBIAN_CHANGES = [
  `ENV PATH=${IMAGE_PATH}`,
  'ENV CUDA_VERSION=12.4.1 NVIDIA_VISIBLE_DEVICES=all',
  'WORKDIR /workspace',
  'CMD ["bash"]',
];

const RECIPES = {
  debian: {
    rootfs: {
      kind: 'debootstrap',
      suite: SUITE,
      variant: 'minbase',
      include: DEBIAN_PACKAGES,
      finish: DEBIAN_FINISH,
    },
    changes: DEBIAN_CHANGES,
  },
  jupyter: {
    rootfs: { kind: 'apt-install', from: 'debian', install: JUPYTER_PACKAGES, finish: DEBIAN_FINISH },
    changes: DEBIAN_CHANGES,
  },
  busybox: {
    rootfs: { kind: 'busybox', rev: 2, from: 'busybox-static', suite: SUITE },
    changes: [`ENV PATH=${STD_PATH}`, 'CMD ["sh"]'],
  },
  server: {
    rootfs: {
      kind: 'busybox',
      rev: 2,
      from: 'busybox-static',
      suite: SUITE,
      files: { 'www/index.html': SERVER_PAGE },
    },
    changes: [
      `ENV PATH=${STD_PATH}`,
      'ENTRYPOINT ["/bin/busybox"]',
      'CMD ["httpd","-f","-v","-p","8080","-h","/www"]',
      'EXPOSE 8080',
    ],
  },
};

function sha16(...parts) {
  const h = createHash('sha256');
  for (const p of parts) h.update(typeof p === 'string' ? p : JSON.stringify(p)).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** Recipe hash of a rootfs tarball: its own recipe plus, for derived ones, its parent's. */
function rootfsKey(name) {
  const { rootfs } = RECIPES[name];
  return sha16(RECIPE_VERSION, name, rootfs, rootfs.kind === 'apt-install' ? rootfsKey(rootfs.from) : '');
}

function imageKey(name) {
  return sha16(rootfsKey(name), RECIPES[name].changes);
}

function tail(text, max = 4000) {
  const t = String(text).trim();
  return t.length > max ? `…${t.slice(-max)}` : t;
}

/** Runs a command without blocking the event loop (so independent builds overlap). */
function exec(cmd, args, { env, hint } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const keep = (s) => (s.length > 200_000 ? s.slice(-100_000) : s);
    child.stdout.on('data', (d) => {
      out = keep(out + d);
    });
    child.stderr.on('data', (d) => {
      err = keep(err + d);
    });
    child.on('error', (e) =>
      reject(e.code === 'ENOENT' ? new Error(`${cmd} is missing${hint ? `: ${hint}` : ''}`) : e),
    );
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else
        reject(new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal}):\n${tail(`${out}\n${err}`)}`));
    });
  });
}

function which(name) {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const d of dirs) {
    if (d && existsSync(path.join(d, name))) return path.join(d, name);
  }
  return undefined;
}

function requireDebootstrap() {
  const bin = which('debootstrap');
  if (!bin) throw new Error('debootstrap is missing: apt-get install debootstrap');
  if (process.getuid?.() !== 0)
    throw new Error('building the Debian test images needs root (debootstrap, chroot)');
  return bin;
}

/** True when `file` is an ELF executable without a program interpreter (statically linked). */
function isStaticElf(file) {
  const b = readFileSync(file);
  if (b.length < 64 || b.readUInt32BE(0) !== 0x7f454c46) return false;
  const is64 = b[4] === 2;
  const le = b[5] === 1;
  const u16 = (o) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const phoff = is64 ? Number(le ? b.readBigUInt64LE(0x20) : b.readBigUInt64BE(0x20)) : u32(0x1c);
  const phentsize = u16(is64 ? 0x36 : 0x2a);
  const phnum = u16(is64 ? 0x38 : 0x2c);
  for (let i = 0; i < phnum; i++) {
    if (u32(phoff + i * phentsize) === 3 /* PT_INTERP */) return false;
  }
  return true;
}

function findStaticBusybox() {
  for (const p of ['/bin/busybox', '/usr/bin/busybox']) {
    if (!existsSync(p)) continue;
    if (isStaticElf(p)) return p;
    throw new Error(`${p} is dynamically linked: apt-get install busybox-static (it replaces busybox)`);
  }
  throw new Error('busybox (static) is missing: apt-get install busybox-static');
}

/** The Debian mirror apt on this machine uses (deb822 sources first, then sources.list). */
function debianMirror() {
  const usable = (u) => /^(https?|file):\/\//.test(u ?? '');
  try {
    const text = readFileSync('/etc/apt/sources.list.d/debian.sources', 'utf8').replace(/^#.*$/gm, '');
    for (const stanza of text.split(/\n\s*\n/)) {
      const field = (n) =>
        stanza
          .match(new RegExp(`^${n}:[ \\t]*(.+)$`, 'mi'))?.[1]
          .trim()
          .split(/\s+/) ?? [];
      if (!field('Types').includes('deb')) continue;
      // The release itself, not bookworm-security/-updates (another archive or a subset).
      if (!field('Suites').some((s) => !s.includes('-') && !s.includes('/'))) continue;
      const uri = field('URIs').find(usable);
      if (uri) return uri.replace(/\/+$/, '');
    }
  } catch {}
  try {
    for (const line of readFileSync('/etc/apt/sources.list', 'utf8').split('\n')) {
      const m = line.match(/^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/);
      if (m && usable(m[1]) && !m[2].includes('-') && !m[2].includes('/')) return m[1].replace(/\/+$/, '');
    }
  } catch {}
  return DEFAULT_MIRROR;
}

function pidAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Serialises the Debian builds across processes (they share the .deb cache). */
async function withLock(file, log, fn) {
  let told = false;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let holder = 0;
      try {
        holder = Number(readFileSync(file, 'utf8'));
      } catch {}
      if (holder && !pidAlive(holder)) {
        rmSync(file, { force: true });
        continue;
      }
      if (!told && holder !== process.pid) log(`等待进程 ${holder} 完成 Debian 测试镜像的构建…`);
      told = true;
      await sleep(1000);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(file, { force: true });
  }
}

/** Unmounts whatever is still mounted below `dir` (a killed debootstrap leaves /proc, /sys). */
function unmountBelow(dir) {
  let mounts = [];
  try {
    mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[1]?.replace(/\\040/g, ' '))
      .filter((m) => m && (m === dir || m.startsWith(`${dir}/`)));
  } catch {}
  for (const m of mounts.sort((a, b) => b.length - a.length)) {
    if (spawnSync('umount', [m]).status !== 0) spawnSync('umount', ['-l', m]);
  }
}

/** Removes a build directory without ever crossing into a file system mounted inside it. */
function removeWorkDir(dir) {
  if (!existsSync(dir)) return;
  unmountBelow(dir);
  spawnSync('rm', ['-rf', '--one-file-system', dir]);
}

/** Removes temp tarballs and build directories left by processes that are gone. */
function cleanStale(cacheDir) {
  for (const entry of readdirSync(cacheDir)) {
    const tmp = entry.match(/\.tmp-(\d+)$/);
    const work = entry.match(/^work-(\d+)-/);
    const pid = Number((tmp ?? work)?.[1]);
    if (!pid || pidAlive(pid)) continue;
    const full = path.join(cacheDir, entry);
    if (work) removeWorkDir(full);
    else rmSync(full, { force: true });
  }
}

function hardlinkOrCopy(from, to) {
  try {
    linkSync(from, to);
  } catch (e) {
    if (e.code === 'EEXIST') return;
    copyFileSync(from, to);
  }
}

function secondsSince(t0) {
  return `${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

async function packRootfs(rootfs, tarball) {
  const tmp = `${tarball}.tmp-${process.pid}`;
  try {
    await exec('tar', ['-C', rootfs, '--numeric-owner', '--xattrs', '-cf', tmp, '.']);
    renameSync(tmp, tarball);
  } finally {
    rmSync(tmp, { force: true });
  }
}

function busyboxRootfs(rootfs, busybox, files = {}) {
  for (const d of ['bin', 'dev', 'etc', 'proc', 'root', 'sys', 'tmp'])
    mkdirSync(path.join(rootfs, d), { recursive: true });
  chmodSync(path.join(rootfs, 'tmp'), 0o1777);
  chmodSync(path.join(rootfs, 'root'), 0o700);
  copyFileSync(busybox, path.join(rootfs, 'bin/busybox'));
  chmodSync(path.join(rootfs, 'bin/busybox'), 0o755);
  symlinkSync('busybox', path.join(rootfs, 'bin/sh'));
  const r = spawnSync(busybox, ['--list-full'], { encoding: 'utf8' });
  for (const applet of (r.stdout ?? '').split('\n').filter(Boolean)) {
    const dest = path.join(rootfs, applet);
    // Only the bin directories (the list also has /linuxrc, an init for initramfs).
    if (!/^(usr\/)?s?bin\//.test(applet) || existsSync(dest)) continue;
    mkdirSync(path.dirname(dest), { recursive: true });
    symlinkSync('/bin/busybox', dest);
  }
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(rootfs, rel)), { recursive: true });
    writeFileSync(path.join(rootfs, rel), content, { mode: 0o644 });
  }
}

/**
 * Builds (or reuses) the test images on the engine at `dockerHost`. Resolves with TEST_IMAGES.
 * Needs root, debootstrap and busybox-static only when a rootfs is not cached yet.
 */
export async function ensureTestImages({ dockerHost, dataDir, log = console.log }) {
  const env = { ...process.env, DOCKER_HOST: dockerHost };
  const cacheDir = path.join(path.resolve(dataDir), 'test-images');
  const debsDir = path.join(cacheDir, 'debs');
  mkdirSync(debsDir, { recursive: true });
  cleanStale(cacheDir);
  const started = Date.now();
  let built = false;
  const tarballs = new Map();
  const removals = [];

  const tarballPath = (name) => path.join(cacheDir, `${name}-${rootfsKey(name)}.tar`);

  const dropOldTarballs = (name) => {
    const keep = path.basename(tarballPath(name));
    for (const entry of readdirSync(cacheDir)) {
      if (entry !== keep && new RegExp(`^${name}-[0-9a-f]{16}\\.tar$`).test(entry)) {
        rmSync(path.join(cacheDir, entry), { force: true });
      }
    }
  };

  const withWorkDir = async (name, fn) => {
    const work = path.join(cacheDir, `work-${process.pid}-${name}`);
    removeWorkDir(work);
    mkdirSync(work, { recursive: true });
    try {
      return await fn(work);
    } finally {
      // Deleting a rootfs takes seconds: let it overlap the `docker import` that follows.
      unmountBelow(work);
      removals.push(exec('rm', ['-rf', '--one-file-system', work]).catch(() => {}));
    }
  };

  const buildDebian = (tarball) =>
    withWorkDir('debian', async (work) => {
      const debootstrap = requireDebootstrap();
      const mirror = debianMirror();
      const rootfs = path.join(work, 'rootfs');
      const t0 = Date.now();
      log(`debootstrap ${SUITE} (minbase + ${DEBIAN_PACKAGES.join(', ')}) 来自 ${mirror}…`);
      try {
        await exec(debootstrap, [
          '--variant=minbase',
          `--include=${DEBIAN_PACKAGES.join(',')}`,
          `--cache-dir=${debsDir}`,
          SUITE,
          rootfs,
          mirror,
        ]);
      } catch (e) {
        let detail = '';
        try {
          detail = `\n--- debootstrap.log ---\n${tail(readFileSync(path.join(rootfs, 'debootstrap/debootstrap.log'), 'utf8'), 3000)}`;
        } catch {}
        throw new Error(`${e.message}${detail}`);
      }
      // Keep the package lists debootstrap fetched, so the jupyter build needs no `apt-get update`.
      const lists = path.join(debsDir, 'lists');
      rmSync(lists, { recursive: true, force: true });
      mkdirSync(lists);
      for (const f of readdirSync(path.join(rootfs, 'var/lib/apt/lists'))) {
        const from = path.join(rootfs, 'var/lib/apt/lists', f);
        if (statSync(from).isFile()) copyFileSync(from, path.join(lists, f));
      }
      await exec('sh', ['-c', RECIPES.debian.rootfs.finish, 'finish', rootfs]);
      await packRootfs(rootfs, tarball);
      log(`debian rootfs 完成 (${secondsSince(t0)})`);
    });

  const buildJupyter = (tarball, base) =>
    withWorkDir('jupyter', async (work) => {
      const rootfs = path.join(work, 'rootfs');
      const t0 = Date.now();
      log(`jupyter rootfs: debian + apt-get install ${JUPYTER_PACKAGES.join(' ')}…`);
      mkdirSync(rootfs);
      await exec('tar', ['-C', rootfs, '--numeric-owner', '--xattrs', '-xpf', base]);
      copyFileSync('/etc/resolv.conf', path.join(rootfs, 'etc/resolv.conf'));
      const lists = path.join(debsDir, 'lists');
      const aptLists = path.join(rootfs, 'var/lib/apt/lists');
      let haveLists = false;
      if (existsSync(lists)) {
        for (const f of readdirSync(lists)) copyFileSync(path.join(lists, f), path.join(aptLists, f));
        haveLists = readdirSync(lists).some((f) => f.endsWith('_Packages'));
      }
      const archives = path.join(rootfs, 'var/cache/apt/archives');
      const before = new Set(readdirSync(debsDir).filter((f) => f.endsWith('.deb')));
      for (const f of before) hardlinkOrCopy(path.join(debsDir, f), path.join(archives, f));
      const chrootEnv = {
        PATH: STD_PATH,
        HOME: '/root',
        LANG: 'C.UTF-8',
        DEBIAN_FRONTEND: 'noninteractive',
      };
      // No fsync per file (as in the official Debian images): a failed build is thrown away.
      const apt = (...args) =>
        exec('chroot', [rootfs, 'apt-get', '-q', '-y', '-o', 'DPkg::Options::=--force-unsafe-io', ...args], {
          env: chrootEnv,
        });
      await exec('mount', ['-t', 'proc', 'proc', path.join(rootfs, 'proc')]);
      try {
        if (!haveLists) await apt('update');
        const install = () => apt('install', '--no-install-recommends', ...JUPYTER_PACKAGES);
        try {
          await install();
        } catch (e) {
          if (!haveLists) throw e;
          // The saved lists may be older than the mirror (a point release replaced a .deb).
          await apt('update');
          await install();
        }
      } finally {
        unmountBelow(rootfs);
      }
      for (const f of readdirSync(archives)) {
        if (f.endsWith('.deb') && !before.has(f))
          hardlinkOrCopy(path.join(archives, f), path.join(debsDir, f));
      }
      await exec('sh', ['-c', RECIPES.jupyter.rootfs.finish, 'finish', rootfs]);
      await packRootfs(rootfs, tarball);
      log(`jupyter rootfs 完成 (${secondsSince(t0)})`);
    });

  const buildBusybox = (name) => (tarball) =>
    withWorkDir(name, async (work) => {
      const rootfs = path.join(work, 'rootfs');
      busyboxRootfs(rootfs, findStaticBusybox(), RECIPES[name].rootfs.files);
      await packRootfs(rootfs, tarball);
    });

  const builders = {
    debian: buildDebian,
    jupyter: buildJupyter,
    busybox: buildBusybox('busybox'),
    server: buildBusybox('server'),
  };

  /** The cached rootfs tarball of `name`, built once per call when missing. */
  function getTarball(name) {
    if (!tarballs.has(name)) {
      const tarball = tarballPath(name);
      const { kind, from } = RECIPES[name].rootfs;
      tarballs.set(
        name,
        (async () => {
          if (existsSync(tarball)) return tarball;
          // A derived rootfs needs its parent first (outside the lock, which the parent takes).
          const parent = kind === 'apt-install' ? await getTarball(from) : undefined;
          const build = async () => {
            if (existsSync(tarball)) return tarball; // another process built it meanwhile
            built = true;
            await builders[name](tarball, parent);
            dropOldTarballs(name);
            return tarball;
          };
          // Debian builds share the .deb cache: one at a time across processes.
          return kind === 'busybox' ? build() : withLock(path.join(cacheDir, '.debian.lock'), log, build);
        })(),
      );
    }
    return tarballs.get(name);
  }

  async function ensureImage(name) {
    const tag = TEST_IMAGES[name];
    const key = imageKey(name);
    const inspect = spawnSync(
      'docker',
      ['image', 'inspect', '-f', '{{.Id}} {{ index .Config.Labels "gpucloud.recipe" }}', tag],
      { env, encoding: 'utf8' },
    );
    if (inspect.error?.code === 'ENOENT')
      throw new Error('the docker CLI is missing: apt-get install docker.io');
    const [oldId, label] = inspect.status === 0 ? inspect.stdout.trim().split(' ') : [];
    if (label === key) return;
    const tarball = await getTarball(name);
    built = true;
    const t0 = Date.now();
    const changes = [...RECIPES[name].changes, `LABEL gpucloud.recipe=${key}`];
    await exec('docker', ['import', ...changes.flatMap((c) => ['--change', c]), tarball, tag], { env });
    log(`已导入测试镜像 ${tag} (${secondsSince(t0)})`);
    // The previous build of this tag, now untagged; kept when a container still uses it.
    if (oldId) spawnSync('docker', ['image', 'rm', oldId], { env, stdio: 'ignore' });
  }

  const results = await Promise.allSettled(Object.keys(TEST_IMAGES).map((name) => ensureImage(name)));
  await Promise.all(removals);
  const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
  if (failed.length > 0) {
    const err = new Error(
      `building the test images failed:\n${failed.map((e) => e?.message ?? e).join('\n\n')}`,
    );
    err.cause = failed[0];
    throw err;
  }
  if (built) log(`测试镜像就绪 (${secondsSince(started)})`);
  return { ...TEST_IMAGES };
}

// By hand: DOCKER_HOST=unix:///work/main/.data/docker/docker.sock node scripts/lib/test-images.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  const dockerHost = process.env.DOCKER_HOST;
  if (!dockerHost) {
    console.error('DOCKER_HOST is not set (e.g. unix:///work/main/.data/docker/docker.sock)');
    process.exit(2);
  }
  const dataDir = fileURLToPath(new URL('../../.data', import.meta.url));
  const t0 = Date.now();
  ensureTestImages({ dockerHost, dataDir, log: (line) => console.log(`[test-images] ${line}`) }).then(
    (images) => {
      for (const [name, tag] of Object.entries(images)) console.log(`${name.padEnd(8)} ${tag}`);
      console.log(`done in ${secondsSince(t0)}`);
    },
    (err) => {
      console.error(err.message);
      process.exitCode = 1;
    },
  );
}
