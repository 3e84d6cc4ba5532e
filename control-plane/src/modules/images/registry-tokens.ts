// The two kinds of credentials of the embedded registry:
// - a grant: what an agent hands Docker as username/password for one pull or push. HMAC-signed
//   with a key derived from SECRET_KEY, naming exactly one repository and its actions, valid for
//   a few minutes. It opens nothing at the registry by itself: Docker trades it at the token
//   endpoint for
// - a token: the JWT of the Docker token authentication protocol that the registry checks,
//   whose access is what the grant allows of what Docker asked for.
import { createHmac, randomBytes, sign, timingSafeEqual } from 'node:crypto';
import type { RegistryAction } from './registry.js';
import type { RegistryKeys } from './registry-keys.js';

export const TOKEN_SERVICE = 'gpucloud-registry';
export const TOKEN_ISSUER = 'gpucloud';
/** How long a grant may be traded for tokens. */
export const GRANT_TTL_MS = 5 * 60_000;
/**
 * How long a token is good for. Docker fetches a new one with the grant when it runs out, so it
 * outlives the grant: a push of many gigabytes keeps going past the grant's five minutes.
 */
export const TOKEN_TTL_SECONDS = 30 * 60;
/** The username of every grant (the grant itself is the password). */
export const GRANT_USERNAME = 'gpucloud-grant';

const ACTIONS: readonly RegistryAction[] = ['pull', 'push'];
/** u<userId>/img<imageId> and the like: distribution's repository name grammar, lower case. */
const REPOSITORY = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;

export function isRepositoryName(name: string): boolean {
  return name.length <= 255 && REPOSITORY.test(name);
}

export interface Grant {
  repository: string;
  actions: RegistryAction[];
  /** ms since the epoch */
  expiresAt: number;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

/** `v1.<payload>.<hmac>`, base64url. */
export function signGrant(key: Buffer, grant: Grant): string {
  const payload = Buffer.from(
    JSON.stringify({ r: grant.repository, a: grant.actions, e: grant.expiresAt }),
  ).toString('base64url');
  return `v1.${payload}.${mac(key, payload).toString('base64url')}`;
}

export type GrantCheck = { ok: true; grant: Grant } | { ok: false; reason: 'invalid' | 'expired' };

export function verifyGrant(key: Buffer, password: string, now = Date.now()): GrantCheck {
  const [version, payload, signature, ...rest] = password.split('.');
  if (version !== 'v1' || !payload || !signature || rest.length > 0) return { ok: false, reason: 'invalid' };
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  let parsed: { r?: unknown; a?: unknown; e?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  const { r, a, e } = parsed;
  if (
    typeof r !== 'string' ||
    !isRepositoryName(r) ||
    !Array.isArray(a) ||
    !a.every((x) => ACTIONS.includes(x)) ||
    typeof e !== 'number'
  )
    return { ok: false, reason: 'invalid' };
  if (e <= now) return { ok: false, reason: 'expired' };
  return { ok: true, grant: { repository: r, actions: a as RegistryAction[], expiresAt: e } };
}

/** One entry of a token's `access` (and of a requested scope). */
export interface ResourceActions {
  type: string;
  name: string;
  actions: string[];
}

/**
 * The scopes Docker asks for: `scope` parameters (repeated, or space-separated in one), each
 * `type:name:action,action` (the name may hold ':' only in distribution's `type(class)` forms,
 * so the type is up to the first ':' and the actions after the last). Malformed ones are dropped.
 */
export function parseScopes(scopes: string[]): ResourceActions[] {
  const parsed: ResourceActions[] = [];
  for (const scope of scopes.flatMap((s) => s.split(' ')).filter(Boolean)) {
    const first = scope.indexOf(':');
    const last = scope.lastIndexOf(':');
    if (first <= 0 || last === first) continue;
    parsed.push({
      type: scope.slice(0, first),
      name: scope.slice(first + 1, last),
      actions: scope
        .slice(last + 1)
        .split(',')
        .filter(Boolean),
    });
  }
  return parsed;
}

/**
 * What a grant allows of what was asked: the grant's repository only, and of its actions only
 * those asked for. Anything else (another repository, the catalog, `*`, delete) gets nothing.
 */
export function grantedAccess(grant: Grant, requested: ResourceActions[]): ResourceActions[] {
  const actions = new Set<string>();
  for (const scope of requested) {
    if (scope.type !== 'repository' || scope.name !== grant.repository) continue;
    for (const action of scope.actions) if ((grant.actions as string[]).includes(action)) actions.add(action);
  }
  return actions.size === 0
    ? []
    : [{ type: 'repository', name: grant.repository, actions: [...actions].sort() }];
}

/** An ES256 JWT that distribution 2.8's token access controller accepts (see registry-keys.ts). */
export function signToken(
  keys: Pick<RegistryKeys, 'signingKey' | 'keyId'>,
  claims: { subject: string; access: ResourceActions[]; now?: number; ttlSeconds?: number },
): { token: string; expiresIn: number; issuedAt: string } {
  const now = Math.floor((claims.now ?? Date.now()) / 1000);
  const expiresIn = claims.ttlSeconds ?? TOKEN_TTL_SECONDS;
  const header = { typ: 'JWT', alg: 'ES256', kid: keys.keyId };
  const body = {
    iss: TOKEN_ISSUER,
    sub: claims.subject,
    aud: TOKEN_SERVICE,
    exp: now + expiresIn,
    nbf: now - 1,
    iat: now,
    jti: randomBytes(16).toString('hex'),
    access: claims.access,
  };
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const signingInput = `${encode(header)}.${encode(body)}`;
  // JOSE wants r || s, not DER.
  const signature = sign('sha256', Buffer.from(signingInput), {
    key: keys.signingKey,
    dsaEncoding: 'ieee-p1363',
  });
  return {
    token: `${signingInput}.${signature.toString('base64url')}`,
    expiresIn,
    issuedAt: new Date(now * 1000).toISOString(),
  };
}
