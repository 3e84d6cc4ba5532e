import type Router from '@koa/router';
import type { Knex } from 'knex';
import type { Config } from './config.js';
import type { AppState } from './framework/auth.js';
import type { SecretBox } from './framework/secret-box.js';
import { ApiKeysRepository } from './modules/api-keys/repository.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { ApiKeysService } from './modules/api-keys/service.js';
import { PasswordResetService } from './modules/auth/password-reset.js';
import { SessionsRepository } from './modules/auth/repository.js';
import { passwordResetRoutes } from './modules/auth/reset-routes.js';
import { SessionRevocations } from './modules/auth/revocations.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService } from './modules/auth/service.js';
import { SessionCache } from './modules/auth/session-cache.js';
import type { ContainersService } from './modules/containers/service.js';
import { shownStatus } from './modules/containers/view.js';
import { AliyunSmsTransport, type SmsTransport } from './modules/messages/aliyun-sms.js';
import { type EmailTransport, SmtpEmailTransport } from './modules/messages/email.js';
import { OutboxRepository, SandboxEmailTransport, SandboxSmsTransport } from './modules/messages/outbox.js';
import { outboxAdminRoutes } from './modules/messages/routes.js';
import { MessagesService } from './modules/messages/service.js';
import { RateLimitsRepository } from './modules/rate-limits/repository.js';
import { DEFAULT_RATE_LIMITS, RateLimiter } from './modules/rate-limits/service.js';
import { AdminUsersService, type UserContainerSummary } from './modules/users/admin.js';
import { userAdminRoutes } from './modules/users/admin-routes.js';
import { ProfileService } from './modules/users/profile.js';
import { profileRoutes } from './modules/users/routes.js';
import type { UsersService } from './modules/users/service.js';
import { VerificationRepository } from './modules/verification/repository.js';
import { VerificationService } from './modules/verification/service.js';
import { WechatOpenPlatformProvider } from './modules/wechat/open-platform.js';
import { DisabledWechatProvider, type WechatIdentityProvider } from './modules/wechat/provider.js';
import { wechatRoutes } from './modules/wechat/routes.js';
import { SandboxWechatProvider, WechatSandboxRepository } from './modules/wechat/sandbox.js';
import { WechatService } from './modules/wechat/service.js';
import { WechatStateSigner } from './modules/wechat/state.js';

/** How long a replica trusts what it read of a session (revocations reach it at once anyway). */
const SESSION_CACHE_MS = 30_000;

export interface AccountsDeps {
  config: Config;
  knex: Knex;
  users: UsersService;
  secrets: SecretBox;
  log: (message: string, err?: unknown) => void;
  /** The user's containers for the admin user view (the containers module lists them). */
  containersOf(userId: number): Promise<UserContainerSummary[]>;
  /** The user's container orders for the admin user view (the billing module lists them). */
  ordersOf?(userId: number): Promise<unknown[]>;
}

/** Accounts, sign-in, messages, API keys and access control: one part of the object graph. */
export function buildAccounts(d: AccountsDeps) {
  const { config, knex, users } = d;
  const limits = { ...DEFAULT_RATE_LIMITS, ...config.rateLimits };
  const limiter = new RateLimiter(new RateLimitsRepository(knex));
  const outbox = new OutboxRepository(knex);
  const email: EmailTransport = config.smtp
    ? new SmtpEmailTransport(config.smtp)
    : new SandboxEmailTransport(outbox);
  const sms: SmsTransport = config.aliyunSms
    ? new AliyunSmsTransport(config.aliyunSms)
    : new SandboxSmsTransport(outbox);
  const messages = new MessagesService(email, sms, outbox);
  const verification = new VerificationService(
    new VerificationRepository(knex),
    messages,
    limiter,
    limits,
    config.secretKey,
    d.log,
  );
  const sessionCache = new SessionCache(SESSION_CACHE_MS);
  // Started and closed with the HTTP server (platform.ts): until it listens nothing is cached.
  const revocations = new SessionRevocations(config.databaseUrl, sessionCache, d.log);
  const auth = new AuthService({
    sessions: new SessionsRepository(knex),
    users,
    verification,
    limiter,
    limits,
    sessionTtlHours: config.sessionTtlHours,
    cache: { sessions: sessionCache, revocations },
  });
  const revokeSessions = (userId: number) => auth.revokeAll(userId);
  const provider: WechatIdentityProvider = config.wechat
    ? new WechatOpenPlatformProvider(config.wechat)
    : config.wechatSandbox === false
      ? new DisabledWechatProvider()
      : new SandboxWechatProvider(new WechatSandboxRepository(knex));
  return {
    auth,
    revocations,
    messages,
    verification,
    limiter,
    profile: new ProfileService(users, verification),
    passwordReset: new PasswordResetService({ users, verification, limiter, limits, revokeSessions }),
    apiKeys: new ApiKeysService(
      new ApiKeysRepository(knex),
      users,
      d.secrets,
      limiter,
      limits.passwordConfirmFailuresPerUser,
    ),
    wechat: new WechatService({
      provider,
      signer: new WechatStateSigner(config.secretKey),
      users,
      sessions: auth,
      publicUrl: config.publicUrl,
    }),
    adminUsers: new AdminUsersService({
      users,
      containersOf: d.containersOf,
      ...(d.ordersOf ? { ordersOf: d.ordersOf } : {}),
      revokeSessions,
    }),
  };
}

export type Accounts = ReturnType<typeof buildAccounts>;

export function accountRouters(accounts: Accounts): Router<AppState>[] {
  return [
    authRoutes(accounts.auth),
    passwordResetRoutes(accounts.passwordReset),
    profileRoutes(accounts.profile),
    wechatRoutes(accounts.wechat),
    apiKeyRoutes(accounts.apiKeys),
    userAdminRoutes(accounts.adminUsers),
    outboxAdminRoutes(accounts.messages),
  ];
}

/** The admin user view's container list: the owner's containers, their passwords left sealed. */
export async function containerSummaries(
  containers: ContainersService,
  userId: number,
): Promise<UserContainerSummary[]> {
  const { items } = await containers.recordsOf({
    id: userId,
    username: '',
    nickname: null,
    isAdmin: false,
  });
  return items.map((c) => ({
    container_id: c.id,
    name: c.name,
    status: shownStatus(c),
    gpu_type: c.gpu_type,
    gpu_count: c.gpu_count,
    node_name: c.node_name,
    billing_type: c.billing_type,
    create_time: c.created_at.toISOString(),
  }));
}
