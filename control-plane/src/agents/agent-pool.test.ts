import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../framework/secret-box.js';
import { PlatformPki } from '../modules/fleet/pki.js';
import type { PlatformTls } from './agent-client.js';
import { AgentPool } from './agent-pool.js';

let real: PlatformTls;
beforeAll(async () => {
  let row: { certificate_pem: string; key_sealed: string } | undefined;
  const pki = new PlatformPki({
    store: {
      read: async () => row,
      insertIfAbsent: async (ca) => {
        row ??= ca;
      },
    },
    secrets: new SecretBox(randomBytes(32)),
    log: () => {},
  });
  await pki.start();
  pki.stop();
  real = pki.clientCredentials() as PlatformTls;
});

const fakeTls = (generation: number): PlatformTls => ({ ...real, generation });

describe('the agent pool', () => {
  it('keeps one client per endpoint; platform nodes get new ones after a new client certificate', () => {
    let tls: PlatformTls | undefined;
    const pool = new AgentPool({ callTimeoutMs: 1000, platformTls: () => tls });
    try {
      const configured = { address: '127.0.0.1:1', token: 't' };
      const platform = { address: '127.0.0.1:2', token: 't', tls: 'platform' as const, id: 7 };
      // Before the CA is loaded a platform node is still given a client (that cannot connect).
      const early = pool.get(platform);
      tls = fakeTls(1);
      const first = pool.get(platform);
      expect(first).not.toBe(early);
      expect(pool.get(platform)).toBe(first);
      const plain = pool.get(configured);
      expect(pool.get(configured)).toBe(plain);
      tls = fakeTls(2);
      pool.platformRenewed();
      const second = pool.get(platform);
      expect(second).not.toBe(first);
      expect(pool.get(platform)).toBe(second);
      // Nodes added by hand keep their channel.
      expect(pool.get(configured)).toBe(plain);
      pool.forget(platform);
      expect(pool.get(platform)).not.toBe(second);
    } finally {
      pool.close();
    }
  });

  it('dials a platform node by its id only', () => {
    const pool = new AgentPool({ callTimeoutMs: 1000 });
    expect(() => pool.get({ address: '127.0.0.1:2', token: 't', tls: 'platform' })).toThrow(/id/);
    pool.close();
  });
});
