// Access staged for a start: before the agent starts a container it writes what the start asks
// for (the root password's SHA-512 crypt hash, the user's authorized_keys, Jupyter's token
// config) into a host folder of that container, bind-mounted read-only at /.gpucloud/staged.
// Our init applies them before it starts the SSH server, so the first banner already accepts
// the user's login: no docker exec to wait for after the start, and the plain password is never
// written anywhere. Host keys for Dropbear come with every start (host-keys.ts); the init takes
// them only at the first, when the container has none. The agent empties the folder once the
// start is over.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Access } from './container-access.js';
import { dropbearHostKeys } from './host-keys.js';
import { jupyterConfigs } from './jupyter-access.js';
import { sha512Crypt } from './sha512-crypt.js';
import { TOOLBOX_MOUNT } from './toolbox.js';

export const STAGED_MOUNT = `${TOOLBOX_MOUNT}/staged`;

export class StagedAccess {
  /** `root`: a folder of the agent's own (`<state dir>/access`), one folder per container in it. */
  constructor(readonly root: string) {}

  /** The host folder of a container (its id is validated by the caller). */
  dir(containerId: string): string {
    return path.join(this.root, containerId);
  }

  /** Creates the folder a container's definition binds; call before creating the container. */
  async prepare(containerId: string): Promise<string> {
    const dir = this.dir(containerId);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Replaces what is staged for the container's next start. */
  async write(containerId: string, access: Access): Promise<void> {
    const dir = await this.prepare(containerId);
    await this.clear(containerId);
    const files: Array<[string, string | Buffer, number]> = dropbearHostKeys().map(([name, key]) => [
      name,
      key,
      0o600,
    ]);
    if (access.authorizedKeys.length > 0) {
      files.push(['authorized_keys', `${access.authorizedKeys.join('\n')}\n`, 0o600]);
    }
    if (access.rootPassword) {
      files.push(['password.hash', `${sha512Crypt(access.rootPassword)}\n`, 0o600]);
      if (access.jupyter) {
        // World-readable in the container: Jupyter may run as the image's own user.
        const { server, notebook } = jupyterConfigs(access.rootPassword);
        files.push(['jupyter_server_config.json', `${server}\n`, 0o644]);
        files.push(['jupyter_notebook_config.json', `${notebook}\n`, 0o644]);
      }
    }
    for (const [name, content, mode] of files) {
      await fs.writeFile(path.join(dir, name), content, { mode });
    }
  }

  /** Empties the folder (the start is over: the init has applied it, or the start failed). */
  async clear(containerId: string): Promise<void> {
    const dir = this.dir(containerId);
    const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    await Promise.all(names.map((name) => fs.rm(path.join(dir, name), { force: true })));
  }

  /** Removes the folder with the container. */
  async remove(containerId: string): Promise<void> {
    await fs.rm(this.dir(containerId), { recursive: true, force: true });
  }
}
