// Where users' saved images live (config.ts reads it once): the embedded registry (Debian's
// docker-registry, spawned by the control plane), an existing one given by REGISTRY_URL (Harbor,
// a cloud registry), or none (the images features then answer 503 镜像仓库未配置).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { platformDataDir } from './data-dir.js';

export const DEFAULT_REGISTRY_BINARY = '/usr/bin/docker-registry';
export const DEFAULT_REGISTRY_PORT = 5000;

export type RegistrySettings =
  /** The control plane runs `binary` on 127.0.0.1:port (0: a free port), storing under dataDir. */
  | { kind: 'embedded'; binary: string; port: number; dataDir: string }
  /** An existing registry at `url` (its origin); username/password: a robot account, or anonymous. */
  | { kind: 'external'; url: string; username: string | undefined; password: string | undefined }
  | { kind: 'off' };

export interface RegistryConfig {
  /** The image registry; undefined is off (a Config built by hand, as the tests do). */
  registry?: RegistrySettings | undefined;
}

function defaultDataDir(env: NodeJS.ProcessEnv): string {
  return path.join(platformDataDir(env), 'registry');
}

function externalUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`REGISTRY_URL is not a URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`REGISTRY_URL must be http(s)://host[:port]: ${value}`);
  if (url.username || url.password)
    throw new Error('REGISTRY_URL must not carry credentials: set REGISTRY_USERNAME and REGISTRY_PASSWORD');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new Error(`REGISTRY_URL must be the registry's address without a path: ${value}`);
  return url.origin;
}

function port(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_REGISTRY_PORT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`REGISTRY_PORT must be a port number (0 = a free one): ${value}`);
  return n;
}

/**
 * REGISTRY_URL (+ REGISTRY_USERNAME / REGISTRY_PASSWORD): an external registry. Else the
 * embedded one where REGISTRY_BINARY (default /usr/bin/docker-registry) exists, on 127.0.0.1 at
 * REGISTRY_PORT (default 5000), storing under REGISTRY_DATA_DIR (default <data dir>/registry).
 * REGISTRY=off switches both off.
 */
export function registrySettingsFromEnv(
  env: NodeJS.ProcessEnv,
  exists: (file: string) => boolean = existsSync,
): RegistryConfig {
  const mode = (env.REGISTRY ?? '').trim().toLowerCase();
  if (mode !== '' && mode !== 'off' && mode !== 'auto')
    throw new Error(`REGISTRY must be off or auto: ${env.REGISTRY}`);
  const username = env.REGISTRY_USERNAME || undefined;
  const password = env.REGISTRY_PASSWORD || undefined;
  if (Boolean(username) !== Boolean(password))
    throw new Error('REGISTRY_USERNAME and REGISTRY_PASSWORD go together');
  if (mode === 'off') return { registry: { kind: 'off' } };
  if (env.REGISTRY_URL) {
    return { registry: { kind: 'external', url: externalUrl(env.REGISTRY_URL), username, password } };
  }
  if (username) throw new Error('REGISTRY_USERNAME/REGISTRY_PASSWORD need REGISTRY_URL');
  const binary = env.REGISTRY_BINARY || DEFAULT_REGISTRY_BINARY;
  const registryPort = port(env.REGISTRY_PORT);
  if (!exists(binary)) return { registry: { kind: 'off' } };
  const dataDir = env.REGISTRY_DATA_DIR ? path.resolve(env.REGISTRY_DATA_DIR) : defaultDataDir(env);
  return { registry: { kind: 'embedded', binary, port: registryPort, dataDir } };
}
