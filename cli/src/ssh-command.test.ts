import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Container } from '@gpucloud/control-plane/api';
import { describe, expect, it } from 'vitest';
import { CliError, UsageError } from './errors.js';
import { MESSAGES } from './i18n.js';
import {
  connectionOptions,
  destination,
  findProgram,
  hasOwnKeys,
  parseScpPath,
  scpArgument,
  scpOperands,
  shellLine,
  sshTarget,
} from './ssh-command.js';

const msg = MESSAGES.en;
const container = (over: Partial<Container>) =>
  ({
    container_id: 'c-abc123',
    name: 'box',
    status: 'running',
    ssh_server: '127.0.0.1',
    ssh_port: 24801,
    password: 'pw',
    pull_progress: null,
    ...over,
  }) as Container;

describe('ssh and scp command lines', () => {
  it('connect as root to the SSH host and port the platform shows, host key kept per container', () => {
    const t = sshTarget(container({}), msg);
    expect(destination(t)).toBe('root@127.0.0.1');
    expect(connectionOptions(t, { portFlag: '-p', knownHosts: '/k/known_hosts' })).toEqual([
      '-p',
      '24801',
      '-o',
      'HostKeyAlias=gpucloud-c-abc123',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      'UserKnownHostsFile=/k/known_hosts',
    ]);
    expect(connectionOptions(t, { portFlag: '-P', knownHosts: '/k', identity: '/id' }).slice(0, 2)).toEqual([
      '-P',
      '24801',
    ]);
    expect(connectionOptions(t, { portFlag: '-P', knownHosts: '/k', identity: '/id' }).slice(-2)).toEqual([
      '-i',
      '/id',
    ]);
    expect(destination(sshTarget(container({ ssh_server: '::1' }), msg), true)).toBe('root@[::1]');
  });

  it('refuse a container that is not running or has no SSH port', () => {
    expect(() => sshTarget(container({ status: 'stopped' }), msg)).toThrow(CliError);
    expect(() => sshTarget(container({ status: 'pulling', pull_progress: 30 }), MESSAGES.zh)).toThrow(
      'box 未在运行 (拉取镜像中 30%)',
    );
    expect(() => sshTarget(container({ ssh_port: null }), msg)).toThrow('box has no SSH port');
  });

  it('scp: NAME:path is in the container (a colon before any slash), one container at a time', () => {
    expect(parseScpPath('box:/root/')).toEqual({ container: 'box', path: '/root/' });
    expect(parseScpPath('c-abc123:data')).toEqual({ container: 'c-abc123', path: 'data' });
    expect(parseScpPath('./a:b')).toEqual({ path: './a:b' });
    expect(parseScpPath('/tmp/x')).toEqual({ path: '/tmp/x' });
    const ops = scpOperands(['./a', './b', 'box:/root/'], msg);
    expect(ops.container).toBe('box');
    const t = sshTarget(container({}), msg);
    expect(ops.paths.map((p) => scpArgument(p, t))).toEqual(['./a', './b', 'root@127.0.0.1:/root/']);
    expect(() => scpOperands(['./a', './b'], msg)).toThrow(UsageError);
    expect(() => scpOperands(['one:/a', 'two:/b'], msg)).toThrow('one container at a time');
    expect(() => scpOperands(['box:/a'], msg)).toThrow('missing <to>');
  });

  it('finds programs on PATH and the user’s keys; quotes a command line for -v', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-cli-ssh-'));
    try {
      const bin = path.join(dir, 'bin');
      mkdirSync(bin);
      writeFileSync(path.join(bin, 'sshpass'), '#!/bin/sh\n');
      writeFileSync(path.join(bin, 'not-executable'), '');
      chmodSync(path.join(bin, 'sshpass'), 0o755);
      expect(findProgram('sshpass', { PATH: `/nonexistent:${bin}` })).toBe(path.join(bin, 'sshpass'));
      expect(findProgram('not-executable', { PATH: bin })).toBeUndefined();
      expect(findProgram('sshpass', { PATH: '' })).toBeUndefined();

      const sshDir = path.join(dir, '.ssh');
      expect(hasOwnKeys({}, sshDir)).toBe(false);
      expect(hasOwnKeys({ SSH_AUTH_SOCK: '/tmp/agent' }, sshDir)).toBe(true);
      expect(hasOwnKeys({}, sshDir, '/some/key')).toBe(true);
      mkdirSync(sshDir);
      writeFileSync(path.join(sshDir, 'id_ed25519.pub'), 'public half only');
      expect(hasOwnKeys({}, sshDir)).toBe(false);
      writeFileSync(path.join(sshDir, 'id_ed25519'), 'key');
      expect(hasOwnKeys({}, sshDir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(shellLine('ssh', ['-p', '22', 'root@h', 'echo hello', "it's"])).toBe(
      `ssh -p 22 root@h 'echo hello' 'it'\\''s'`,
    );
  });
});
