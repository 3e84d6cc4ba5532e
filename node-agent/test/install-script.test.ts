// deploy/agent/install.sh run for real into a temporary root (GPUCLOUD_INSTALL_ROOT), against
// the test Docker engine; only systemctl and npm are replaced by recorders, since the test has
// no systemd and installs no packages.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, lstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AgentBundle, buildAgentBundle } from '../../control-plane/src/modules/fleet/bundle.js';
import { servedInstallScript } from '../../control-plane/src/modules/fleet/install-routes.js';
import { configFromCli } from '../src/config.js';
import { type StandInControlPlane, startStandInControlPlane } from './platform-pki.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = path.join(REPO, 'deploy/agent/install.sh');
const fixture = (name: string) => path.join(REPO, 'node-agent/test/fixtures/nvidia-smi', name);
const T4_UUID = 'GPU-3f2a1b7c-0000-0000-0000-000000000000';
const PROBE_SEES_GPU0 = `GPU 0: Tesla T4 (UUID: ${T4_UUID})`;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

describe('deploy/agent/install.sh', () => {
  let work: string;
  let stubs: string;

  const run = (root: string, args: string[], env: Record<string, string> = {}): Run => {
    const result = spawnSync('bash', [SCRIPT, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GPUCLOUD_INSTALL_ROOT: root,
        SYSTEMCTL: path.join(stubs, 'systemctl'),
        NPM: path.join(stubs, 'npm'),
        DOCKER_HOST: inject('dockerHost'),
        RECORD: path.join(root, 'calls.log'),
        ...env,
      },
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
  const calls = (root: string) => (existsSync(path.join(root, 'calls.log')) ? read(root, 'calls.log') : '');
  const newRoot = async (name: string) => {
    const root = path.join(work, name);
    await fs.mkdir(root);
    return root;
  };

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-install-'));
    stubs = path.join(work, 'stubs');
    await fs.mkdir(stubs);
    // Recorders: what the script asked systemd and npm to do, in order.
    await fs.writeFile(path.join(stubs, 'systemctl'), '#!/bin/sh\necho "systemctl $*" >> "$RECORD"\n', {
      mode: 0o755,
    });
    await fs.writeFile(path.join(stubs, 'npm'), '#!/bin/sh\necho "npm $* in $PWD" >> "$RECORD"\n', {
      mode: 0o755,
    });
    // A GPU host's tools, printing what a Tesla T4 host with toolkit 1.16.1 printed.
    const gpuBin = path.join(work, 'gpu-bin');
    await fs.mkdir(gpuBin);
    await fs.writeFile(
      path.join(gpuBin, 'nvidia-smi'),
      [
        '#!/bin/sh',
        'case "$*" in',
        `  -L) echo "${PROBE_SEES_GPU0}" ;;`,
        `  *--query-gpu=uuid*) echo "${T4_UUID}" ;;`,
        `  *) cat '${fixture('tesla-t4__580.82.07__nvidia-smi.txt')}' ;;`,
        'esac',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    // Docker on that host, recorded: `info` lists $FAKE_DISCOVERED as the discovered devices,
    // `import` keeps the list of the image's files, `run` prints what the probe container saw.
    await fs.writeFile(
      path.join(stubs, 'docker'),
      [
        '#!/bin/sh',
        'echo "docker $*" >> "$RECORD"',
        'case "$1" in',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
        '  info) [ "$2" = --format ] && printf "%s\\n" "${FAKE_DISCOVERED:-null}"; exit 0 ;;',
        '  import) tar -t > "$RECORD.import"; exit 0 ;;',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
        '  run) printf "%s\\n" "$FAKE_PROBE_OUTPUT"; exit "${FAKE_PROBE_STATUS:-0}" ;;',
        'esac',
        'exit 0',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    await fs.writeFile(
      path.join(gpuBin, 'nvidia-ctk'),
      `#!/bin/sh\ncat '${fixture('nvidia-ctk__1.16.1__version.txt')}'\n`,
      { mode: 0o755 },
    );
  });
  afterAll(async () => {
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('installs: code, config, token and unit; enables and starts the service; safe to run again', async () => {
    const root = await newRoot('host');
    const first = run(root, [
      '--public-host',
      'gpu1.example.com',
      '--node-name',
      'gpu1',
      '--simulate-gpus',
      '8xRTX4090',
      '--tls-cert',
      '/etc/gpucloud/tls/agent.crt',
      '--tls-key',
      '/etc/gpucloud/tls/agent.key',
    ]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);

    const config = JSON.parse(read(root, 'etc/gpucloud/agent.json'));
    expect(config).toEqual({
      listen: '0.0.0.0:50051',
      'public-host': 'gpu1.example.com',
      'port-range': '20000-29999',
      'volume-root': '/var/lib/gpucloud/volumes',
      'toolbox-dir': '/var/lib/gpucloud/toolbox',
      'node-name': 'gpu1',
      'simulate-gpus': '8xRTX4090',
      'tls-cert': '/etc/gpucloud/tls/agent.crt',
      'tls-key': '/etc/gpucloud/tls/agent.key',
    });
    // The container toolbox, built from this machine's Debian packages.
    expect(existsSync(path.join(root, 'var/lib/gpucloud/toolbox/current/bin/dropbear'))).toBe(true);
    const envFile = read(root, 'etc/gpucloud/agent.env');
    const token = /^AGENT_TOKEN=([0-9a-f]{48})\n$/.exec(envFile)?.[1] ?? '';
    expect(token).not.toBe('');
    expect(statSync(path.join(root, 'etc/gpucloud/agent.env')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(root, 'etc/gpucloud')).mode & 0o777).toBe(0o700);
    // The agent itself accepts the file it will be started with.
    const parsed = configFromCli({
      argv: ['--config', path.join(root, 'etc/gpucloud/agent.json')],
      env: { AGENT_TOKEN: token },
    });
    expect(parsed !== 'help' && parsed.tls).toEqual({
      certFile: '/etc/gpucloud/tls/agent.crt',
      keyFile: '/etc/gpucloud/tls/agent.key',
    });

    expect(read(root, 'etc/systemd/system/gpucloud-agent.service')).toBe(
      readFileSync(path.join(REPO, 'deploy/agent/gpucloud-agent.service'), 'utf8'),
    );
    expect(existsSync(path.join(root, 'opt/gpucloud/node-agent/src/main.ts'))).toBe(true);
    expect(existsSync(path.join(root, 'opt/gpucloud/proto/agent/v1/agent.proto'))).toBe(true);
    expect(existsSync(path.join(root, 'opt/gpucloud/node-agent/test'))).toBe(false);
    const pkg = JSON.parse(read(root, 'opt/gpucloud/package.json'));
    expect(pkg.workspaces).toEqual(['proto', 'node-agent']);
    expect(pkg.devDependencies).toBeUndefined();
    expect(existsSync(path.join(root, 'var/lib/gpucloud/volumes'))).toBe(true);
    const once = [
      `npm install --omit=dev --no-audit --no-fund in ${path.join(root, 'opt/gpucloud')}`,
      'systemctl daemon-reload',
      'systemctl enable gpucloud-agent',
      'systemctl restart gpucloud-agent',
    ];
    expect(calls(root).trim().split('\n')).toEqual(once);
    expect(first.stdout).toContain('gpu1.example.com:50051');
    expect(first.stdout).toContain(token);

    // An upgrade without options: same token, same settings, the service restarted again.
    const second = run(root, []);
    expect(second.status).toBe(0);
    expect(read(root, 'etc/gpucloud/agent.env')).toBe(envFile);
    expect(JSON.parse(read(root, 'etc/gpucloud/agent.json'))).toEqual(config);
    expect(calls(root).trim().split('\n')).toEqual([...once, ...once]);

    // A setting given again replaces only itself.
    expect(run(root, ['--port-range', '31000-31999']).status).toBe(0);
    expect(JSON.parse(read(root, 'etc/gpucloud/agent.json'))).toEqual({
      ...config,
      'port-range': '31000-31999',
    });
    expect(read(root, 'etc/gpucloud/agent.env')).toBe(envFile);

    // Uninstall: code and unit go; token, config and the users' volumes stay.
    const removed = run(root, ['--uninstall']);
    expect(removed.status).toBe(0);
    expect(existsSync(path.join(root, 'opt/gpucloud'))).toBe(false);
    expect(existsSync(path.join(root, 'etc/systemd/system/gpucloud-agent.service'))).toBe(false);
    expect(read(root, 'etc/gpucloud/agent.env')).toBe(envFile);
    expect(existsSync(path.join(root, 'var/lib/gpucloud/volumes'))).toBe(true);
    expect(calls(root)).toContain('systemctl disable --now gpucloud-agent');
    // Four runs of the script: a loaded machine (the file's other tests build a bundle) needs time.
  }, 180_000);

  it('refuses when Docker is missing or its engine is not running, writing nothing', async () => {
    const root = await newRoot('no-docker');
    const missing = run(root, ['--simulate-gpus', '1xT4'], { DOCKER: path.join(work, 'no-such-docker') });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/Docker is not installed/);
    const stopped = run(root, ['--simulate-gpus', '1xT4'], {
      DOCKER_HOST: `unix://${path.join(work, 'no-engine.sock')}`,
    });
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/Docker engine is not running/);
    expect(await fs.readdir(root)).toEqual([]);
  });

  it('on a GPU host, refuses without the NVIDIA driver and warns about an unsafe toolkit', async () => {
    const root = await newRoot('gpu-host');
    // The PATH without any folder that holds an nvidia-smi (a developer's GPU machine).
    const withoutDriver = (process.env.PATH ?? '')
      .split(':')
      .filter((dir) => !existsSync(path.join(dir, 'nvidia-smi')))
      .join(':');
    const noDriver = run(root, ['--public-host', 'gpu2.example.com'], { PATH: withoutDriver });
    expect(noDriver.status).toBe(1);
    expect(noDriver.stderr).toMatch(/nvidia-smi not found/);
    expect(await fs.readdir(root)).toEqual([]);

    const gpuHost = {
      PATH: `${path.join(work, 'gpu-bin')}:${process.env.PATH ?? ''}`,
      DOCKER: path.join(stubs, 'docker'),
      FAKE_PROBE_OUTPUT: PROBE_SEES_GPU0,
      TOOLKIT_CONFIG: path.join(work, 'no-config.toml'),
    };
    const oldToolkit = run(root, ['--public-host', 'gpu2.example.com'], gpuHost);
    expect(oldToolkit.status, oldToolkit.stderr).toBe(0);
    expect(oldToolkit.stderr).toMatch(
      /Toolkit nvidia-ctk 1\.16\.1 is older than 1\.19\.1: the node will be marked unsafe/,
    );
    expect(JSON.parse(read(root, 'etc/gpucloud/agent.json'))).not.toHaveProperty('simulate-gpus');
    // The probe container: GPU 0 by UUID through the legacy hook, as the agent asks Docker.
    expect(calls(root)).toContain(
      `docker run --rm --gpus device=${T4_UUID} -e NVIDIA_VISIBLE_DEVICES=${T4_UUID} -e NVIDIA_DRIVER_CAPABILITIES=compute,utility gpucloud/gpu-probe:local nvidia-smi -L`,
    );
    expect(calls(root)).toContain('docker rmi gpucloud/gpu-probe:local');
    // Its image: the host's busybox, made here (nothing pulled).
    expect(read(root, 'calls.log.import')).toMatch(/^\.\/bin\/busybox$/m);
  });

  it('on a GPU host, uses CDI where Docker lists the GPUs and keeps a floor given', async () => {
    const root = await newRoot('gpu-cdi');
    const result = run(root, ['--public-host', 'gpu3.example.com', '--min-toolkit-version', '1.16.1'], {
      PATH: `${path.join(work, 'gpu-bin')}:${process.env.PATH ?? ''}`,
      DOCKER: path.join(stubs, 'docker'),
      FAKE_PROBE_OUTPUT: PROBE_SEES_GPU0,
      FAKE_DISCOVERED: `[{"Source":"cdi","ID":"nvidia.com/gpu=0"},{"Source":"cdi","ID":"nvidia.com/gpu=${T4_UUID}"}]`,
      TOOLKIT_CONFIG: path.join(work, 'no-config.toml'),
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe(''); // 1.16.1 is not below the floor given
    expect(calls(root)).toContain(
      `docker run --rm --device nvidia.com/gpu=${T4_UUID} -e NVIDIA_VISIBLE_DEVICES=${T4_UUID}`,
    );
    expect(JSON.parse(read(root, 'etc/gpucloud/agent.json'))['min-toolkit-version']).toBe('1.16.1');
  });

  it('on a GPU host, stops when the probe container does not see exactly GPU 0, writing nothing', async () => {
    const root = await newRoot('gpu-probe-fails');
    const record = path.join(work, 'probe-fails.log');
    const base = {
      PATH: `${path.join(work, 'gpu-bin')}:${process.env.PATH ?? ''}`,
      DOCKER: path.join(stubs, 'docker'),
      RECORD: record,
      TOOLKIT_CONFIG: path.join(work, 'no-config.toml'),
    };
    const every = run(root, ['--public-host', 'gpu4.example.com'], {
      ...base,
      FAKE_PROBE_OUTPUT: `${PROBE_SEES_GPU0}\nGPU 1: Tesla T4 (UUID: GPU-3f2a1b7c-0000-0000-0000-000000000001)`,
    });
    expect(every.status).toBe(1);
    expect(every.stderr).toMatch(/did not see exactly GPU 0 \(GPU-3f2a1b7c-0000-0000-0000-000000000000\)/);
    expect(every.stderr).toContain('GPU 1: Tesla T4');
    // Docker's answer where no toolkit is registered (moby's nvidia device driver missing).
    const none = run(root, ['--public-host', 'gpu4.example.com'], {
      ...base,
      FAKE_PROBE_OUTPUT:
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
      FAKE_PROBE_STATUS: '125',
    });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/could not select device driver/);
    // A toolkit in CDI mode with no CDI devices listed: the agent would refuse GPU work.
    const config = path.join(work, 'cdi-mode.toml');
    await fs.writeFile(config, '[nvidia-container-runtime]\nlog-level = "info"\nmode = "cdi"\n');
    const cdi = run(root, ['--public-host', 'gpu4.example.com'], {
      ...base,
      FAKE_PROBE_OUTPUT: PROBE_SEES_GPU0,
      TOOLKIT_CONFIG: config,
    });
    expect(cdi.status).toBe(1);
    expect(cdi.stderr).toMatch(/CDI mode .* nvidia-ctk cdi generate --output=\/etc\/cdi\/nvidia\.yaml/);
    expect(await fs.readdir(root)).toEqual([]);
  });
});

// --join: the script as the control plane serves it, piped into bash as an operator would
// (`curl -fsSL <cp>/install/agent.sh | bash -s -- --join <token>`), downloading a real bundle
// built by the control plane's bundle.ts from a local server that also stands in for
// POST /api/agent/join (test/platform-pki.ts). Only systemctl is replaced.
describe('deploy/agent/install.sh --join', () => {
  let work: string;
  let stubs: string;
  let bundle: AgentBundle;
  let cp: StandInControlPlane;
  const downloads: string[] = [];

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-install-join-'));
    stubs = path.join(work, 'stubs');
    await fs.mkdir(stubs);
    await fs.writeFile(path.join(stubs, 'systemctl'), '#!/bin/sh\necho "systemctl $*" >> "$RECORD"\n', {
      mode: 0o755,
    });
    bundle = await buildAgentBundle({ outDir: path.join(work, 'bundle'), toolboxDir: inject('toolboxDir') });
    cp = await startStandInControlPlane({
      routes: (req, res, url) => {
        if (req.method !== 'GET' || !req.url?.startsWith('/install/')) return false;
        downloads.push(req.url);
        if (req.url === '/install/agent.sh') {
          res.writeHead(200, { 'content-type': 'text/x-shellscript' });
          res.end(servedInstallScript(url));
        } else if (req.url === '/install/agent-bundle.sha256') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(`${bundle.sha256}  ${bundle.fileName}\n`);
        } else if (req.url === '/install/agent-bundle.tar.gz') {
          res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bundle.size });
          createReadStream(bundle.path).pipe(res);
        } else {
          res.writeHead(404).end();
        }
        return true;
      },
    });
  }, 240_000);
  afterAll(async () => {
    await cp?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  /** `curl -fsSL <cp>/install/agent.sh | bash -s -- <args>` with the install root and stubs. */
  const pipeInstall = (root: string, args: string[], env: Record<string, string> = {}) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        'bash',
        ['-c', `curl -fsSL "$CP/install/agent.sh" | bash -s -- "$@"`, 'install', ...args],
        {
          env: {
            ...process.env,
            CP: cp.url,
            GPUCLOUD_INSTALL_ROOT: root,
            SYSTEMCTL: path.join(stubs, 'systemctl'),
            DOCKER_HOST: inject('dockerHost'),
            RECORD: path.join(root, 'calls.log'),
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });

  it('downloads and checks the bundle, joins, writes the settings and the unit, starts the service', async () => {
    const root = path.join(work, 'host');
    await fs.mkdir(root);
    const token = cp.token();
    const result = await pipeInstall(root, [
      '--join',
      token,
      '--simulate-gpus',
      '2xA100',
      '--public-host',
      'gpu9.example.com',
      '--node-name',
      'gpu9',
      '--listen',
      '0.0.0.0:34550',
    ]);
    expect(result.status, result.stderr).toBe(0);
    // The served script's default control plane is the server it came from: plain http here.
    expect(result.stderr).toMatch(/plain http/);
    expect(downloads).toEqual([
      '/install/agent.sh',
      '/install/agent-bundle.sha256',
      '/install/agent-bundle.tar.gz',
    ]);
    expect(result.stdout).toContain('node_id=');
    expect(cp.joins.at(-1)).toEqual({
      token,
      node_name: 'gpu9',
      public_host: 'gpu9.example.com',
      grpc_port: 34550,
      csrCommonName: 'gpu9',
    });

    // The bundle: unpacked under versions/<version>-<build>, `current` pointing at it.
    const home = path.join(root, 'opt/gpucloud/agent');
    const versionDir = `${bundle.version}-${bundle.build}`;
    expect(lstatSync(path.join(home, 'current')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(home, 'current'))).toBe(`versions/${versionDir}`);
    expect(JSON.parse(read(path.join(home, 'current/VERSION')))).toEqual({
      version: bundle.version,
      build: bundle.build,
      protocol: 1,
    });
    // The unpacked agent runs, on the Node.js it brought.
    const version = spawnSync(path.join(home, 'current/bin/gpucloud-agent'), ['--version'], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin' },
    });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(`gpucloud-agent ${bundle.version} build ${bundle.build} protocol 1`);
    expect(existsSync(path.join(home, 'current/toolbox/bin/dropbear'))).toBe(true);

    // Settings: the final paths, the platform TLS from the join, the bundle's toolbox and install.
    const config = JSON.parse(read(path.join(root, 'etc/gpucloud/agent.json')));
    expect(config).toEqual({
      listen: '0.0.0.0:34550',
      'public-host': 'gpu9.example.com',
      'port-range': '20000-29999',
      'volume-root': '/var/lib/gpucloud/volumes',
      'toolbox-dir': '/opt/gpucloud/agent/current/toolbox',
      'node-name': 'gpu9',
      'simulate-gpus': '2xA100',
      'install-dir': '/opt/gpucloud/agent',
      'tls-cert': '/etc/gpucloud/tls/agent.crt',
      'tls-key': '/etc/gpucloud/tls/agent.key',
      'tls-ca': '/etc/gpucloud/tls/ca.crt',
      'tls-mode': 'platform',
      'control-plane-url': cp.url,
    });
    expect(read(path.join(root, 'etc/gpucloud/tls/ca.crt'))).toBe(cp.ca.pem);
    expect(statSync(path.join(root, 'etc/gpucloud/tls/agent.key')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(root, 'etc/gpucloud/agent.env')).mode & 0o777).toBe(0o600);
    const nodeToken = /^AGENT_TOKEN=([0-9a-f]{48})$/m.exec(
      read(path.join(root, 'etc/gpucloud/agent.env')),
    )?.[1];
    expect(nodeToken).toBeTruthy();
    const unit = read(path.join(root, 'etc/systemd/system/gpucloud-agent.service'));
    expect(unit).toContain(
      'ExecStart=/opt/gpucloud/agent/current/bin/gpucloud-agent --config /etc/gpucloud/agent.json',
    );
    expect(unit).toContain('Restart=always');
    expect(read(path.join(root, 'calls.log')).trim().split('\n')).toEqual([
      'systemctl daemon-reload',
      'systemctl enable gpucloud-agent',
      'systemctl restart gpucloud-agent',
    ]);

    // The same token again: the control plane refuses it, the script says so and fails.
    const again = await pipeInstall(root, ['--join', token, '--simulate-gpus', '2xA100']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('加入令牌无效或已过期');
  }, 180_000);

  it('refuses a bundle that does not match its checksum, installing nothing', async () => {
    const root = path.join(work, 'bad-sum');
    await fs.mkdir(root);
    // A server whose .sha256 names another digest.
    const bad = await startStandInControlPlane({
      routes: (req, res, url) => {
        if (req.url === '/install/agent.sh') res.end(servedInstallScript(url));
        else if (req.url === '/install/agent-bundle.sha256')
          res.end(`${'0'.repeat(64)}  ${bundle.fileName}\n`);
        else if (req.url === '/install/agent-bundle.tar.gz') createReadStream(bundle.path).pipe(res);
        else return false;
        return true;
      },
    });
    try {
      const result = await pipeInstall(root, ['--join', bad.token(), '--simulate-gpus', '1xT4'], {
        CP: bad.url,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/does not match its SHA-256/);
      expect(bad.joins).toEqual([]);
      expect(existsSync(path.join(root, 'opt'))).toBe(false);
      expect(existsSync(path.join(root, 'etc/gpucloud/agent.json'))).toBe(false);
    } finally {
      await bad.close();
    }
  }, 120_000);

  const read = (file: string) => readFileSync(file, 'utf8');
});
