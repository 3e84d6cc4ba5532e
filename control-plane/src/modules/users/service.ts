import { randomBytes } from 'node:crypto';
import { conflict } from '../../framework/errors.js';
import type { User } from './model.js';
import { hashPassword } from './passwords.js';
import type { UsersRepository } from './repository.js';

export interface Profile {
  id: number;
  username: string;
  nickname: string | null;
  email: string | null;
  phone: string | null;
  ssh_key: string | null;
  is_admin: boolean;
  is_phone_verified: boolean;
  is_email_verified: boolean;
  is_wechat_bound: boolean;
  wechat_nickname: string | null;
  balance: number;
}

export function toProfile(user: User): Profile {
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    email: user.email,
    phone: user.phone,
    ssh_key: user.ssh_key,
    is_admin: user.is_admin,
    is_phone_verified: user.is_phone_verified,
    is_email_verified: user.is_email_verified,
    is_wechat_bound: user.wechat_openid !== null,
    wechat_nickname: user.wechat_nickname,
    balance: user.balance_fen / 100,
  };
}

/** The OpenSSH public keys of the user's profile, one per line. */
export function authorizedKeys(user: Pick<User, 'ssh_key'>): string[] {
  return (user.ssh_key ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export class UsersService {
  constructor(private readonly repo: UsersRepository) {}

  findById(id: number): Promise<User | undefined> {
    return this.repo.findById(id);
  }

  findByUsername(username: string): Promise<User | undefined> {
    return this.repo.findByUsername(username);
  }

  async create(params: { username: string; password: string; email: string | null }): Promise<User> {
    if (await this.repo.findByUsername(params.username)) throw conflict('用户名已存在', 'USERNAME_TAKEN');
    const password_hash = await hashPassword(params.password);
    try {
      return await this.repo.insert({ username: params.username, password_hash, email: params.email });
    } catch (err) {
      // Two registrations racing for one name: the unique index decides.
      if (isUniqueViolation(err)) throw conflict('用户名已存在', 'USERNAME_TAKEN');
      throw err;
    }
  }

  /**
   * Makes sure the configured admin exists. Returns the password when one was generated
   * (so it can be printed once), undefined otherwise.
   */
  async ensureAdmin(username: string, password: string | undefined): Promise<{ generatedPassword?: string }> {
    const existing = await this.repo.findByUsername(username);
    if (existing) {
      if (!existing.is_admin) await this.repo.setAdmin(existing.id, true);
      if (password) await this.repo.updatePasswordHash(existing.id, await hashPassword(password));
      return {};
    }
    const chosen = password ?? randomBytes(12).toString('base64url');
    await this.repo.insert({
      username,
      password_hash: await hashPassword(chosen),
      email: null,
      is_admin: true,
    });
    return password ? {} : { generatedPassword: chosen };
  }
}

export function isUniqueViolation(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && 'code' in err && (err as { code: unknown }).code === '23505'
  );
}
