import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { registrySettingsFromEnv } from './registry-settings.js';

const base = { DATABASE_URL: 'postgres://x@localhost/db', SECRET_KEY: 'a'.repeat(64) };
const wechatPay = (notify: string) => ({
  WECHAT_PAY_MCH_ID: '1900000109',
  WECHAT_PAY_APP_ID: 'wx1',
  WECHAT_PAY_SERIAL_NO: 'S',
  WECHAT_PAY_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nx\\n-----END PRIVATE KEY-----',
  WECHAT_PAY_API_V3_KEY: 'k'.repeat(32),
  WECHAT_PAY_PLATFORM_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nx\\n-----END PUBLIC KEY-----',
  WECHAT_PAY_PLATFORM_SERIAL: 'PUB_KEY_ID_1',
  WECHAT_PAY_NOTIFY_URL: notify,
});

describe('a public deployment refuses what is only for trying', () => {
  it('keeps the sandboxes for npm start (no PUBLIC_URL) and a loopback PUBLIC_URL', () => {
    expect(() => loadConfig(base)).not.toThrow();
    for (const url of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080'])
      expect(() => loadConfig({ ...base, PUBLIC_URL: url })).not.toThrow();
  });

  it('refuses to start with a sandbox provider on a public PUBLIC_URL, in Chinese and English', () => {
    const env = { ...base, PUBLIC_URL: 'https://gpu.example.com' };
    expect(() => loadConfig(env)).toThrow(
      /公网部署.*沙箱.*ALLOW_SANDBOX_PROVIDERS=true.*public PUBLIC_URL refuses to start/s,
    );
    expect(() => loadConfig({ ...env, PAYMENTS_SANDBOX: 'false' })).toThrow(/WECHAT_SANDBOX=false/);
    expect(() => loadConfig({ ...env, WECHAT_SANDBOX: 'false' })).toThrow(/PAYMENTS_SANDBOX=false/);
    expect(() => loadConfig({ ...env, PAYMENTS_SANDBOX: 'false', WECHAT_SANDBOX: 'false' })).not.toThrow();
    expect(loadConfig({ ...env, ALLOW_SANDBOX_PROVIDERS: 'true' }).allowSandboxProviders).toBe(true);
  });

  it('refuses a non-HTTPS WeChat Pay notify URL on a public deployment', () => {
    const env = { ...base, PUBLIC_URL: 'https://gpu.example.com', WECHAT_SANDBOX: 'false' };
    expect(() =>
      loadConfig({ ...env, ...wechatPay('http://gpu.example.com/api/billing/wechat/notify') }),
    ).toThrow(/HTTPS/);
    expect(() =>
      loadConfig({ ...env, ...wechatPay('https://gpu.example.com/api/billing/wechat/notify') }),
    ).not.toThrow();
    // On a loopback deployment (a stand-in) plain HTTP stays allowed.
    expect(() =>
      loadConfig({ ...base, PUBLIC_URL: 'http://127.0.0.1:8080', ...wechatPay('http://127.0.0.1:9/notify') }),
    ).not.toThrow();
  });

  it('reads TRUST_PROXY (none by default)', () => {
    expect(loadConfig(base).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });
});

describe('the image registry setting', () => {
  const none = () => false;
  const present = (file: string) => file === '/usr/bin/docker-registry';

  it('runs the embedded registry where docker-registry is installed: port 5000, under the data folder', () => {
    expect(registrySettingsFromEnv({}, present).registry).toEqual({
      kind: 'embedded',
      binary: '/usr/bin/docker-registry',
      port: 5000,
      dataDir: expect.stringMatching(/\/\.data\/registry$/),
    });
    expect(
      registrySettingsFromEnv({ REGISTRY_PORT: '0', REGISTRY_DATA_DIR: '/srv/registry' }, present).registry,
    ).toEqual({ kind: 'embedded', binary: '/usr/bin/docker-registry', port: 0, dataDir: '/srv/registry' });
    expect(
      registrySettingsFromEnv({ GPUCLOUD_DATA_DIR: '/var/lib/gpucloud' }, present).registry,
    ).toMatchObject({
      dataDir: '/var/lib/gpucloud/registry',
    });
    expect(() => registrySettingsFromEnv({ REGISTRY_PORT: '70000' }, present)).toThrow(/REGISTRY_PORT/);
    expect(() => registrySettingsFromEnv({ REGISTRY_PORT: 'x' }, present)).toThrow(/REGISTRY_PORT/);
  });

  it('is off without docker-registry and without REGISTRY_URL, or with REGISTRY=off', () => {
    expect(registrySettingsFromEnv({}, none).registry).toEqual({ kind: 'off' });
    expect(registrySettingsFromEnv({ REGISTRY: 'off' }, present).registry).toEqual({ kind: 'off' });
    expect(
      registrySettingsFromEnv({ REGISTRY: 'off', REGISTRY_URL: 'https://r.example.com' }, present).registry,
    ).toEqual({ kind: 'off' });
    expect(() => registrySettingsFromEnv({ REGISTRY: 'harbor' }, present)).toThrow(/REGISTRY must be/);
  });

  it('uses REGISTRY_URL with its robot account, whatever is installed', () => {
    expect(
      registrySettingsFromEnv(
        {
          REGISTRY_URL: 'https://harbor.example.com:8443/',
          REGISTRY_USERNAME: 'robot$gpu',
          REGISTRY_PASSWORD: 'p',
        },
        present,
      ).registry,
    ).toEqual({
      kind: 'external',
      url: 'https://harbor.example.com:8443',
      username: 'robot$gpu',
      password: 'p',
    });
    expect(registrySettingsFromEnv({ REGISTRY_URL: 'https://r.example.com' }, none).registry).toEqual({
      kind: 'external',
      url: 'https://r.example.com',
      username: undefined,
      password: undefined,
    });
    for (const url of [
      'ftp://r.example.com',
      'https://r.example.com/v2',
      'https://u:p@r.example.com',
      'not a url',
    ])
      expect(() => registrySettingsFromEnv({ REGISTRY_URL: url }, none), url).toThrow(/REGISTRY_URL/);
    expect(() =>
      registrySettingsFromEnv({ REGISTRY_URL: 'https://r.example.com', REGISTRY_USERNAME: 'u' }, none),
    ).toThrow(/go together/);
    expect(() =>
      registrySettingsFromEnv({ REGISTRY_USERNAME: 'u', REGISTRY_PASSWORD: 'p' }, present),
    ).toThrow(/need REGISTRY_URL/);
  });

  it('is part of loadConfig', () => {
    expect(loadConfig({ ...base, REGISTRY: 'off' }).registry).toEqual({ kind: 'off' });
    expect(loadConfig({ ...base, REGISTRY_URL: 'https://r.example.com' }).registry).toMatchObject({
      kind: 'external',
    });
  });
});
