import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, configFile, readLogin, resolveLogin, writeLogin } from './config.js';
import { CliError, UsageError } from './errors.js';
import { MESSAGES } from './i18n.js';

const msg = MESSAGES.en;
let home: string;
const mode = (p: string) => statSync(p).mode & 0o777;

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-cli-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('the saved login', () => {
  it('lives in $XDG_CONFIG_HOME/gpucloud when that is absolute, else ~/.config/gpucloud', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/etc/xdg-here' }, '/home/u')).toBe('/etc/xdg-here/gpucloud');
    expect(configDir({ XDG_CONFIG_HOME: 'relative/dir' }, '/home/u')).toBe('/home/u/.config/gpucloud');
    expect(configDir({}, '/home/u')).toBe('/home/u/.config/gpucloud');
  });

  it('is written 0600 in a 0700 folder, even under a permissive umask and over wider old rights', () => {
    const dir = path.join(home, '.config', 'gpucloud');
    const previous = process.umask(0);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o777 });
      writeFileSync(configFile(dir), '{}', { mode: 0o666 });
      chmodSync(dir, 0o777);
      const file = writeLogin(dir, { url: 'http://gpu.example', api_key: 'sk-secret' });
      expect(file).toBe(path.join(dir, 'config.json'));
      expect(mode(file)).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        url: 'http://gpu.example',
        api_key: 'sk-secret',
      });
      // a fresh folder too
      const fresh = path.join(home, 'xdg', 'gpucloud');
      expect(mode(writeLogin(fresh, { url: 'http://a', api_key: 'k' }))).toBe(0o600);
      expect(mode(fresh)).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it('reads back what was saved; no file is no login, a broken file is an error', () => {
    const dir = path.join(home, 'gpucloud');
    expect(readLogin(configFile(dir), msg)).toBeUndefined();
    writeLogin(dir, { url: 'http://gpu.example', api_key: 'sk-1' });
    expect(readLogin(configFile(dir), msg)).toEqual({ url: 'http://gpu.example', api_key: 'sk-1' });
    writeFileSync(configFile(dir), '{"url": 1}');
    expect(() => readLogin(configFile(dir), msg)).toThrow(CliError);
    writeFileSync(configFile(dir), 'not json');
    expect(() => readLogin(configFile(dir), msg)).toThrow(/cannot read .*config\.json/);
  });

  it('GPUCLOUD_API_KEY and GPUCLOUD_URL override the saved login; neither is "not logged in"', () => {
    const saved = { url: 'http://saved.example/', api_key: 'sk-saved' };
    expect(resolveLogin({}, saved, msg)).toEqual({ url: 'http://saved.example', api_key: 'sk-saved' });
    expect(resolveLogin({ GPUCLOUD_API_KEY: 'sk-env' }, saved, msg)).toEqual({
      url: 'http://saved.example',
      api_key: 'sk-env',
    });
    expect(
      resolveLogin({ GPUCLOUD_URL: 'https://env.example', GPUCLOUD_API_KEY: 'sk-env' }, undefined, msg),
    ).toEqual({ url: 'https://env.example', api_key: 'sk-env' });
    expect(() => resolveLogin({}, undefined, msg)).toThrow(UsageError);
    expect(() => resolveLogin({ GPUCLOUD_API_KEY: 'k' }, undefined, msg)).toThrow(/not logged in/);
    expect(() => resolveLogin({ GPUCLOUD_URL: 'ftp://x', GPUCLOUD_API_KEY: 'k' }, undefined, msg)).toThrow(
      'not an http(s) URL',
    );
  });
});
