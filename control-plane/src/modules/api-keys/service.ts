import { createHash, randomBytes } from 'node:crypto';
import type { AuthUser } from '../../framework/auth.js';
import { badRequest, forbidden, notFound } from '../../framework/errors.js';
import type { SecretBox } from '../../framework/secret-box.js';
import { type RateLimit, type RateLimiter, rule } from '../rate-limits/service.js';
import { verifyPassword } from '../users/passwords.js';
import type { UsersService } from '../users/service.js';
import type { ApiKeyListReply, ApiKeyReply, RevealedApiKeyReply } from './contract.js';
import type { ApiKeyRow, ApiKeysRepository } from './repository.js';

export const MAX_API_KEYS = 5;
/** The server's detail for the limit; the console shows 您已达到最大 API 密钥数量限制 (5个). */
export const MSG_API_KEY_LIMIT = 'Maximum number of API keys reached';
const KEY_PREFIX = 'gpuc_';

/** A key as listed, its `key` masked (the shape lives in contract.ts). */
export type ApiKeyView = ApiKeyReply;
/** The answer of creating a key: the same, with the full key (shown once). */
export type CreatedApiKey = ApiKeyReply;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function maskKey(key: string): string {
  return `${key.slice(0, 6)}${'*'.repeat(8)}${key.slice(-4)}`;
}

function view(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    key: row.key_masked,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}

/**
 * API keys for X-API-Key on /api/mcp/*. A key is 240 random bits, so a plain SHA-256 is enough to
 * look it up; the AES-GCM copy (SECRET_KEY outside the database) serves the console's reveal.
 */
export const MSG_REVEAL_PASSWORD = '查看完整密钥需要验证登录密码';
export const MSG_REVEAL_WRONG_PASSWORD = '登录密码错误，无法查看密钥';
export const MSG_REVEAL_TOO_MANY = '密码错误次数过多，请 {minutes} 分钟后再试';

export class ApiKeysService {
  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly users: UsersService,
    private readonly secrets: SecretBox,
    private readonly limiter: RateLimiter,
    private readonly confirmLimit: RateLimit,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(user: AuthUser): Promise<ApiKeyListReply> {
    const rows = await this.repo.listForUser(user.id);
    return { items: rows.map(view), total: rows.length };
  }

  async create(user: AuthUser, name: string): Promise<CreatedApiKey> {
    const key = `${KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
    const row = await this.repo.insertBelowLimit(
      {
        user_id: user.id,
        name,
        key_hash: hashKey(key),
        key_encrypted: this.secrets.seal(key),
        key_masked: maskKey(key),
      },
      MAX_API_KEYS,
    );
    if (!row) throw badRequest(MSG_API_KEY_LIMIT, 'API_KEY_LIMIT');
    return { ...view(row), key };
  }

  /** The full key, to its owner only after the current password proves it is them (403 otherwise). */
  async reveal(user: AuthUser, id: number, password: string | undefined): Promise<RevealedApiKeyReply> {
    // Ownership first: another user's key is 404 whatever the password.
    const row = await this.repo.findForUser(user.id, id);
    if (!row) throw notFound('API 密钥不存在', 'API_KEY_NOT_FOUND');
    if (!password) throw forbidden(MSG_REVEAL_PASSWORD, 'PASSWORD_REQUIRED');
    const failures = rule(this.confirmLimit, MSG_REVEAL_TOO_MANY);
    const key = `password-confirm:${user.id}`;
    await this.limiter.check(failures, key);
    const owner = await this.users.findById(user.id);
    if (!owner || !(await verifyPassword(owner.password_hash, password))) {
      await this.limiter.record(failures, key);
      throw forbidden(MSG_REVEAL_WRONG_PASSWORD, 'WRONG_PASSWORD');
    }
    return { id: row.id, key: this.secrets.open(row.key_encrypted) };
  }

  async remove(user: AuthUser, id: number): Promise<void> {
    if (!(await this.repo.deleteForUser(user.id, id))) throw notFound('API 密钥不存在', 'API_KEY_NOT_FOUND');
  }

  /** The owner of a key, or undefined for an unknown key or a disabled owner. */
  async authenticate(key: string): Promise<AuthUser | undefined> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 128) return undefined;
    const row = await this.repo.findByHash(hashKey(key));
    if (!row) return undefined;
    const user = await this.users.findById(row.user_id);
    if (!user || user.disabled) return undefined;
    await this.repo.touch(row.id, this.now());
    return { id: user.id, username: user.username, nickname: user.nickname, isAdmin: user.is_admin };
  }
}
