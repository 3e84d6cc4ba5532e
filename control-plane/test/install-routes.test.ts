// GET /install/*: the join script and the agent bundle, served without a session, never swallowed
// by the console's client-side routes (a console is served here too).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAgentBundle, bundleSettings } from '../src/modules/fleet/bundle.js';
import { servedInstallScript } from '../src/modules/fleet/install-routes.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestControlPlane } from './harness.js';

describe('GET /install/*', () => {
  let work: string;
  let cp: RunningControlPlane | undefined;

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-install-routes-'));
    // The bundle of this test process goes to a folder of its own (read on the first build).
    process.env.AGENT_BUNDLE_DIR = path.join(work, 'bundle');
    const webDist = path.join(work, 'web');
    await fs.mkdir(webDist);
    await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    cp = await startTestControlPlane({ webDist, publicUrl: 'http://localhost:34777' });
  });
  afterAll(async () => {
    await cp?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('serves the install script, self-contained, with PUBLIC_URL as its control plane', async () => {
    const res = await fetch(`${cp?.url}/install/agent.sh`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/shellscript/);
    const script = await res.text();
    expect(script.startsWith('#!/usr/bin/env bash\n')).toBe(true);
    expect(script).toContain('DEFAULT_CONTROL_PLANE="http://localhost:34777"\n');
    // The GPU probe helper is inlined: piped into bash, the script has no folder to source from.
    expect(script).toContain('build_gpu_probe_image() {');
    expect(script).not.toContain('. "$SRC/deploy/agent/gpu-probe-image.sh"');
    const syntax = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(syntax.status, syntax.stderr).toBe(0);
    // A client-side route of the console is still the console.
    expect(await (await fetch(`${cp?.url}/admin/nodes`)).text()).toContain('<title>console</title>');
    // An unknown /install path is a 404, not the console.
    const unknown = await fetch(`${cp?.url}/install/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('<title>console</title>');
  });

  it('never writes an origin that is not plain into the script', () => {
    const script = servedInstallScript('http://evil"; rm -rf / #');
    expect(script).toContain('DEFAULT_CONTROL_PLANE=""\n');
    expect(script).not.toContain('rm -rf /');
  });

  it('serves the agent bundle and its checksum; the archive holds a runnable agent', async () => {
    const sumRes = await fetch(`${cp?.url}/install/agent-bundle.sha256`);
    expect(sumRes.status).toBe(200);
    const sumLine = await sumRes.text();
    const m =
      /^([0-9a-f]{64}) {2}(gpucloud-agent-(\d+\.\d+\.\d+)-([0-9a-f]{12})-linux-[a-z0-9]+\.tar\.gz)\n$/.exec(
        sumLine,
      );
    expect(m, sumLine).not.toBeNull();
    const [, sum, fileName, version, build] = m as unknown as string[];

    const res = await fetch(`${cp?.url}/install/agent-bundle.tar.gz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toContain(fileName);
    const body = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(createHash('sha256').update(body).digest('hex')).toBe(sum);

    const archive = path.join(work, fileName as string);
    await fs.writeFile(archive, body);
    const unpacked = path.join(work, 'unpacked');
    await fs.mkdir(unpacked);
    expect(spawnSync('tar', ['-xzf', archive, '-C', unpacked]).status).toBe(0);
    const top = path.join(unpacked, 'gpucloud-agent');
    expect(JSON.parse(await fs.readFile(path.join(top, 'VERSION'), 'utf8'))).toEqual({
      version,
      build,
      protocol: 1,
    });
    const run = spawnSync(path.join(top, 'bin/gpucloud-agent'), ['--version'], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`gpucloud-agent ${version} build ${build} protocol 1\n`);
    for (const file of ['agent/v1/agent.proto', 'lib/agent.mjs', 'bin/node', 'toolbox-build/build.mjs']) {
      await expect(fs.stat(path.join(top, file))).resolves.toBeTruthy();
    }
    // Deterministic: built again elsewhere from the same sources, the same build and the same bytes.
    const rebuilt = await buildAgentBundle({
      outDir: path.join(work, 'rebuilt'),
      toolboxDir: bundleSettings().toolboxDir,
    });
    expect({ build: rebuilt.build, sha256: rebuilt.sha256, fileName: rebuilt.fileName }).toEqual({
      build,
      sha256: sum,
      fileName,
    });
  }, 240_000);
});
