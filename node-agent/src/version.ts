import { readFileSync } from 'node:fs';

/** The agent's version, from its package.json. */
export const AGENT_VERSION: string = (() => {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
})();
