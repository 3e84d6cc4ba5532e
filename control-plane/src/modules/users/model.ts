import { Model, type Modifiers, type QueryBuilder } from 'objection';

const nullable = (type: string) => ({ type: [type, 'null'] });

/** `%fragment%` for ILIKE, the fragment's own % _ \ taken literally. */
const containing = (fragment: string) => `%${fragment.replace(/[%_\\]/g, '\\$&')}%`;

/** A user: the identity, how to sign in and be reached. The money is billing's (billing_accounts). */
export class UserModel extends Model {
  static override tableName = 'users';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // Timestamps (last_login_at, disabled_at, created_at, updated_at) are written as Date objects,
  // which JSON Schema cannot describe: they stay out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['username', 'password_hash'],
    properties: {
      id: { type: 'integer' },
      username: { type: 'string' },
      password_hash: { type: 'string' },
      email: nullable('string'),
      phone: nullable('string'),
      nickname: nullable('string'),
      ssh_key: nullable('string'),
      is_admin: { type: 'boolean' },
      disabled: { type: 'boolean' },
      is_phone_verified: { type: 'boolean' },
      is_email_verified: { type: 'boolean' },
      wechat_openid: nullable('string'),
      wechat_nickname: nullable('string'),
    },
  };

  static override modifiers: Modifiers<QueryBuilder<UserModel>> = {
    /** Users with `fragment` (case-insensitive, taken literally) in any of these columns. */
    containing(query, fragment: string, columns: string[]) {
      const like = containing(fragment);
      query.where((w) => {
        for (const column of columns) w.orWhereILike(`users.${column}`, like);
      });
    },
  };

  id!: number;
  username!: string;
  password_hash!: string;
  email!: string | null;
  phone!: string | null;
  nickname!: string | null;
  ssh_key!: string | null;
  is_admin!: boolean;
  disabled!: boolean;
  is_phone_verified!: boolean;
  is_email_verified!: boolean;
  wechat_openid!: string | null;
  wechat_nickname!: string | null;
  last_login_at!: Date | null;
  disabled_at!: Date | null;
  created_at!: Date;
  updated_at!: Date;
}

export type User = Pick<
  UserModel,
  | 'id'
  | 'username'
  | 'password_hash'
  | 'email'
  | 'phone'
  | 'nickname'
  | 'ssh_key'
  | 'is_admin'
  | 'disabled'
  | 'is_phone_verified'
  | 'is_email_verified'
  | 'wechat_openid'
  | 'wechat_nickname'
  | 'last_login_at'
  | 'disabled_at'
  | 'created_at'
>;
