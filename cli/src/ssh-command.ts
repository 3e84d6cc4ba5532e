// The argument lists of ssh and scp for a container (pure: the commands run them, tests read them).
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import type { Container } from '@gpucloud/control-plane/api';
import { CliError, UsageError } from './errors.js';
import { type Messages, statusLabel } from './i18n.js';

export interface SshTarget {
  name: string;
  host: string;
  port: number;
  user: 'root';
  password: string;
  /**
   * The name its host key is kept under. Host ports are reused by other containers over time,
   * so the key is remembered per container (its host key survives stop/start and recreation).
   */
  hostKeyAlias: string;
}

export function sshTarget(c: Container, msg: Messages): SshTarget {
  if (c.status !== 'running')
    throw new CliError(msg.notRunning(c.name, statusLabel(msg, c.status, c.pull_progress)));
  if (!c.ssh_port || !c.ssh_server) throw new CliError(msg.noSshPort(c.name));
  return {
    name: c.name,
    host: c.ssh_server,
    port: c.ssh_port,
    user: 'root',
    password: c.password,
    hostKeyAlias: `gpucloud-${c.container_id}`,
  };
}

/**
 * Options both ssh and scp take: the port (`-p` for ssh, `-P` for scp), the host key remembered
 * per container in the CLI's own known_hosts (trusted on first use, checked after), a key file.
 */
export function connectionOptions(
  t: SshTarget,
  opts: { portFlag: '-p' | '-P'; knownHosts: string; identity?: string },
): string[] {
  return [
    opts.portFlag,
    String(t.port),
    '-o',
    `HostKeyAlias=${t.hostKeyAlias}`,
    '-o',
    'StrictHostKeyChecking=accept-new',
    '-o',
    `UserKnownHostsFile=${opts.knownHosts}`,
    ...(opts.identity ? ['-i', opts.identity] : []),
  ];
}

/** Options that skip keys and go to the password (the container did not take the user's key). */
export const PASSWORD_ONLY = ['-o', 'PubkeyAuthentication=no'];

/** Options of the key probe: keys only, never a prompt, a short connect timeout. */
export const KEY_PROBE = [
  '-o',
  'BatchMode=yes',
  '-o',
  'PreferredAuthentications=publickey',
  '-o',
  'ConnectTimeout=10',
];

/** user@host for ssh, with an IPv6 literal in brackets for scp. */
export function destination(t: SshTarget, forScp = false): string {
  const host = forScp && t.host.includes(':') ? `[${t.host}]` : t.host;
  return `${t.user}@${host}`;
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa', 'id_ed25519_sk', 'id_ecdsa_sk'];

/** Whether ssh has a key of the user's to offer: an agent, a default key file in `sshDir`, or -i. */
export function hasOwnKeys(
  env: Record<string, string | undefined>,
  sshDir: string,
  identity?: string,
): boolean {
  if (identity) return true;
  if (env.SSH_AUTH_SOCK) return true;
  return DEFAULT_KEYS.some((k) => existsSync(path.join(sshDir, k)));
}

/** The program's path on PATH, or undefined. */
export function findProgram(name: string, env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder: the next one
    }
  }
  return undefined;
}

export interface ScpPath {
  /** The container's name or id, for a path in a container. */
  container?: string;
  path: string;
}

/**
 * `NAME:/path` is a path in a container, as scp reads `host:path`: a colon before any slash.
 * A local file whose name has a colon is written ./a:b.
 */
export function parseScpPath(arg: string): ScpPath {
  const colon = arg.indexOf(':');
  const slash = arg.indexOf('/');
  if (colon > 0 && (slash === -1 || colon < slash))
    return { container: arg.slice(0, colon), path: arg.slice(colon + 1) };
  return { path: arg };
}

/** The scp operands: the one container named in them, and each path as scp must see it. */
export function scpOperands(args: string[], msg: Messages): { container: string; paths: ScpPath[] } {
  if (args.length < 2)
    throw new UsageError(msg.missingArgument(args.length === 0 ? '<from>' : '<to>'), 'scp');
  const paths = args.map(parseScpPath);
  const containers = new Set(paths.flatMap((p) => (p.container ? [p.container] : [])));
  if (containers.size === 0) throw new UsageError(msg.scpNoRemote, 'scp');
  if (containers.size > 1) throw new UsageError(msg.scpTwoContainers, 'scp');
  return { container: [...containers][0] as string, paths };
}

/** A path as scp gets it: root@host:path for the container's, as written for local ones. */
export function scpArgument(p: ScpPath, t: SshTarget): string {
  return p.container ? `${destination(t, true)}:${p.path}` : p.path;
}

/** A command line for people (-v): arguments quoted where the shell would need it. */
export function shellLine(command: string, args: string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(quote).join(' ');
}
