import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError, UsageError } from './errors.js';
import type { Messages } from './i18n.js';

/** What `gpucloud login` keeps: the server and the API key that works on it. */
export interface StoredLogin {
  url: string;
  api_key: string;
}

/** The server `login` offers when neither --url, GPUCLOUD_URL nor a saved login names one (npm start's). */
export const DEFAULT_URL = 'http://localhost:8080';

/** $XDG_CONFIG_HOME/gpucloud (an absolute XDG_CONFIG_HOME only, as the XDG spec says), else ~/.config/gpucloud. */
export function configDir(env: Record<string, string | undefined>, home: string): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return path.join(base, 'gpucloud');
}

export const configFile = (dir: string) => path.join(dir, 'config.json');

/** Makes the folder (0700, also when it was there with wider rights: it holds a secret). */
export function ensureConfigDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** The saved login, or undefined when there is none; a broken file is an error, not "logged out". */
export function readLogin(file: string, msg: Messages): StoredLogin | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(msg.badConfig(file, (err as Error).message));
  }
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as StoredLogin).url === 'string' &&
      typeof (value as StoredLogin).api_key === 'string'
    ) {
      const { url, api_key } = value as StoredLogin;
      return { url, api_key };
    }
    throw new Error('expected {"url": …, "api_key": …}');
  } catch (err) {
    throw new CliError(msg.badConfig(file, (err as Error).message));
  }
}

/**
 * Saves the login readable by its owner only: the file is written 0600 under a temporary name
 * in the same folder and renamed over the old one, so no reader ever sees half a file and the
 * key never sits in a file with wider rights.
 */
export function writeLogin(dir: string, login: StoredLogin): string {
  ensureConfigDir(dir);
  const file = configFile(dir);
  const temp = `${file}.${process.pid}.tmp`;
  rmSync(temp, { force: true }); // left by a run that died: made anew, so the mode below applies
  writeFileSync(temp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(temp, 0o600); // whatever the umask
  renameSync(temp, file);
  return file;
}

/** A server URL as typed: http(s) only, without a trailing slash. */
export function normalizeUrl(raw: string, msg: Messages): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(msg.badUrl(raw));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(msg.badUrl(raw));
  return url.toString().replace(/\/+$/, '');
}

/** The URL and key to use: GPUCLOUD_URL / GPUCLOUD_API_KEY over the saved login. */
export function resolveLogin(
  env: Record<string, string | undefined>,
  stored: StoredLogin | undefined,
  msg: Messages,
): StoredLogin {
  const url = env.GPUCLOUD_URL?.trim() || stored?.url;
  const apiKey = env.GPUCLOUD_API_KEY?.trim() || stored?.api_key;
  if (!url || !apiKey) throw new UsageError(msg.notLoggedIn);
  return { url: normalizeUrl(url, msg), api_key: apiKey };
}
