// The OpenSSH client tools (ssh, scp, sftp, ssh-keyscan, rsync) and sshpass, run as a user runs
// them against a container's published SSH port. Nothing reads ~/.ssh: every call names its key
// and its own known_hosts file, so a changed host key fails the call.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface CommandResult {
  /** null when the command was killed (by the timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program (no shell) and collects its output; never rejects on a non-zero exit. */
export function runCommand(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 30_000,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new Error(`${file} is missing: apt-get install it`) : err),
    );
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A client that gave up early (connection refused) closed its stdin: its exit code tells.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/** The command's stdout; throws with its output when it failed. */
export async function mustRun(
  file: string,
  args: string[],
  options: Parameters<typeof runCommand>[2] = {},
): Promise<string> {
  const result = await runCommand(file, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${file} ${args.join(' ')} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`.trim(),
    );
  }
  return result.stdout;
}

export interface KeyPair {
  privateKeyFile: string;
  publicKey: string;
}

/** A fresh ed25519 key pair without a passphrase in `dir`. */
export async function generateKeyPair(dir: string): Promise<KeyPair> {
  const privateKeyFile = path.join(dir, 'id_ed25519');
  await mustRun('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'gpucloud-test', '-f', privateKeyFile]);
  return { privateKeyFile, publicKey: (await fs.readFile(`${privateKeyFile}.pub`, 'utf8')).trim() };
}

/** The environment of a client: no agent, so only the named key is offered. */
function clientEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.SSH_AUTH_SOCK;
  return env;
}

/**
 * root@127.0.0.1 on a published SSH port. `alias` names the machine in known_hosts whatever the
 * port, so after a port change the old host key must still match.
 */
export class SshTarget {
  constructor(
    public port: number,
    readonly key: KeyPair,
    readonly knownHostsFile: string,
    readonly alias: string,
  ) {}

  /** Options every tool takes (`-o`), for key login unless `password` auth is asked for. */
  options(auth: 'key' | 'password' = 'key'): string[] {
    const common = [
      `Port=${this.port}`,
      `UserKnownHostsFile=${this.knownHostsFile}`,
      'StrictHostKeyChecking=accept-new',
      `HostKeyAlias=${this.alias}`,
      'ConnectTimeout=10',
      'ServerAliveInterval=5',
      'LogLevel=ERROR',
    ];
    const authOptions =
      auth === 'key'
        ? [
            'BatchMode=yes',
            'IdentitiesOnly=yes',
            `IdentityFile=${this.key.privateKeyFile}`,
            'PasswordAuthentication=no',
          ]
        : [
            'BatchMode=no',
            'PubkeyAuthentication=no',
            'PreferredAuthentications=password',
            'NumberOfPasswordPrompts=1',
          ];
    return ['-F', '/dev/null', ...[...common, ...authOptions].flatMap((o) => ['-o', o])];
  }

  /** `ssh root@127.0.0.1 command` with the key; the result, whatever the exit code. */
  ssh(command: string, extraArgs: string[] = [], input?: string): Promise<CommandResult> {
    return runCommand('ssh', [...this.options(), ...extraArgs, 'root@127.0.0.1', command], {
      env: clientEnv(),
      input,
    });
  }

  /** The command's output over a key login; throws when it failed. */
  async run(command: string): Promise<string> {
    const result = await this.ssh(command);
    if (result.code !== 0) {
      throw new Error(`ssh -p ${this.port} '${command}' exited with ${result.code}: ${result.stderr.trim()}`);
    }
    return result.stdout;
  }

  /** `ssh` with a password (through sshpass, which reads it from SSHPASS, not the command line). */
  sshWithPassword(password: string, command: string): Promise<CommandResult> {
    return runCommand('sshpass', ['-e', 'ssh', ...this.options('password'), 'root@127.0.0.1', command], {
      env: clientEnv({ SSHPASS: password }),
    });
  }

  scp(from: string, to: string): Promise<string> {
    return mustRun('scp', [...this.options(), '-q', from, to], { env: clientEnv() });
  }

  /** `sftp -b` with these batch commands; its output. */
  async sftp(batch: string[], dir: string): Promise<string> {
    const batchFile = path.join(dir, `batch-${this.port}-${Date.now()}`);
    await fs.writeFile(batchFile, `${batch.join('\n')}\n`);
    return mustRun('sftp', [...this.options(), '-b', batchFile, 'root@127.0.0.1'], { env: clientEnv() });
  }

  /** `rsync -a` over `ssh` with this target's options (no spaces in them: rsync splits on spaces). */
  rsync(from: string, to: string): Promise<string> {
    return mustRun('rsync', ['-a', '-e', ['ssh', ...this.options()].join(' '), from, to], {
      env: clientEnv(),
    });
  }

  /** The ed25519 host key the server offers ("ssh-ed25519 AAAA…"). */
  async hostKey(): Promise<string> {
    const out = await mustRun('ssh-keyscan', ['-t', 'ed25519', '-p', String(this.port), '127.0.0.1']);
    const line = out.split('\n').find((l) => l.includes(' ssh-ed25519 '));
    if (!line) throw new Error(`ssh-keyscan -p ${this.port} offered no ed25519 key: ${out}`);
    return line.slice(line.indexOf('ssh-ed25519'));
  }

  /**
   * `ssh -N -L localPort:127.0.0.1:remotePort` in the background; `close` ends it. The forward
   * is up once the caller's request through it answers.
   */
  forward(localPort: number, remotePort: number): { close(): void; output(): string } {
    const child = spawn(
      'ssh',
      [
        ...this.options(),
        '-N',
        '-o',
        'ExitOnForwardFailure=yes',
        '-L',
        `${localPort}:127.0.0.1:${remotePort}`,
        'root@127.0.0.1',
      ],
      { env: clientEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    return {
      close: () => {
        child.kill('SIGTERM');
      },
      output: () => `${child.exitCode === null ? 'running' : `exited ${child.exitCode}`}: ${stderr}`,
    };
  }
}
