import { Model } from 'objection';

export class UserModel extends Model {
  static override tableName = 'users';

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
  balance_fen!: number;
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
  | 'balance_fen'
  | 'last_login_at'
  | 'disabled_at'
  | 'created_at'
>;
