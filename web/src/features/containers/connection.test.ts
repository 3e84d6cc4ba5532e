import { describe, expect, it } from 'vitest';
import { appendLog, MAX_LOG_CHARS } from './components/use-log-stream';
import { connectionInfo, jupyterUrl, logSocketUrl, releaseNote, sshAddress, sshCommand } from './connection';

const container = {
  ssh_server: 'gpu1.example.com',
  ssh_port: 10001,
  password: 's3cret',
  frame_ports: { '22': 10001, '8888': 10002 },
  jupyter: '',
};

describe('connection details', () => {
  it('builds the SSH address and command', () => {
    expect(sshAddress(container)).toBe('gpu1.example.com:10001');
    expect(sshCommand(container)).toBe('ssh -p 10001 root@gpu1.example.com');
    expect(sshCommand({ ssh_server: '', ssh_port: null })).toBeNull();
  });

  it('copies the command and the password', () => {
    expect(connectionInfo(container)).toBe('ssh -p 10001 root@gpu1.example.com\n密码：s3cret');
    expect(connectionInfo({ ...container, password: '' })).toBe('ssh -p 10001 root@gpu1.example.com');
  });

  it('derives Jupyter from the host port of container port 8888', () => {
    expect(jupyterUrl(container)).toBe('http://gpu1.example.com:10002');
    expect(jupyterUrl({ ...container, frame_ports: { '22': 10001 } })).toBeNull();
    expect(jupyterUrl({ ...container, frame_ports: {} })).toBeNull();
    // The node found no Jupyter in the image: no dead link.
    expect(jupyterUrl({ ...container, jupyter: 'absent' })).toBeNull();
    expect(jupyterUrl({ ...container, jupyter: 'running' })).toBe('http://gpu1.example.com:10002');
  });

  it('hourly containers are released 3 days after shutdown; others show their expiry', () => {
    const format = (t: string) => `<${t}>`;
    expect(releaseNote({ billing_type: 'hourly', end_time: null }, format)).toBe('关机 3 天后释放');
    expect(releaseNote({ billing_type: 'monthly', end_time: '2025-01-01T00:00:00Z' }, format)).toBe(
      '到期时间 <2025-01-01T00:00:00Z>',
    );
  });

  it('the log socket follows the page protocol and carries the token', () => {
    expect(logSocketUrl({ protocol: 'http:', host: 'console:5173' }, 'c-1', 'a b')).toBe(
      'ws://console:5173/api/containers/ws/c-1/logs?token=a%20b',
    );
    expect(logSocketUrl({ protocol: 'https:', host: 'cloud.example' }, 'c-1', 't')).toBe(
      'wss://cloud.example/api/containers/ws/c-1/logs?token=t',
    );
  });
});

describe('log buffer', () => {
  it('joins frames as they are: a line split between frames is one line again', () => {
    expect(appendLog('', 'line 1')).toBe('line 1');
    expect(appendLog('line 1', ' goes on\nline 2\n')).toBe('line 1 goes on\nline 2\n');
    expect(appendLog('a\n', 'b\nc\n')).toBe('a\nb\nc\n');
    // Frames of a numbered log cut anywhere read back as the same lines.
    const log = Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join('');
    let text = '';
    for (let at = 0; at < log.length; at += 37) text = appendLog(text, log.slice(at, at + 37));
    expect(text).toBe(log);
  });

  it('keeps only the tail, from the start of a line', () => {
    const long = appendLog(`${'x'.repeat(MAX_LOG_CHARS - 10)}\nsecond line\n`, 'tail\n');
    expect(long).toBe('second line\ntail\n');
    const noBreak = appendLog('x'.repeat(MAX_LOG_CHARS), 'tail');
    expect(noBreak.length).toBe(MAX_LOG_CHARS);
    expect(noBreak.endsWith('tail')).toBe(true);
  });
});
