import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  configFromCli,
  DEFAULTS,
  parsePortRange,
  parseSimulatedGpus,
  resolveConfig,
} from './config.js';

describe('agent settings', () => {
  it('refuses to run without a token', () => {
    expect(() => configFromCli({ argv: [], env: {} })).toThrow(/token/);
    expect(() => resolveConfig({ token: '  ' })).toThrow(ConfigError);
  });

  it('fills in the defaults', () => {
    const config = configFromCli({ argv: ['--token', 's3cret'], env: {} });
    expect(config).toMatchObject({
      listen: DEFAULTS.listen,
      token: 's3cret',
      bindAddress: 'auto',
      portRange: { start: 20000, end: 29999 },
      volumeRoot: '/var/lib/gpucloud/volumes',
      stateDir: '/var/lib/gpucloud/agent',
      heartbeatIntervalMs: 5000,
      logLimits: { maxSize: '10m', maxFiles: 3 },
    });
    expect(config).not.toHaveProperty('tls');
    expect(config).not.toHaveProperty('simulateGpus');
  });

  it('lets flags win over the environment, and the environment over the config file', () => {
    const file = JSON.stringify({
      listen: '10.0.0.1:1',
      bindAddress: '10.0.0.1',
      'port-range': '40000-40010',
      publicHost: 'from-file',
    });
    const config = configFromCli({
      argv: ['--listen=127.0.0.1:0', '--config', '/etc/agent.json'],
      env: {
        AGENT_TOKEN: 't',
        AGENT_LISTEN: '0.0.0.0:1',
        AGENT_BIND_ADDRESS: '127.0.0.1',
        DOCKER_HOST: 'unix:///x.sock',
      },
      readFile: (f) => (f === '/etc/agent.json' ? file : ''),
    });
    expect(config).toMatchObject({
      listen: '127.0.0.1:0',
      bindAddress: '127.0.0.1',
      portRange: { start: 40000, end: 40010 },
      publicHost: 'from-file',
      dockerHost: 'unix:///x.sock',
    });
  });

  it('reads simulated GPUs, port ranges and TLS files', () => {
    expect(parseSimulatedGpus('8xRTX4090')).toEqual({ count: 8, model: 'RTX4090' });
    expect(parseSimulatedGpus('2 x A100')).toEqual({ count: 2, model: 'A100' });
    expect(() => parseSimulatedGpus('RTX4090')).toThrow(ConfigError);
    expect(() => parseSimulatedGpus('0xT4')).toThrow(ConfigError);
    expect(parsePortRange('30000-30010')).toEqual({ start: 30000, end: 30010 });
    expect(() => parsePortRange('40000-30000')).toThrow(ConfigError);
    expect(() => parsePortRange('1-70000')).toThrow(ConfigError);
    const tls = configFromCli({
      argv: ['--token=t', '--tls-cert', 'c.pem', '--tls-key', 'k.pem', '--tls-ca', 'ca.pem'],
      env: {},
    });
    expect(tls !== 'help' && tls.tls).toEqual({ certFile: 'c.pem', keyFile: 'k.pem', caFile: 'ca.pem' });
    expect(() => configFromCli({ argv: ['--token=t', '--tls-cert', 'c.pem'], env: {} })).toThrow(/tls-key/);
  });

  it('refuses unknown flags, unknown file keys and a bad listen address', () => {
    expect(() => configFromCli({ argv: ['--token=t', '--nope'], env: {} })).toThrow(ConfigError);
    expect(() =>
      configFromCli({ argv: ['--token=t', '--config=f'], env: {}, readFile: () => '{"colour":"red"}' }),
    ).toThrow(/colour/);
    expect(() => configFromCli({ argv: ['--token=t', '--listen=nohost'], env: {} })).toThrow(/host:port/);
  });

  it('reads the json-file log limits and refuses nonsense', () => {
    const config = configFromCli({
      argv: ['--token=t', '--log-max-size', '512K'],
      env: { AGENT_LOG_MAX_FILES: '5' },
    });
    expect(config !== 'help' && config.logLimits).toEqual({ maxSize: '512k', maxFiles: 5 });
    for (const size of ['0', '10mb', '-1m', '']) {
      expect(() => resolveConfig({ token: 't', logMaxSize: size })).toThrow(/log-max-size/);
    }
    for (const files of [0, 1.5, 101]) {
      expect(() => resolveConfig({ token: 't', logMaxFiles: files })).toThrow(/log-max-files/);
    }
  });

  it('reads the toolkit floor and the GPU start concurrency, with their defaults', () => {
    const defaults = configFromCli({ argv: ['--token', 't'], env: {} });
    expect(defaults).toMatchObject({ minToolkitVersion: '1.19.1', gpuStartConcurrency: 2 });
    const fromFlags = configFromCli({
      argv: ['--token', 't', '--min-toolkit-version', 'v1.20.0', '--gpu-start-concurrency', '4'],
      env: { AGENT_MIN_TOOLKIT_VERSION: '1.18.0', AGENT_GPU_START_CONCURRENCY: '1' },
    });
    expect(fromFlags).toMatchObject({ minToolkitVersion: '1.20.0', gpuStartConcurrency: 4 });
    const fromEnv = configFromCli({
      argv: ['--token', 't'],
      env: { AGENT_MIN_TOOLKIT_VERSION: '1.17.8', AGENT_GPU_START_CONCURRENCY: '1' },
    });
    expect(fromEnv).toMatchObject({ minToolkitVersion: '1.17.8', gpuStartConcurrency: 1 });
    expect(() => resolveConfig({ token: 't', minToolkitVersion: 'latest' })).toThrow(/min-toolkit-version/);
    expect(() => resolveConfig({ token: 't', gpuStartConcurrency: 0 })).toThrow(/gpu-start-concurrency/);
    expect(() => resolveConfig({ token: 't', gpuStartConcurrency: '2.5' })).toThrow(ConfigError);
  });

  it('reads how long an unused tenant network is kept (seconds; an hour by default, 0 = at once)', () => {
    expect(configFromCli({ argv: ['--token', 't'], env: {} })).toMatchObject({
      tenantNetworkIdleMs: 3_600_000,
    });
    expect(configFromCli({ argv: ['--token', 't', '--tenant-network-idle', '0'], env: {} })).toMatchObject({
      tenantNetworkIdleMs: 0,
    });
    expect(configFromCli({ argv: ['--token', 't'], env: { AGENT_TENANT_NETWORK_IDLE: '90' } })).toMatchObject(
      { tenantNetworkIdleMs: 90_000 },
    );
    for (const bad of ['-1', '1.5', 'soon', '', '2592001']) {
      expect(() => resolveConfig({ token: 't', tenantNetworkIdle: bad })).toThrow(/--tenant-network-idle/);
    }
  });

  it('reads the platform TLS of a joined node (tls-mode platform needs the CA) and its install', () => {
    const file = JSON.stringify({
      'tls-cert': '/etc/gpucloud/tls/agent.crt',
      'tls-key': '/etc/gpucloud/tls/agent.key',
      'tls-ca': '/etc/gpucloud/tls/ca.crt',
      'tls-mode': 'platform',
      controlPlaneUrl: 'https://gpu.example.com',
      'install-dir': '/opt/gpucloud/agent',
    });
    const config = configFromCli({
      argv: ['--config', 'agent.json', '--token', 't'],
      env: {},
      readFile: () => file,
    });
    expect(config).toMatchObject({
      tls: {
        certFile: '/etc/gpucloud/tls/agent.crt',
        keyFile: '/etc/gpucloud/tls/agent.key',
        caFile: '/etc/gpucloud/tls/ca.crt',
        watch: true,
      },
      controlPlaneUrl: 'https://gpu.example.com',
      installDir: '/opt/gpucloud/agent',
    });
    // Hand-made certificates are read once (no watch), and from a checkout there is no install.
    const plain = configFromCli({
      argv: ['--token', 't', '--tls-cert', 'a.crt', '--tls-key', 'a.key'],
      env: {},
    });
    expect(plain !== 'help' && plain.tls).toEqual({ certFile: 'a.crt', keyFile: 'a.key' });
    expect(plain).not.toHaveProperty('installDir');
    expect(() =>
      configFromCli({
        argv: ['--token', 't', '--tls-cert', 'a', '--tls-key', 'b', '--tls-mode', 'platform'],
        env: {},
      }),
    ).toThrow(/--tls-ca/);
    expect(() => configFromCli({ argv: ['--token', 't', '--tls-mode', 'platform'], env: {} })).toThrow(
      /--tls-cert/,
    );
    expect(() => configFromCli({ argv: ['--token', 't', '--tls-mode', 'magic'], env: {} })).toThrow(
      /files or platform/,
    );
  });

  it('answers --help', () => {
    expect(configFromCli({ argv: ['--help'], env: {} })).toBe('help');
  });
});
