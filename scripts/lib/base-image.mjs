// Builds the platform's local base image without any registry: busybox (static) for the
// userland, OpenSSH's sshd and ssh-keygen with the shared libraries they need, copied from
// this machine, packed as a tarball and loaded with `docker import`. Containers of this image
// run sshd in the foreground, so a rented container is reachable over SSH like on a real host.
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
const RECIPE_VERSION = '4';

// Debian's static busybox has no chpasswd applet; this keeps chpasswd's interface
// (`user:password` lines on stdin) so the agent treats this image like any other.
const CHPASSWD_SCRIPT = `#!/bin/sh
set -e
while IFS= read -r line; do
  user="\${line%%:*}"
  pass="\${line#*:}"
  [ -n "$user" ] || continue
  hash=$(printf '%s\\n' "$pass" | mkpasswd -m sha512 -P 0)
  grep -q "^$user:" /etc/shadow || { echo "chpasswd: unknown user $user" >&2; exit 1; }
  sed -i "s|^$user:[^:]*:|$user:$hash:|" /etc/shadow
done
`;

const INIT_SCRIPT = `#!/bin/sh
# gpucloud base image init: host keys, then sshd in the foreground (logs to stderr).
mkdir -p /run/sshd /root/.ssh && chmod 700 /root/.ssh
[ -f /etc/ssh/ssh_host_ed25519_key ] || ssh-keygen -A >/dev/null
echo "[gpucloud] container $(hostname) ready: sshd listening on port 22"
exec /usr/sbin/sshd -D -e
`;

const SSHD_CONFIG = `Port 22
PermitRootLogin yes
PasswordAuthentication yes
PubkeyAuthentication yes
KbdInteractiveAuthentication no
UsePAM no
PrintMotd no
PidFile /run/sshd.pid
Subsystem sftp internal-sftp
`;

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

function sharedLibs(binary) {
  const out = run('ldd', [binary]);
  const libs = new Set();
  for (const line of out.split('\n')) {
    const m = line.match(/=>\s+(\/\S+)/) ?? line.match(/^\s+(\/\S+)\s+\(/);
    if (m?.[1]) libs.add(m[1]);
  }
  return [...libs];
}

function copyWithParents(file, rootfs) {
  const real = file;
  const dest = path.join(rootfs, real);
  mkdirSync(path.dirname(dest), { recursive: true });
  cpSync(real, dest, { dereference: true });
}

/** Builds (or reuses) the image on the engine at `dockerHost`. Returns the image reference. */
export function ensureBaseImage({ dockerHost, log = console.log, tag = BASE_IMAGE }) {
  const env = { ...process.env, DOCKER_HOST: dockerHost };
  for (const need of ['/usr/sbin/sshd', '/usr/bin/ssh-keygen']) {
    if (!existsSync(need)) throw new Error(`${need} is missing: apt-get install openssh-server`);
  }
  const busybox = findBusybox();
  const fingerprint = createHash('sha256')
    .update(RECIPE_VERSION + INIT_SCRIPT + SSHD_CONFIG + CHPASSWD_SCRIPT)
    .update(readFileSync('/usr/sbin/sshd'))
    .update(readFileSync(busybox))
    .digest('hex')
    .slice(0, 16);
  const existing = spawnSync(
    'docker',
    ['image', 'inspect', '-f', '{{ index .Config.Labels "gpucloud.recipe" }}', tag],
    { env, encoding: 'utf8' },
  );
  if (existing.status === 0 && existing.stdout.trim() === fingerprint) return tag;

  log(`构建本地基础镜像 ${tag} (busybox + OpenSSH)…`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-image-'));
  const rootfs = path.join(work, 'rootfs');
  try {
    for (const d of [
      'bin',
      'sbin',
      'usr/bin',
      'usr/sbin',
      'usr/local/bin',
      'etc/ssh',
      'root/.ssh',
      'run/sshd',
      'var/empty',
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
    chmodSync(path.join(rootfs, 'root/.ssh'), 0o700);
    cpSync(busybox, path.join(rootfs, 'bin/busybox'));
    const applets = run(busybox, ['--list-full']).split('\n').filter(Boolean);
    for (const applet of applets) {
      const dest = path.join(rootfs, applet);
      if (existsSync(dest) || applet === 'bin/busybox') continue;
      mkdirSync(path.dirname(dest), { recursive: true });
      symlinkSync('/bin/busybox', dest);
    }
    for (const bin of ['/usr/sbin/sshd', '/usr/bin/ssh-keygen']) {
      copyWithParents(bin, rootfs);
      for (const lib of sharedLibs(bin)) copyWithParents(lib, rootfs);
    }
    writeFileSync(
      path.join(rootfs, 'etc/passwd'),
      'root:x:0:0:root:/root:/bin/sh\nsshd:x:100:65534:sshd:/run/sshd:/bin/false\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n',
    );
    writeFileSync(
      path.join(rootfs, 'etc/shadow'),
      'root:*:19000:0:99999:7:::\nsshd:*:19000:0:99999:7:::\nnobody:*:19000:0:99999:7:::\n',
      { mode: 0o600 },
    );
    writeFileSync(path.join(rootfs, 'etc/group'), 'root:x:0:\nnogroup:x:65534:\n');
    writeFileSync(path.join(rootfs, 'etc/shells'), '/bin/sh\n/bin/ash\n');
    writeFileSync(
      path.join(rootfs, 'etc/profile'),
      'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nexport PS1="root@\\h:\\w# "\ncd /root 2>/dev/null\n',
    );
    writeFileSync(path.join(rootfs, 'etc/ssh/sshd_config'), SSHD_CONFIG);
    writeFileSync(path.join(rootfs, 'usr/local/bin/gpucloud-init'), INIT_SCRIPT, { mode: 0o755 });
    writeFileSync(path.join(rootfs, 'usr/sbin/chpasswd'), CHPASSWD_SCRIPT, { mode: 0o755 });
    const tarball = path.join(work, 'rootfs.tar');
    run('tar', ['-C', rootfs, '--numeric-owner', '--owner=0', '--group=0', '-cf', tarball, '.']);
    run(
      'docker',
      [
        'import',
        '--change',
        'CMD ["/usr/local/bin/gpucloud-init"]',
        '--change',
        'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        '--change',
        'WORKDIR /root',
        '--change',
        'EXPOSE 22',
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
