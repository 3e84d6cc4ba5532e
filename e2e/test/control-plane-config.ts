import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '@gpucloud/control-plane/config';

/**
 * A control plane's configuration for a test or a bench: every setting as a deployment without
 * overrides has it (lifecycle, storage, money), on a free port of 127.0.0.1, with a fresh secret
 * key, no console, no bootstrap node and no agent TLS; then `overrides`.
 */
export function controlPlaneConfig(
  overrides: Partial<Config> & Pick<Config, 'databaseUrl' | 'adminUsername' | 'adminPassword'>,
): Config {
  const defaults = loadConfig({
    DATABASE_URL: 'postgres://set-below',
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  return {
    ...defaults,
    port: 0,
    host: '127.0.0.1',
    webDist: undefined,
    bootstrapNode: undefined,
    agentTls: undefined,
    // No image registry unless a test asks for one (the default would spawn one on port 5000).
    registry: { kind: 'off' },
    ...overrides,
  };
}
