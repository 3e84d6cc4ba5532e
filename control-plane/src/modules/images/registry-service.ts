// The platform's image registry (registry.ts's ImageRegistry) in its three states:
// - embedded: Debian's docker-registry run by the control plane (registry-process.ts), with the
//   control plane as its token server (GET /api/registry/token): grants are scoped to one
//   repository and its actions, for a few minutes;
// - external: REGISTRY_URL (Harbor, a cloud registry) with a robot account: grants are those
//   credentials as they are, not scoped (the README says so);
// - off: no registry; every use answers 503 镜像仓库未配置.
import path from 'node:path';
import { badRequest, notFound, unauthorized, unavailable } from '../../framework/errors.js';
import type { RegistrySettings } from '../../registry-settings.js';
import type { ImageRegistry, RegistryAction, RegistryGrant } from './registry.js';
import { deleteManifest } from './registry-http.js';
import { registryKeys } from './registry-keys.js';
import { freeLoopbackPort, RegistryProcess } from './registry-process.js';
import {
  GRANT_TTL_MS,
  GRANT_USERNAME,
  grantedAccess,
  isRepositoryName,
  parseScopes,
  signGrant,
  signToken,
  TOKEN_SERVICE,
  verifyGrant,
} from './registry-tokens.js';

export type RegistryStatus = 'embedded' | 'external' | 'off';

/** GET /api/registry/token's query and Authorization header. */
export interface TokenRequest {
  authorization: string | undefined;
  service: string | undefined;
  scopes: string[];
}

/** The Docker token authentication protocol's answer. */
export interface TokenAnswer {
  token: string;
  access_token: string;
  expires_in: number;
  issued_at: string;
}

export interface PlatformRegistry extends ImageRegistry {
  readonly status: RegistryStatus;
  /** Starts what runs with the platform (the embedded registry); `realm`: the token endpoint's URL. */
  start(realm: string): Promise<void>;
  close(): Promise<void>;
  /** The token endpoint: a JWT for what a grant allows of the requested scopes. */
  issueToken(request: TokenRequest): TokenAnswer;
  /** The embedded registry's process id while it runs (tests kill it to see it come back). */
  processId(): number | undefined;
}

export const REGISTRY_NOT_CONFIGURED = '镜像仓库未配置';
const BAD_GRANT = '镜像仓库凭据无效或已过期';
const DIGEST = /^sha256:[0-9a-f]{64}$/;

function checkRepository(repository: string): void {
  if (!isRepositoryName(repository)) throw new Error(`not a repository name: ${repository}`);
}

function checkDigest(digest: string): void {
  if (!DIGEST.test(digest)) throw new Error(`not a sha256 digest: ${digest}`);
}

function repositoryFor(userId: number, imageId: number): string {
  if (!Number.isSafeInteger(userId) || userId <= 0 || !Number.isSafeInteger(imageId) || imageId <= 0)
    throw new Error(`bad ids for a repository: user ${userId}, image ${imageId}`);
  return `u${userId}/img${imageId}`;
}

/** The basic-auth password of an Authorization header (the grant), or undefined. */
function basicPassword(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}

class EmbeddedRegistry implements PlatformRegistry {
  readonly status = 'embedded';
  readonly host: string;
  private readonly process: RegistryProcess;

  constructor(
    private readonly keys: ReturnType<typeof registryKeys>,
    settings: { binary: string; dataDir: string; port: number },
    log: (message: string, err?: unknown) => void,
    private readonly now: () => number,
  ) {
    this.process = new RegistryProcess({
      ...settings,
      certificatePem: keys.certificatePem,
      httpSecret: keys.httpSecret,
      log,
    });
    this.host = this.process.address;
  }

  repositoryFor(userId: number, imageId: number): string {
    return repositoryFor(userId, imageId);
  }

  grant(repository: string, actions: RegistryAction[]): RegistryGrant {
    checkRepository(repository);
    const password = signGrant(this.keys.grantKey, {
      repository,
      actions: [...new Set(actions)].sort(),
      expiresAt: this.now() + GRANT_TTL_MS,
    });
    return { server_address: this.host, username: GRANT_USERNAME, password };
  }

  issueToken(request: TokenRequest): TokenAnswer {
    if (request.service !== undefined && request.service !== TOKEN_SERVICE)
      throw badRequest(`未知的镜像仓库服务：${request.service}`, 'UNKNOWN_REGISTRY_SERVICE');
    const password = basicPassword(request.authorization);
    if (password === undefined) throw unauthorized('需要镜像仓库凭据', 'REGISTRY_CREDENTIALS_REQUIRED');
    const checked = verifyGrant(this.keys.grantKey, password, this.now());
    if (!checked.ok) throw unauthorized(BAD_GRANT, 'REGISTRY_GRANT_INVALID');
    const access = grantedAccess(checked.grant, parseScopes(request.scopes));
    const { token, expiresIn, issuedAt } = signToken(this.keys, {
      subject: `grant:${checked.grant.repository}`,
      access,
      now: this.now(),
    });
    return { token, access_token: token, expires_in: expiresIn, issued_at: issuedAt };
  }

  async deleteImage(repository: string, digest: string): Promise<void> {
    checkRepository(repository);
    checkDigest(digest);
    // The control plane signs its own token: delete is never in a grant.
    const { token } = signToken(this.keys, {
      subject: 'control-plane',
      access: [{ type: 'repository', name: repository, actions: ['delete'] }],
      now: this.now(),
      ttlSeconds: 60,
    });
    await deleteManifest(`http://${this.host}`, repository, digest, { bearer: token });
  }

  start(realm: string): Promise<void> {
    return this.process.start(realm);
  }

  close(): Promise<void> {
    return this.process.close();
  }

  processId(): number | undefined {
    return this.process.pid;
  }
}

class ExternalRegistry implements PlatformRegistry {
  readonly status = 'external';
  readonly host: string;

  constructor(private readonly settings: Extract<RegistrySettings, { kind: 'external' }>) {
    this.host = new URL(settings.url).host;
  }

  repositoryFor(userId: number, imageId: number): string {
    return repositoryFor(userId, imageId);
  }

  // The robot account as it is: an external registry's own permissions are all there is.
  grant(repository: string, _actions: RegistryAction[]): RegistryGrant {
    checkRepository(repository);
    return {
      server_address: this.host,
      username: this.settings.username ?? '',
      password: this.settings.password ?? '',
    };
  }

  issueToken(): TokenAnswer {
    throw notFound('镜像仓库不使用平台签发的令牌', 'REGISTRY_TOKENS_NOT_USED');
  }

  async deleteImage(repository: string, digest: string): Promise<void> {
    checkRepository(repository);
    checkDigest(digest);
    const { username, password } = this.settings;
    await deleteManifest(this.settings.url, repository, digest, {
      basic: username && password ? { username, password } : undefined,
    });
  }

  async start(): Promise<void> {}
  async close(): Promise<void> {}
  processId(): undefined {
    return undefined;
  }
}

const notConfigured = () => unavailable(REGISTRY_NOT_CONFIGURED, 'REGISTRY_NOT_CONFIGURED');

class NoRegistry implements PlatformRegistry {
  readonly status = 'off';
  readonly host = '';

  repositoryFor(userId: number, imageId: number): string {
    return repositoryFor(userId, imageId);
  }

  grant(): RegistryGrant {
    throw notConfigured();
  }

  issueToken(): TokenAnswer {
    throw notConfigured();
  }

  async deleteImage(): Promise<void> {
    throw notConfigured();
  }

  async start(): Promise<void> {}
  async close(): Promise<void> {}
  processId(): undefined {
    return undefined;
  }
}

export interface RegistryOptions {
  settings: RegistrySettings | undefined;
  secretKey: Buffer;
  log: (message: string, err?: unknown) => void;
  /** The clock of grants and tokens (tests move it). */
  now?: () => number;
}

/**
 * The registry of this configuration. Nothing runs yet: start() (once the API listens, as the
 * embedded registry's realm is its token endpoint) and close() go with the platform. An embedded
 * registry's port 0 becomes a free port here, so `host` is known from the start.
 */
export async function createRegistry(options: RegistryOptions): Promise<PlatformRegistry> {
  const { settings, log } = options;
  if (!settings || settings.kind === 'off') return new NoRegistry();
  if (settings.kind === 'external') return new ExternalRegistry(settings);
  const port = settings.port === 0 ? await freeLoopbackPort() : settings.port;
  return new EmbeddedRegistry(
    registryKeys(options.secretKey),
    { binary: settings.binary, dataDir: path.resolve(settings.dataDir), port },
    log,
    options.now ?? Date.now,
  );
}

/** The token endpoint's realm for an API listening on host:port (a wildcard address → loopback). */
export function tokenRealm(host: string, port: number): string {
  const reachable = host === '' || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const hostPart = reachable.includes(':') ? `[${reachable}]` : reachable;
  return `http://${hostPart}:${port}/api/registry/token`;
}
