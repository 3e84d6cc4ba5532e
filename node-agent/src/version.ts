// The agent's version and build. From a checkout: the version of node-agent/package.json and the
// build "source". From a bundle (control-plane/src/modules/fleet/bundle.ts): the bundle's
// VERSION file, beside lib/ and bin/ (`gpucloud-agent/VERSION`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a bundle's VERSION file holds (JSON). */
export interface BundleVersion {
  version: string;
  build: string;
  protocol: number;
}

function readJson(url: URL): unknown {
  try {
    return JSON.parse(readFileSync(url, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The VERSION of the bundle this code runs from; undefined when it runs from a checkout. */
function bundleVersion(): BundleVersion | undefined {
  // src/version.ts in a checkout (../VERSION = node-agent/VERSION, absent), lib/agent.mjs in a
  // bundle (../VERSION = the bundle's VERSION).
  const parsed = readJson(new URL('../VERSION', import.meta.url));
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { version, build, protocol } = parsed as Record<string, unknown>;
  if (typeof version !== 'string' || typeof build !== 'string') return undefined;
  return { version, build, protocol: typeof protocol === 'number' ? protocol : 0 };
}

const BUNDLE = bundleVersion();

/** The agent's version: the bundle's, else node-agent/package.json's. */
export const AGENT_VERSION: string = (() => {
  if (BUNDLE) return BUNDLE.version;
  const pkg = readJson(new URL('../package.json', import.meta.url));
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
})();

/** The bundle's build (12 hex digits of its SHA-256), or "source" when run from a checkout. */
export const AGENT_BUILD: string = BUNDLE?.build ?? 'source';

/** The folder of the bundle this code runs from (`…/versions/<version>-<build>`); undefined from a checkout. */
export function bundleDir(): string | undefined {
  if (!BUNDLE) return undefined;
  return path.dirname(path.dirname(fileURLToPath(import.meta.url)));
}

/**
 * The install this bundle belongs to (`/opt/gpucloud/agent` when it runs from
 * `/opt/gpucloud/agent/versions/<version>-<build>`); undefined from a checkout or a bundle
 * unpacked elsewhere.
 */
export function defaultInstallDir(): string | undefined {
  const dir = bundleDir();
  if (!dir) return undefined;
  const versions = path.dirname(dir);
  if (path.basename(versions) !== 'versions') return undefined;
  const install = path.dirname(versions);
  return existsSync(install) ? install : undefined;
}
