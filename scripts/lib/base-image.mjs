// Builds the platform's local base image without any registry: a root filesystem of a static
// busybox and nothing else (no libc, no sshd), packed as a tarball and loaded with `docker
// import`, whose command is a bare `sh` like the official images' `bash`. SSH comes from the
// agent's toolbox, as for every image.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const BASE_IMAGE = 'gpucloud/base:local';
const RECIPE_VERSION = '5';

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

function findBusybox() {
  for (const p of ['/bin/busybox', '/usr/bin/busybox']) {
    if (existsSync(p) && run('sh', ['-c', `file -L ${p} 2>/dev/null || true`]).includes('dynamically'))
      continue;
    if (existsSync(p)) return p;
  }
  throw new Error('busybox (static) is missing: apt-get install busybox-static');
}

/** Builds (or reuses) the image on the engine at `dockerHost`. Returns the image reference. */
export function ensureBaseImage({ dockerHost, log = console.log, tag = BASE_IMAGE }) {
  const env = { ...process.env, DOCKER_HOST: dockerHost };
  const busybox = findBusybox();
  const fingerprint = createHash('sha256')
    .update(RECIPE_VERSION)
    .update(readFileSync(busybox))
    .digest('hex')
    .slice(0, 16);
  const existing = spawnSync(
    'docker',
    ['image', 'inspect', '-f', '{{ index .Config.Labels "gpucloud.recipe" }}', tag],
    { env, encoding: 'utf8' },
  );
  if (existing.status === 0 && existing.stdout.trim() === fingerprint) return tag;

  log(`构建本地基础镜像 ${tag} (busybox)…`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-image-'));
  const rootfs = path.join(work, 'rootfs');
  try {
    for (const d of [
      'etc',
      'bin',
      'sbin',
      'usr/bin',
      'usr/sbin',
      'usr/local/bin',
      'root',
      'var/log',
      'tmp',
      'proc',
      'sys',
      'dev',
      'home',
      'workspace',
    ]) {
      mkdirSync(path.join(rootfs, d), { recursive: true });
    }
    chmodSync(path.join(rootfs, 'tmp'), 0o1777);
    chmodSync(path.join(rootfs, 'root'), 0o700);
    cpSync(busybox, path.join(rootfs, 'bin/busybox'));
    const applets = run(busybox, ['--list-full']).split('\n').filter(Boolean);
    for (const applet of applets) {
      const dest = path.join(rootfs, applet);
      if (existsSync(dest) || applet === 'bin/busybox') continue;
      mkdirSync(path.dirname(dest), { recursive: true });
      symlinkSync('/bin/busybox', dest);
    }
    writeFileSync(
      path.join(rootfs, 'etc/passwd'),
      'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n',
    );
    writeFileSync(
      path.join(rootfs, 'etc/shadow'),
      'root:*:19000:0:99999:7:::\nnobody:*:19000:0:99999:7:::\n',
      { mode: 0o600 },
    );
    writeFileSync(path.join(rootfs, 'etc/group'), 'root:x:0:\nnogroup:x:65534:\n');
    writeFileSync(path.join(rootfs, 'etc/shells'), '/bin/sh\n/bin/ash\n');
    writeFileSync(
      path.join(rootfs, 'etc/profile'),
      'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nexport PS1="root@\\h:\\w# "\ncd /root 2>/dev/null\n',
    );
    const tarball = path.join(work, 'rootfs.tar');
    run('tar', ['-C', rootfs, '--numeric-owner', '--owner=0', '--group=0', '-cf', tarball, '.']);
    run(
      'docker',
      [
        'import',
        '--change',
        'CMD ["sh"]',
        '--change',
        'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        '--change',
        'WORKDIR /root',
        '--change',
        `LABEL gpucloud.recipe=${fingerprint}`,
        tarball,
        tag,
      ],
      { env },
    );
    return tag;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
