// Jupyter behind container port 8888 takes the container password as its token (the login
// page accepts it as the password). At create the container's env carries it: JUPYTER_TOKEN
// is read by Jupyter Server and Notebook 7 as they are, JUPYTER_PASSWORD is for an image's own
// launcher. Env cannot change after create, so JUPYTER_CONFIG_PATH also points Jupyter at a
// folder the agent rewrites whenever it sets the password (start with a password, reset): a
// token in a config file wins over the env, so Jupyter's next start uses the current password.
import type { ContainerClient, PortMapping } from '../docker/container-client.js';
import { failedPrecondition } from '../errors.js';
import { TOOLBOX_ACCESS } from './toolbox.js';

export const JUPYTER_CONTAINER_PORT = 8888;
export const JUPYTER_CONFIG_DIR = '/etc/gpucloud/jupyter';

export function exposesJupyter(ports: Array<Pick<PortMapping, 'containerPort' | 'protocol'>>): boolean {
  return ports.some((p) => p.containerPort === JUPYTER_CONTAINER_PORT && p.protocol === 'tcp');
}

/** The env of a container that exposes Jupyter; without a password at create, only the config path. */
export function jupyterEnv(password: string): string[] {
  return [
    ...(password ? [`JUPYTER_TOKEN=${password}`, `JUPYTER_PASSWORD=${password}`] : []),
    `JUPYTER_CONFIG_PATH=${JUPYTER_CONFIG_DIR}`,
  ];
}

/** Jupyter Server 2 and 1 (`server`) and classic Notebook (`notebook`) config with the token. */
export function jupyterConfigs(password: string): { server: string; notebook: string } {
  return {
    server: JSON.stringify({ IdentityProvider: { token: password }, ServerApp: { token: password } }),
    notebook: JSON.stringify({ NotebookApp: { token: password } }),
  };
}

// Two JSON lines on stdin; the password never reaches a command line. World-readable on
// purpose: Jupyter often runs as the image's own unprivileged user (jovyan), and the container
// belongs to one tenant. The access script also restarts a Jupyter our init runs.
/** Writes the token Jupyter reads on its next start into a running container. */
export async function writeJupyterConfig(
  client: ContainerClient,
  ref: string,
  password: string,
): Promise<void> {
  const { server, notebook } = jupyterConfigs(password);
  const result = await client.exec(
    ref,
    [TOOLBOX_ACCESS, 'jupyter', JUPYTER_CONFIG_DIR],
    `${server}\n${notebook}\n`,
  );
  if (result.exitCode !== 0) {
    throw failedPrecondition(
      `写入 Jupyter 密码失败 (writing the Jupyter config exited with ${result.exitCode}: ${(result.stderr || result.stdout).trim()})`,
    );
  }
}
