import type { ContainerInfo__Output } from '@gpucloud/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  execIn,
  freeHostPort,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
} from './helpers.js';

const PASSWORD = 'Jupyter-pass:1';

/** The tokens Jupyter Server (2 and 1) and classic Notebook read from the agent's config folder. */
async function jupyterTokens(t: TestAgent, dockerId: string) {
  const server = JSON.parse(
    await execIn(t, dockerId, 'cat "$JUPYTER_CONFIG_PATH/jupyter_server_config.json"'),
  );
  const notebook = JSON.parse(
    await execIn(t, dockerId, 'cat "$JUPYTER_CONFIG_PATH/jupyter_notebook_config.json"'),
  );
  return [server.IdentityProvider?.token, server.ServerApp?.token, notebook.NotebookApp?.token];
}

describe('Jupyter behind container port 8888 gets the container password', () => {
  let t: TestAgent;
  let created: ContainerInfo__Output;

  beforeAll(async () => {
    t = await startTestAgent();
    created = await createRequest(t, {
      spec: testSpec(t, {
        ports: [
          { containerPort: 22, hostPort: await freeHostPort(), protocol: 'PROTOCOL_TCP', name: 'ssh' },
          { containerPort: 8888, hostPort: await freeHostPort(), protocol: 'PROTOCOL_TCP', name: 'jupyter' },
        ],
        // The agent's value wins over a token the request carries.
        env: { JUPYTER_TOKEN: 'from-the-request', FOO: 'bar' },
      }),
      rootPassword: PASSWORD,
      start: true,
    });
    expect(created.startError).toBe('');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('puts the password into the env Jupyter reads at create', async () => {
    const env = (await t.docker.getContainer(created.dockerId).inspect()).Config.Env;
    expect(env).toEqual(
      expect.arrayContaining([
        `JUPYTER_TOKEN=${PASSWORD}`,
        `JUPYTER_PASSWORD=${PASSWORD}`,
        'JUPYTER_CONFIG_PATH=/etc/gpucloud/jupyter',
        'FOO=bar',
      ]),
    );
    expect(env.filter((e) => e.startsWith('JUPYTER_TOKEN='))).toHaveLength(1);
  });

  it('writes the token into the config folder Jupyter reads, readable by an unprivileged Jupyter', async () => {
    expect(await jupyterTokens(t, created.dockerId)).toEqual([PASSWORD, PASSWORD, PASSWORD]);
    const modes = await execIn(
      t,
      created.dockerId,
      'stat -c %a /etc/gpucloud/jupyter/jupyter_server_config.json /etc/gpucloud/jupyter/jupyter_notebook_config.json',
    );
    expect(modes.trim().split('\n')).toEqual(['644', '644']);
  });

  it('rewrites the token on a password reset, and it outlives a restart and a reconfigure', async () => {
    const sshPortAfter = await freeHostPort();
    const next = 'New "quoted" \\ pass';
    const reset = await unaryCall<{ password: string }>((cb) =>
      t.client.resetPassword({ containerId: created.containerId, password: next }, t.md, cb),
    );
    expect(reset.password).toBe(next);
    expect(await jupyterTokens(t, created.dockerId)).toEqual([next, next, next]);

    const generated = await unaryCall<{ password: string }>((cb) =>
      t.client.resetPassword({ containerId: created.containerId, password: '' }, t.md, cb),
    );
    expect(await jupyterTokens(t, created.dockerId)).toEqual([
      generated.password,
      generated.password,
      generated.password,
    ]);

    await unaryCall((cb) =>
      t.client.stopContainer({ containerId: created.containerId, timeoutSeconds: 1 }, t.md, cb),
    );
    await unaryCall((cb) => t.client.startContainer({ containerId: created.containerId }, t.md, cb));
    expect(await jupyterTokens(t, created.dockerId)).toEqual([
      generated.password,
      generated.password,
      generated.password,
    ]);

    const jupyterPort = created.ports.find((p) => p.containerPort === 8888)?.hostPort ?? 0;
    const recreated: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.reconfigureContainer(
        {
          containerId: created.containerId,
          setPorts: true,
          ports: [
            { containerPort: 22, hostPort: sshPortAfter, protocol: 'PROTOCOL_TCP', name: 'ssh' },
            { containerPort: 8888, hostPort: jupyterPort, protocol: 'PROTOCOL_TCP', name: 'jupyter' },
          ],
          restartIfRunning: true,
        },
        t.md,
        cb,
      ),
    );
    expect(recreated.dockerId).not.toBe(created.dockerId);
    expect(recreated.ports.map((p) => p.hostPort)).toContain(sshPortAfter);
    const env = (await t.docker.getContainer(recreated.dockerId).inspect()).Config.Env;
    expect(env).toContain('JUPYTER_CONFIG_PATH=/etc/gpucloud/jupyter');
    expect(await jupyterTokens(t, recreated.dockerId)).toEqual([
      generated.password,
      generated.password,
      generated.password,
    ]);
  });

  it('leaves a container without port 8888 alone', async () => {
    const plain = await createRequest(t, { spec: testSpec(t), rootPassword: PASSWORD, start: true });
    const env = (await t.docker.getContainer(plain.dockerId).inspect()).Config.Env;
    expect(env.filter((e) => e.startsWith('JUPYTER_'))).toEqual([]);
    expect(await execIn(t, plain.dockerId, 'ls /etc/gpucloud/jupyter 2>&1 || true')).toMatch(/No such file/);
  });
});
