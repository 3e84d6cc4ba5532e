import { createHash } from 'node:crypto';
import type { Authenticator, AuthUser } from '../../framework/auth.js';
import { forbidden, unauthorized } from '../../framework/errors.js';
import { newToken } from '../../framework/ids.js';
import type { User } from '../users/model.js';
import { verifyPassword } from '../users/passwords.js';
import type { UsersService } from '../users/service.js';
import type { SessionsRepository } from './repository.js';

export interface LoginResult {
  token: string;
  username: string;
  nickname: string | null;
  is_admin: boolean;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class AuthService implements Authenticator {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersService,
    private readonly sessionTtlHours: number,
  ) {}

  async register(params: { username: string; password: string; email: string }): Promise<LoginResult> {
    const user = await this.users.create({
      username: params.username,
      password: params.password,
      email: params.email,
    });
    return this.openSession(user);
  }

  async login(params: { username: string; password: string }): Promise<LoginResult> {
    const user = await this.users.findByUsername(params.username);
    // Verify even for unknown users would cost the same time; a fixed message either way.
    if (!user || !(await verifyPassword(user.password_hash, params.password))) {
      throw unauthorized('用户名或密码错误', 'BAD_CREDENTIALS');
    }
    if (user.disabled) throw forbidden('账号已被禁用，请联系客服', 'USER_DISABLED');
    return this.openSession(user);
  }

  async logout(token: string): Promise<void> {
    await this.sessions.revoke(hashToken(token), new Date());
  }

  async authenticate(token: string): Promise<AuthUser | undefined> {
    const session = await this.sessions.findActive(hashToken(token), new Date());
    if (!session) return undefined;
    const user = await this.users.findById(session.user_id);
    if (!user || user.disabled) return undefined;
    return { id: user.id, username: user.username, nickname: user.nickname, isAdmin: user.is_admin };
  }

  private async openSession(user: User): Promise<LoginResult> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + this.sessionTtlHours * 3600_000);
    await this.sessions.insert(user.id, hashToken(token), expiresAt);
    return { token, username: user.username, nickname: user.nickname, is_admin: user.is_admin };
  }
}
