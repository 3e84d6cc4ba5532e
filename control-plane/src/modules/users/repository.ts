import type { Knex } from 'knex';
import { type User, UserModel } from './model.js';

function plain(model: UserModel): User {
  return { ...model.toJSON() } as User;
}

export type UserPatch = Partial<
  Pick<
    User,
    | 'password_hash'
    | 'email'
    | 'phone'
    | 'nickname'
    | 'ssh_key'
    | 'is_admin'
    | 'disabled'
    | 'disabled_at'
    | 'is_phone_verified'
    | 'is_email_verified'
    | 'wechat_openid'
    | 'wechat_nickname'
    | 'last_login_at'
  >
>;

export interface NewUser {
  username: string;
  password_hash: string;
  email: string | null;
  is_admin?: boolean;
  is_email_verified?: boolean;
  nickname?: string | null;
  wechat_openid?: string | null;
  wechat_nickname?: string | null;
}

/** Owns users. Queries run on this repository's knex, not Objection's global one (several
 * control planes may live in one process, as in tests). */
export class UsersRepository {
  constructor(private readonly knex: Knex) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(fn);
  }

  async findById(id: number): Promise<User | undefined> {
    const row = await UserModel.query(this.knex).findById(id);
    return row ? plain(row) : undefined;
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const row = await UserModel.query(this.knex).whereRaw('lower(username) = lower(?)', [username]).first();
    return row ? plain(row) : undefined;
  }

  async findByWechatOpenid(openid: string): Promise<User | undefined> {
    const row = await UserModel.query(this.knex).where('wechat_openid', openid).first();
    return row ? plain(row) : undefined;
  }

  async insert(values: NewUser, trx?: Knex.Transaction): Promise<User> {
    const row = await UserModel.query(trx ?? this.knex)
      .insert(values)
      .returning('*');
    return plain(row);
  }

  async updatePasswordHash(id: number, passwordHash: string): Promise<void> {
    await UserModel.query(this.knex).patch({ password_hash: passwordHash }).where('id', id);
  }

  async setAdmin(id: number, isAdmin: boolean): Promise<void> {
    await UserModel.query(this.knex).patch({ is_admin: isAdmin }).where('id', id);
  }

  async patch(id: number, values: UserPatch): Promise<User | undefined> {
    const row = await UserModel.query(this.knex)
      .patch({ ...values, updated_at: new Date() })
      .where('id', id)
      .returning('*')
      .first();
    return row ? plain(row) : undefined;
  }

  async usernames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await UserModel.query(this.knex)
      .whereIn('id', [...new Set(ids)])
      .select('id', 'username');
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  async idsMatching(fragment: string): Promise<number[]> {
    const rows = await UserModel.query(this.knex).modify('containing', fragment, ['username']).select('id');
    return rows.map((r) => r.id);
  }

  async byUsernames(usernames: string[]): Promise<{ id: number; username: string }[]> {
    if (usernames.length === 0) return [];
    const rows = await UserModel.query(this.knex).whereIn('username', usernames).select('id', 'username');
    return rows.map((r) => ({ id: r.id, username: r.username }));
  }

  /** Admin search over username, nickname, e-mail and phone, newest first. */
  async search(filter: {
    keyword?: string | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: User[]; total: number }> {
    const q = UserModel.query(this.knex);
    if (filter.keyword) q.modify('containing', filter.keyword, ['username', 'nickname', 'email', 'phone']);
    const [rows, total] = await Promise.all([
      q.clone().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit),
      q.clone().resultSize(),
    ]);
    return { items: rows.map(plain), total };
  }
}
