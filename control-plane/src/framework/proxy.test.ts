import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientInfo, parseTrustProxy, type TrustProxy, trustedClient } from './proxy.js';
import { securityHeaders } from './security-headers.js';

const sock = (remoteAddress: string, encrypted = false) => ({ remoteAddress, encrypted });

describe('TRUST_PROXY', () => {
  it('parses none, a hop count, and a list of addresses, CIDRs and names', () => {
    expect(parseTrustProxy(undefined).kind).toBe('none');
    expect(parseTrustProxy('').kind).toBe('none');
    expect(parseTrustProxy('false').kind).toBe('none');
    expect(parseTrustProxy('2')).toEqual({ kind: 'hops', hops: 2 });
    const list = parseTrustProxy('10.0.0.0/8, 192.168.1.5 ::1 loopback');
    expect(list.kind).toBe('list');
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/prefix/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/not an address/);
  });

  it('trusting none: the socket is the client, whatever X-Forwarded-* say', () => {
    const info = clientInfo(parseTrustProxy(undefined), {
      socket: sock('::ffff:127.0.0.1'),
      headers: { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https', host: 'a.test' },
    });
    expect(info).toEqual({ ip: '127.0.0.1', https: false, host: 'a.test' });
  });

  it('a trusted proxy vouches for the address before it; an untrusted hop ends the chain', () => {
    const trust = parseTrustProxy('10.0.0.0/8');
    const headers = {
      'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.2.3',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'gpu.example.com',
      host: 'internal:8080',
    };
    // socket 10.0.0.1 (trusted) → 10.1.2.3 (trusted) → 203.0.113.9 (the client; 6.6.6.6 is its claim).
    expect(clientInfo(trust, { socket: sock('10.0.0.1'), headers })).toEqual({
      ip: '203.0.113.9',
      https: true,
      host: 'gpu.example.com',
    });
    // The same headers straight from an untrusted peer are ignored.
    expect(clientInfo(trust, { socket: sock('198.51.100.1'), headers })).toEqual({
      ip: '198.51.100.1',
      https: false,
      host: 'internal:8080',
    });
  });

  it('a hop count trusts that many proxies from the socket outwards', () => {
    const headers = { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' };
    expect(clientInfo({ kind: 'hops', hops: 1 }, { socket: sock('10.0.0.1'), headers }).ip).toBe(
      '203.0.113.9',
    );
    expect(clientInfo({ kind: 'hops', hops: 2 }, { socket: sock('10.0.0.1'), headers }).ip).toBe('6.6.6.6');
    expect(clientInfo({ kind: 'hops', hops: 5 }, { socket: sock('10.0.0.1'), headers }).ip).toBe('6.6.6.6');
  });
});

describe('trustedClient and securityHeaders on a server', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    const trust: TrustProxy = parseTrustProxy('127.0.0.2');
    const app = new Koa();
    app.use(trustedClient(trust));
    app.use(securityHeaders());
    app.use((ctx) => {
      ctx.body = { ip: ctx.ip };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const get = (from: string, headers: Record<string, string>) =>
    new Promise<{ ip: string; hsts: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/', localAddress: from, headers }, (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () =>
          resolve({
            ip: (JSON.parse(text) as { ip: string }).ip,
            hsts: res.headers['strict-transport-security'] as string | undefined,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  it('uses X-Forwarded-For and -Proto from the trusted proxy only', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };
    expect(await get('127.0.0.2', headers)).toEqual({
      ip: '203.0.113.7',
      hsts: 'max-age=31536000; includeSubDomains',
    });
    expect(await get('127.0.0.3', headers)).toEqual({ ip: '127.0.0.3', hsts: undefined });
  });
});
