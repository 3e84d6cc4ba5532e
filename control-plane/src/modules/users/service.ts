import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../framework/db-errors.js';
import { conflict, notFound } from '../../framework/errors.js';
import type { AdminUserReply, ProfileReply } from './contract.js';
import type { User } from './model.js';
import { hashPassword } from './passwords.js';
import type { NewUser, UserPatch, UsersRepository } from './repository.js';

/** The profile and the admin's view of a user (the shapes live in contract.ts). */
export type Profile = ProfileReply;

/** The balance is billing's (billing_accounts): the profile shows it, read through this. */
export interface Balances {
  /** Fen per user id, zero for a user billing has no row for. */
  balancesFen(userIds: number[]): Promise<Map<number, number>>;
}

export function toProfile(user: User, balanceFen: number): Profile {
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
    balance: balanceFen / 100,
  };
}

export type AdminUserView = AdminUserReply;

export function toAdminUserView(user: User, balanceFen: number): AdminUserView {
  return {
    ...toProfile(user, balanceFen),
    disabled: user.disabled,
    created_at: user.created_at.toISOString(),
    last_login_at: user.last_login_at ? user.last_login_at.toISOString() : null,
  };
}

/** The OpenSSH public keys of the user's profile, one per line. */
export function authorizedKeys(user: Pick<User, 'ssh_key'>): string[] {
  return (user.ssh_key ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export interface UserHooks {
  /** Runs inside the transaction creating a user (billing books the new user's trial credit). */
  created(user: User, trx: Knex.Transaction): Promise<void>;
}

/** What a session carries of its user: a change of these is announced to the sessions' cache. */
const SESSION_FIELDS = ['disabled', 'is_admin', 'nickname', 'password_hash'] as const;

export interface AccessChanges {
  /** The user's sessions must be read again on every replica (the auth module's cache). */
  changed(userId: number): Promise<void>;
}

export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly d: { hooks: UserHooks; balances: Balances; access?: AccessChanges },
  ) {}

  // ------------------------------------------------------------------ views with the balance

  async profile(user: User): Promise<Profile> {
    const balances = await this.d.balances.balancesFen([user.id]);
    return toProfile(user, balances.get(user.id) ?? 0);
  }

  async adminView(user: User): Promise<AdminUserView> {
    const balances = await this.d.balances.balancesFen([user.id]);
    return toAdminUserView(user, balances.get(user.id) ?? 0);
  }

  // ------------------------------------------------------------------ for other modules

  /** The usernames of these users (listings of other modules name the owner). */
  usernames(userIds: number[]): Promise<Map<number, string>> {
    return this.repo.usernames(userIds);
  }

  /** The ids of users whose username contains `fragment` (case-insensitive): admin filters. */
  idsMatching(fragment: string): Promise<number[]> {
    return this.repo.idsMatching(fragment);
  }

  /** The users with exactly these usernames (those not found are left out). */
  byUsernames(usernames: string[]): Promise<{ id: number; username: string }[]> {
    return this.repo.byUsernames(usernames);
  }

  /** Where a notice reaches the user: the e-mail, and the phone once verified. */
  async contact(userId: number): Promise<{ email: string | null; phone: string | null } | undefined> {
    const user = await this.repo.findById(userId);
    return user ? { email: user.email, phone: user.is_phone_verified ? user.phone : null } : undefined;
  }

  /** A new (non-admin) user, with the hooks run in the same transaction (the trial credit). */
  private insertNew(values: NewUser): Promise<User> {
    return this.repo.transaction(async (trx) => {
      const user = await this.repo.insert(values, trx);
      await this.d.hooks.created(user, trx);
      return user;
    });
  }

  findById(id: number): Promise<User | undefined> {
    return this.repo.findById(id);
  }

  findByUsername(username: string): Promise<User | undefined> {
    return this.repo.findByUsername(username);
  }

  async assertUsernameFree(username: string): Promise<void> {
    if (await this.repo.findByUsername(username)) throw conflict('用户名已存在', 'USERNAME_TAKEN');
  }

  async create(params: {
    username: string;
    password: string;
    email: string | null;
    emailVerified?: boolean;
  }): Promise<User> {
    if (await this.repo.findByUsername(params.username)) throw conflict('用户名已存在', 'USERNAME_TAKEN');
    const password_hash = await hashPassword(params.password);
    try {
      return await this.insertNew({
        username: params.username,
        password_hash,
        email: params.email,
        is_email_verified: params.emailVerified ?? false,
      });
    } catch (err) {
      // Two registrations racing for one name: the unique index decides.
      if (isUniqueViolation(err)) throw conflict('用户名已存在', 'USERNAME_TAKEN');
      throw err;
    }
  }

  findByWechatOpenid(openid: string): Promise<User | undefined> {
    return this.repo.findByWechatOpenid(openid);
  }

  /** A first WeChat sign-in: an account named wx_xxxxxxxx with an unusable random password. */
  async createFromWechat(params: { openid: string; nickname: string }): Promise<User> {
    const password_hash = await hashPassword(randomBytes(32).toString('base64url'));
    for (let attempt = 0; ; attempt++) {
      const username = `wx_${randomBytes(6).toString('hex')}`;
      try {
        return await this.insertNew({
          username,
          password_hash,
          email: null,
          nickname: params.nickname.slice(0, 64) || null,
          wechat_openid: params.openid,
          wechat_nickname: params.nickname.slice(0, 128),
        });
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 3) throw err;
        // The same WeChat identity signing in twice at once: the first account wins.
        const existing = await this.repo.findByWechatOpenid(params.openid);
        if (existing) return existing;
      }
    }
  }

  async bindWechat(userId: number, params: { openid: string; nickname: string }): Promise<User> {
    const holder = await this.repo.findByWechatOpenid(params.openid);
    if (holder && holder.id !== userId) throw conflict('该微信已绑定其他账号', 'WECHAT_TAKEN');
    const user = await this.require(userId);
    if (user.wechat_openid && user.wechat_openid !== params.openid) {
      throw conflict('当前账号已绑定其他微信', 'WECHAT_ALREADY_BOUND');
    }
    try {
      return await this.patch(userId, {
        wechat_openid: params.openid,
        wechat_nickname: params.nickname.slice(0, 128),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('该微信已绑定其他账号', 'WECHAT_TAKEN');
      throw err;
    }
  }

  setEmailVerified(userId: number, email: string): Promise<User> {
    return this.patch(userId, { email, is_email_verified: true });
  }

  setPhoneVerified(userId: number, phone: string): Promise<User> {
    return this.patch(userId, { phone, is_phone_verified: true });
  }

  /** "Modify" on a verified phone: it goes back to unverified until a new code is entered. */
  resetPhone(userId: number): Promise<User> {
    return this.patch(userId, { is_phone_verified: false });
  }

  setSshKey(userId: number, sshKey: string): Promise<User> {
    return this.patch(userId, { ssh_key: sshKey || null });
  }

  async setPassword(userId: number, password: string): Promise<void> {
    await this.patch(userId, { password_hash: await hashPassword(password) });
  }

  async recordLogin(userId: number): Promise<void> {
    await this.patch(userId, { last_login_at: new Date() });
  }

  setDisabled(userId: number, disabled: boolean): Promise<User> {
    return this.patch(userId, { disabled, disabled_at: disabled ? new Date() : null });
  }

  setAdmin(userId: number, isAdmin: boolean): Promise<User> {
    return this.patch(userId, { is_admin: isAdmin });
  }

  async search(filter: { page: number; size: number; keyword?: string | undefined }) {
    const { items, total } = await this.repo.search({
      keyword: filter.keyword,
      offset: (filter.page - 1) * filter.size,
      limit: filter.size,
    });
    const balances = await this.d.balances.balancesFen(items.map((u) => u.id));
    return { items: items.map((u) => toAdminUserView(u, balances.get(u.id) ?? 0)), total };
  }

  async require(userId: number): Promise<User> {
    const user = await this.repo.findById(userId);
    if (!user) throw notFound('用户不存在', 'USER_NOT_FOUND');
    return user;
  }

  private async patch(userId: number, values: UserPatch): Promise<User> {
    const user = await this.repo.patch(userId, values);
    if (!user) throw notFound('用户不存在', 'USER_NOT_FOUND');
    if (SESSION_FIELDS.some((field) => field in values)) await this.d.access?.changed(userId);
    return user;
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
