// Access to a container: the root password, the user's SSH keys in root's authorized_keys and
// the password as Jupyter's token (jupyter-access.ts). A start stages them for our init
// (staged-access.ts); in a running container, and in one created before staging existed, the
// toolbox's access script sets them, fed on stdin of a docker exec. Either way no tool of the
// image is needed and user input never becomes part of a command line.
import { randomInt } from 'node:crypto';
import type { ContainerClient } from '../docker/container-client.js';
import { failedPrecondition } from '../errors.js';
import { writeJupyterConfig } from './jupyter-access.js';
import { TOOLBOX_ACCESS } from './toolbox.js';

export async function setRootPassword(client: ContainerClient, ref: string, password: string): Promise<void> {
  const result = await client.exec(ref, [TOOLBOX_ACCESS, 'password'], `${password}\n`);
  if (result.exitCode !== 0) {
    throw failedPrecondition(
      `设置 root 密码失败 (setting the password exited with ${result.exitCode}: ${(result.stderr || result.stdout).trim()})`,
    );
  }
}

export async function writeAuthorizedKeys(
  client: ContainerClient,
  ref: string,
  keys: string[],
): Promise<void> {
  const result = await client.exec(ref, [TOOLBOX_ACCESS, 'keys'], `${keys.join('\n')}\n`);
  if (result.exitCode !== 0) {
    throw failedPrecondition(
      `写入 SSH 公钥失败 (writing authorized_keys exited with ${result.exitCode}: ${(result.stderr || result.stdout).trim()})`,
    );
  }
}

export interface Access {
  rootPassword: string;
  authorizedKeys: string[];
  /** The container exposes Jupyter: the password is its token too. */
  jupyter?: boolean;
}

/** Applies what a start asks for; keys first, so a failing chpasswd still leaves key login working. */
export async function applyAccess(client: ContainerClient, ref: string, access: Access): Promise<void> {
  if (access.authorizedKeys.length > 0 && access.rootPassword) {
    // One exec for both: a start waits on each.
    const input = `${access.rootPassword}\n${access.authorizedKeys.join('\n')}\n`;
    const result = await client.exec(ref, [TOOLBOX_ACCESS, 'login'], input);
    if (result.exitCode !== 0) {
      throw failedPrecondition(
        `设置 root 密码和 SSH 公钥失败 (exited with ${result.exitCode}: ${(result.stderr || result.stdout).trim()})`,
      );
    }
  } else if (access.authorizedKeys.length > 0) {
    await writeAuthorizedKeys(client, ref, access.authorizedKeys);
  } else if (access.rootPassword) {
    await setRootPassword(client, ref, access.rootPassword);
  }
  if (access.rootPassword && access.jupyter) await writeJupyterConfig(client, ref, access.rootPassword);
}

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const ALL = LOWER + UPPER + DIGITS;

/** A random password of letters and digits (no look-alikes), with at least one of each kind. */
export function generatePassword(length = 16): string {
  const pick = (chars: string) => chars[randomInt(chars.length)]!;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS)];
  while (chars.length < length) chars.push(pick(ALL));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
