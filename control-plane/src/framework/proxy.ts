import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { Context, Next } from 'koa';

/**
 * Which peers may speak for the client through X-Forwarded-For / -Proto / -Host (TRUST_PROXY):
 * none (the default: the socket's address is the client), the nearest `hops` proxies whoever they
 * are, or the proxies whose address is in a list of addresses and CIDRs.
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'list'; entries: string[]; list: BlockList };

const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
};

/** Parses TRUST_PROXY: unset or "false" = trust none; a number = that many hops; else a list. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || /^(0|false|no|off|none)$/i.test(text)) return { kind: 'none' };
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) };
  if (/^(true|yes|on)$/i.test(text)) {
    throw new Error(
      "TRUST_PROXY=true would believe any client; give the proxies' addresses/CIDRs or a hop count (TRUST_PROXY 不能设为 true，请填写代理地址或跳数)",
    );
  }
  const list = new BlockList();
  const entries: string[] = [];
  for (const raw of text.split(/[\s,]+/).filter(Boolean)) {
    const items = NAMED[raw.toLowerCase()] ?? [raw];
    for (const item of items) {
      const [address = '', bits] = item.split('/');
      const family = isIP(address);
      if (!family) throw new Error(`TRUST_PROXY: not an address or CIDR: ${raw}`);
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address, type);
      else {
        const prefix = Number(bits);
        if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32))
          throw new Error(`TRUST_PROXY: bad prefix length: ${raw}`);
        list.addSubnet(address, prefix, type);
      }
      entries.push(item);
    }
  }
  return { kind: 'list', entries, list };
}

/** '::ffff:1.2.3.4' → '1.2.3.4'; strips brackets and a zone. */
export function normalizeAddress(address: string): string {
  let a = address.trim();
  if (a.startsWith('[') && a.includes(']')) a = a.slice(1, a.indexOf(']'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped?.[1]) return mapped[1];
  return a;
}

function trusted(trust: TrustProxy, address: string, hop: number): boolean {
  if (trust.kind === 'none') return false;
  if (trust.kind === 'hops') return hop < trust.hops;
  const family = isIP(address);
  if (!family) return false;
  return trust.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

export interface ClientInfo {
  /** The client's address as far as trusted proxies vouch for it. */
  ip: string;
  /** Whether the client spoke HTTPS (TLS here, or X-Forwarded-Proto from a trusted proxy). */
  https: boolean;
  /** The host the client asked for (X-Forwarded-Host from a trusted proxy, else Host). */
  host: string;
}

type Headers = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

/** Works out the client from the socket and the forwarded headers the trusted proxies set. */
export function clientInfo(
  trust: TrustProxy,
  req: { socket: { remoteAddress?: string | undefined; encrypted?: boolean }; headers: Headers },
): ClientInfo {
  const socketAddress = normalizeAddress(req.socket.remoteAddress ?? '');
  const xff = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(xff) ? xff.join(',') : (xff ?? ''))
    .split(',')
    .map((s) => normalizeAddress(s))
    .filter(Boolean)
    .reverse();
  // From the socket outwards: each trusted hop vouches for the address before it.
  const chain = [socketAddress, ...forwarded];
  let i = 0;
  while (i < chain.length - 1 && trusted(trust, chain[i] ?? '', i)) i++;
  const peerTrusted = trusted(trust, socketAddress, 0);
  const encrypted = Boolean(req.socket.encrypted);
  const proto = peerTrusted ? first(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const forwardedHost = peerTrusted ? first(req.headers['x-forwarded-host']) : undefined;
  return {
    ip: chain[i] ?? socketAddress,
    https: encrypted || proto === 'https',
    host: forwardedHost ?? first(req.headers.host) ?? '',
  };
}

const clients = new WeakMap<IncomingMessage, ClientInfo>();

/** Sets ctx.ip from the trusted chain and remembers whether the client used HTTPS. */
export function trustedClient(trust: TrustProxy) {
  return async (ctx: Context, next: Next) => {
    const info = clientInfo(trust, { socket: ctx.req.socket, headers: ctx.req.headers });
    ctx.request.ip = info.ip;
    clients.set(ctx.req, info);
    await next();
  };
}

function infoOf(ctx: { req: IncomingMessage }): ClientInfo {
  return (
    clients.get(ctx.req) ?? clientInfo({ kind: 'none' }, { socket: ctx.req.socket, headers: ctx.req.headers })
  );
}

/** Whether the client's request came over HTTPS (per the trusted proxy). */
export function isHttps(ctx: { req: IncomingMessage }): boolean {
  return infoOf(ctx).https;
}

/** The origin the client used, e.g. https://gpu.example.com (per the trusted proxy). */
export function requestOrigin(ctx: { req: IncomingMessage }): string {
  const info = infoOf(ctx);
  return `${info.https ? 'https' : 'http'}://${info.host}`;
}
