// Images like the ones users rent (a CUDA/PyTorch-like Debian with no sshd, a bare static
// busybox, an image whose ENTRYPOINT is a server, a Jupyter image) reached the way users reach
// them: OpenSSH's ssh, scp, sftp and rsync, port forwarding, and Jupyter on its published port.
// The four containers are worked on side by side; one wait at the end shows that every one of
// them stays up.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ContainerInfo__Output, PortBinding } from '@gpucloud/proto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createRequest,
  eventually,
  freeHostPort,
  sleep,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
} from './helpers.js';
import { generateKeyPair, type KeyPair, runCommand, SshTarget } from './ssh-client.js';

type ImageName = 'debian' | 'busybox' | 'server' | 'jupyter';

interface ImageCase {
  name: ImageName;
  /** The session's PATH starts with the image's ENV PATH. */
  pathPrefix: string;
  cudaVersion: string;
  /** The image has bash and rsync (Debian-based). */
  debianTools: boolean;
  /** The image's own command serves HTTP on 8080; for the others the test starts busybox httpd. */
  servesHttp: boolean;
  /** ContainerInfo.jupyter: '' without port 8888; the busybox one exposes 8888 but has no Jupyter. */
  jupyter: '' | 'running' | 'absent';
}

const CONDA_PATH = '/opt/conda/bin:/usr/local/sbin:';
const STD_PATH = '/usr/local/sbin:/usr/local/bin:';
const CASES: ImageCase[] = [
  {
    name: 'debian',
    pathPrefix: CONDA_PATH,
    cudaVersion: '12.4.1',
    debianTools: true,
    servesHttp: false,
    jupyter: '',
  },
  {
    name: 'busybox',
    pathPrefix: STD_PATH,
    cudaVersion: '',
    debianTools: false,
    servesHttp: false,
    jupyter: 'absent',
  },
  {
    name: 'server',
    pathPrefix: STD_PATH,
    cudaVersion: '',
    debianTools: false,
    servesHttp: true,
    jupyter: '',
  },
  {
    name: 'jupyter',
    pathPrefix: CONDA_PATH,
    cudaVersion: '12.4.1',
    debianTools: true,
    servesHttp: false,
    jupyter: 'running',
  },
];
const HTTP_PORT = 8080;
const JUPYTER_PORT = 8888;
const STAYS_UP_MS = 60_000;

/** Within an image's suite the steps run in order; the four suites run side by side. */
const step = it.sequential;

interface Machine {
  info: ContainerInfo__Output;
  ssh: SshTarget;
  password: string;
  ports: PortBinding[];
}

const machines = new Map<ImageName, Machine>();
let t: TestAgent;
let tmp: string;
let key: KeyPair;

const token = () => randomBytes(8).toString('hex');
const files = (name: string, ...parts: string[]) => path.join(tmp, name, ...parts);

/** The body `url` answers with once it answers at all (a forward or a server still starting). */
function bodyOf(url: string, what: string, timeoutMs = 15_000): Promise<string> {
  return eventually(
    () =>
      fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
        (res) => (res.ok ? res.text() : undefined),
        () => undefined,
      ),
    timeoutMs,
    what,
  );
}

beforeAll(async () => {
  // Password logins go through sshpass; a missing one fails here rather than skipping.
  const sshpass = await runCommand('sshpass', ['-V']);
  expect(sshpass.code, 'sshpass (apt-get install sshpass)').toBe(0);
  t = await startTestAgent();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-real-images-'));
  key = await generateKeyPair(tmp);
});

afterAll(async () => {
  for (const m of machines.values()) {
    await unaryCall((cb) =>
      t.client.removeContainer({ containerId: m.info.containerId, force: true }, t.md, cb),
    );
  }
  await t?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe.each(CASES)('the $name image', { concurrent: true }, (c) => {
  const image = inject('testImages')[c.name];
  let m: Machine;

  beforeAll(async () => {
    await fs.mkdir(files(c.name));
    const ports: PortBinding[] = [
      { containerPort: 22, hostPort: await freeHostPort(), protocol: 'PROTOCOL_TCP', name: 'ssh' },
      { containerPort: HTTP_PORT, hostPort: await freeHostPort(), protocol: 'PROTOCOL_TCP', name: 'custom' },
    ];
    if (c.jupyter) {
      ports.push({
        containerPort: JUPYTER_PORT,
        hostPort: await freeHostPort(),
        protocol: 'PROTOCOL_TCP',
        name: 'jupyter',
      });
    }
    const password = `Pw-${token()}`;
    const info = await createRequest(t, {
      spec: testSpec(t, { image, ports }),
      rootPassword: password,
      authorizedKeys: [key.publicKey],
      start: true,
    });
    const sshPort = ports[0]?.hostPort ?? 0;
    m = { info, password, ports, ssh: new SshTarget(sshPort, key, files(c.name, 'known_hosts'), c.name) };
    machines.set(c.name, m);
  });

  const hostPort = (containerPort: number) =>
    m.ports.find((p) => p.containerPort === containerPort)?.hostPort ?? 0;

  step('answers the create once SSH answers: running and reachable', async () => {
    expect(m.info.startError).toBe('');
    expect(m.info.state).toBe('CONTAINER_STATE_RUNNING');
    expect(m.info.reachable).toBe(true);
    const health = (await t.docker.getContainer(m.info.dockerId).inspect()).State.Health;
    expect(m.info.jupyter, `Docker's health log: ${JSON.stringify(health?.Log)}`).toBe(c.jupyter);
  });

  step("lets the key log in as root with the image's environment", async () => {
    const [pathLine = '', cuda, uid] = (await m.ssh.run('echo "$PATH"; echo "$CUDA_VERSION"; id -u')).split(
      '\n',
    );
    expect([pathLine.slice(0, c.pathPrefix.length), cuda, uid], `PATH=${pathLine}`).toEqual([
      c.pathPrefix,
      c.cudaVersion,
      '0',
    ]);
  });

  step("keeps the image's PATH in a login shell", async () => {
    // An interactive login shell on a terminal, as `ssh host` gives.
    const login = await m.ssh.ssh('', ['-tt'], 'echo "P=$PATH"\nexit\n');
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(new RegExp(`P=${c.pathPrefix}`));
    if (c.debianTools) {
      // Debian's /etc/profile resets root's PATH; the image's comes back after it.
      expect(await m.ssh.run('bash -lc \'echo "$PATH"\'')).toMatch(new RegExp(`^${c.pathPrefix}`));
    }
  });

  step(
    'keeps files, host key and access over a stop and start and a reconfigure to another SSH port',
    async () => {
      const hostKey = await m.ssh.hostKey();
      const content = token();
      await m.ssh.run(`echo ${content} > /root/persist.txt`);
      const { containerId } = m.info;

      const stopped: ContainerInfo__Output = await unaryCall((cb) =>
        t.client.stopContainer({ containerId, timeoutSeconds: 5 }, t.md, cb),
      );
      expect(stopped.state).toBe('CONTAINER_STATE_EXITED');
      expect((await m.ssh.ssh('true')).stderr).toMatch(/Connection refused|Connection reset|closed/);
      const started: ContainerInfo__Output = await unaryCall((cb) =>
        t.client.startContainer({ containerId }, t.md, cb),
      );
      expect([started.state, started.reachable, started.startError]).toEqual([
        'CONTAINER_STATE_RUNNING',
        true,
        '',
      ]);
      expect((await m.ssh.run('cat /root/persist.txt')).trim()).toBe(content);

      const oldSsh = new SshTarget(m.ssh.port, key, files(c.name, 'known_hosts'), c.name);
      const newSshPort = await freeHostPort();
      const ports = m.ports.map((p) => (p.name === 'ssh' ? { ...p, hostPort: newSshPort } : p));
      const recreated: ContainerInfo__Output = await unaryCall((cb) =>
        t.client.reconfigureContainer(
          { containerId, setPorts: true, ports, restartIfRunning: true },
          t.md,
          cb,
        ),
      );
      expect(recreated.dockerId).not.toBe(m.info.dockerId);
      expect([recreated.state, recreated.reachable, recreated.startError]).toEqual([
        'CONTAINER_STATE_RUNNING',
        true,
        '',
      ]);
      expect(recreated.jupyter).toBe(c.jupyter);
      expect(recreated.ports.find((p) => p.containerPort === 22)?.hostPort).toBe(newSshPort);
      m.info = recreated;
      m.ports = ports;
      m.ssh.port = newSshPort;
      // The known_hosts entry (by alias, not port) must still match: same host key.
      expect((await m.ssh.run('cat /root/persist.txt')).trim()).toBe(content);
      expect(await m.ssh.hostKey()).toBe(hostKey);
      expect((await oldSsh.ssh('true')).stderr).toMatch(/Connection refused|Connection reset|closed/);
    },
  );

  step('lets the password log in and refuses a wrong one', async () => {
    const good = await m.ssh.sshWithPassword(m.password, 'id -u');
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout.trim()).toBe('0');
    const wrong = await m.ssh.sshWithPassword(`${m.password}x`, 'id -u');
    expect([wrong.code, wrong.stdout]).toEqual([255, '']);
    expect(wrong.stderr).toMatch(/Permission denied/);
  });

  step('copies a file there and back with scp, byte for byte', async () => {
    const sent = randomBytes(300_000);
    await fs.writeFile(files(c.name, 'scp-out.bin'), sent);
    await m.ssh.scp(files(c.name, 'scp-out.bin'), 'root@127.0.0.1:/root/scp.bin');
    expect((await m.ssh.run('wc -c < /root/scp.bin')).trim()).toBe(String(sent.length));
    await m.ssh.scp('root@127.0.0.1:/root/scp.bin', files(c.name, 'scp-back.bin'));
    expect((await fs.readFile(files(c.name, 'scp-back.bin'))).equals(sent)).toBe(true);
  });

  step('puts, lists and gets files with an sftp batch', async () => {
    const sent = randomBytes(100_000);
    await fs.writeFile(files(c.name, 'sftp-out.bin'), sent);
    const out = await m.ssh.sftp(
      [
        'mkdir /root/sftp-dir',
        `put ${files(c.name, 'sftp-out.bin')} /root/sftp-dir/up.bin`,
        'ls -l /root/sftp-dir',
        `get /root/sftp-dir/up.bin ${files(c.name, 'sftp-back.bin')}`,
      ],
      tmp,
    );
    expect(out).toMatch(new RegExp(`${sent.length}\\b.*up\\.bin`));
    expect((await fs.readFile(files(c.name, 'sftp-back.bin'))).equals(sent)).toBe(true);
  });

  // rsync runs on both ends: an image without it says so (a documented limitation).
  it.sequential('syncs a folder with rsync over ssh where the image has rsync, else says it is missing', async () => {
    const from = files(c.name, 'rsync-from');
    if (!c.debianTools) {
      await fs.mkdir(from, { recursive: true });
      await expect(m.ssh.rsync(`${from}/`, 'root@127.0.0.1:/root/rsync-dir/')).rejects.toThrow(
        /rsync: .*not found/,
      );
      return;
    }
    await fs.mkdir(path.join(from, 'sub'), { recursive: true });
    await fs.writeFile(path.join(from, 'a.txt'), 'first\n');
    await fs.writeFile(path.join(from, 'sub', 'b.bin'), randomBytes(50_000));
    await m.ssh.rsync(`${from}/`, 'root@127.0.0.1:/root/rsync-dir/');
    expect((await m.ssh.run('cd /root/rsync-dir && ls a.txt sub/b.bin && cat a.txt')).split('\n')).toEqual([
      'a.txt',
      'sub/b.bin',
      'first',
      '',
    ]);
    const back = files(c.name, 'rsync-back');
    await m.ssh.rsync('root@127.0.0.1:/root/rsync-dir/', `${back}/`);
    expect(await fs.readFile(path.join(back, 'a.txt'), 'utf8')).toBe('first\n');
    expect(
      (await fs.readFile(path.join(back, 'sub', 'b.bin'))).equals(
        await fs.readFile(path.join(from, 'sub', 'b.bin')),
      ),
    ).toBe(true);
  });

  step('serves the custom port, published and through ssh -L', async () => {
    let page = 'gpucloud test server';
    if (!c.servesHttp) {
      // The toolbox's busybox: every image has it. httpd without -f leaves the session.
      page = `served by ${c.name} ${token()}`;
      await m.ssh.run(
        `mkdir -p /tmp/www && echo '${page}' > /tmp/www/index.html && /.gpucloud/bin/busybox httpd -p ${HTTP_PORT} -h /tmp/www`,
      );
    }
    expect(await bodyOf(`http://127.0.0.1:${hostPort(HTTP_PORT)}/`, 'the published port')).toContain(page);
    const localPort = await freeHostPort(30000, 32700);
    const forward = m.ssh.forward(localPort, HTTP_PORT);
    try {
      const body = await bodyOf(`http://127.0.0.1:${localPort}/`, 'the forward').catch((err: unknown) => {
        throw new Error(`${String(err)}; ssh -L: ${forward.output()}`);
      });
      expect(body).toContain(page);
    } finally {
      forward.close();
    }
  });

  if (c.jupyter === 'running')
    step('runs Jupyter on the published 8888 with the password as token', async () => {
      const base = `http://127.0.0.1:${hostPort(JUPYTER_PORT)}`;
      const api = JSON.parse(await bodyOf(`${base}/api`, 'Jupyter')) as { version?: string };
      expect(api.version).toMatch(/^\d+\.\d+/);
      const withToken = await fetch(`${base}/api/contents?token=${encodeURIComponent(m.password)}`);
      expect(withToken.status).toBe(200);
      const wrongToken = await fetch(`${base}/api/contents?token=wrong`);
      expect(wrongToken.status).toBe(403);
    });

  step('logs in with the password ResetPassword set, and no longer with the old one', async () => {
    const next = `Reset-${token()}`;
    const reset = await unaryCall<{ password: string }>((cb) =>
      t.client.resetPassword({ containerId: m.info.containerId, password: next }, t.md, cb),
    );
    expect(reset.password).toBe(next);
    const fresh = await m.ssh.sshWithPassword(next, 'echo in');
    expect([fresh.code, fresh.stdout.trim()]).toEqual([0, 'in']);
    const old = await m.ssh.sshWithPassword(m.password, 'echo in');
    expect([old.code, old.stdout]).toEqual([255, '']);
    expect(old.stderr).toMatch(/Permission denied/);
    m.password = next;
  });
});

it(
  'keeps every container running a minute after it was (re)created, never restarted',
  async () => {
    const since = Math.max(...[...machines.values()].map((m) => Number(m.info.createdUnixMs)));
    await sleep(Math.max(0, since + STAYS_UP_MS - Date.now()));
    for (const { name, jupyter } of CASES) {
      const m = machines.get(name);
      if (!m) throw new Error(`no ${name} container`);
      const info: ContainerInfo__Output = await unaryCall((cb) =>
        t.client.inspectContainer({ containerId: m.info.containerId }, t.md, cb),
      );
      expect([name, info.dockerId, info.state, info.reachable, info.jupyter]).toEqual([
        name,
        m.info.dockerId,
        'CONTAINER_STATE_RUNNING',
        true,
        jupyter,
      ]);
      const docker = await t.docker.getContainer(m.info.dockerId).inspect();
      expect([name, docker.State.Running, docker.RestartCount, docker.State.Health?.Status]).toEqual([
        name,
        true,
        0,
        'healthy',
      ]);
      expect((await m.ssh.run('echo alive')).trim()).toBe('alive');
    }
  },
  STAYS_UP_MS + 60_000,
);
