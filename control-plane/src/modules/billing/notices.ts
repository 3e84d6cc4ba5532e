import type { Knex } from 'knex';

/** Sends a notice to a user by e-mail and SMS (the messages module, or its sandbox outbox). */
export interface Notifier {
  sendNotice(p: {
    email?: string | null;
    phone?: string | null;
    subject: string;
    text: string;
  }): Promise<void>;
}

export type NoticeKind =
  | 'expiry_warning'
  | 'release_warning'
  | 'stopped_balance'
  | 'stopped_expired'
  | 'released';

const fmt = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 16);
const DAY_MS = 24 * 3600_000;

/** Billing's messages to users; each container notice goes out once (container_notices). */
export class Notices {
  constructor(
    private readonly knex: Knex,
    private readonly notifier: Notifier,
    private readonly log: (message: string, err?: unknown) => void,
  ) {}

  private async send(userId: number, subject: string, text: string): Promise<void> {
    const user = await this.knex('users').where({ id: userId }).first('email', 'phone', 'is_phone_verified');
    if (!user) return;
    try {
      await this.notifier.sendNotice({
        email: user.email,
        phone: user.is_phone_verified ? user.phone : null,
        subject,
        text,
      });
    } catch (err) {
      this.log(`notice to user ${userId} failed`, err);
    }
  }

  lowBalance(userId: number, balanceFen: number, thresholdFen: number): Promise<void> {
    return this.send(
      userId,
      '余额不足提醒',
      `您的账户余额为 ${(balanceFen / 100).toFixed(2)} 元，已低于告警阈值 ${(thresholdFen / 100).toFixed(2)} 元。余额用尽后按量计费的容器将被停止，请及时充值。`,
    );
  }

  /** Sends the notice of `kind` for the container at `refAt` unless it went out before. */
  async once(containerId: string, kind: NoticeKind, refAt: Date): Promise<void> {
    const claimed = await this.knex('container_notices')
      .insert({ container_id: containerId, kind, ref_at: refAt })
      .onConflict(['container_id', 'kind', 'ref_at'])
      .ignore()
      .returning('container_id');
    if (claimed.length === 0) return;
    const c = await this.knex('containers').where({ id: containerId }).first('user_id', 'name', 'expires_at');
    if (!c) return;
    const name = `容器 ${c.name}（${containerId}）`;
    const texts: Record<NoticeKind, [string, string]> = {
      expiry_warning: [
        '实例即将到期',
        `${name}将于 ${fmt(refAt)}（UTC）到期，到期后将自动停止，请及时续费。`,
      ],
      release_warning: [
        '实例即将释放',
        `${name}已关机近 2 天，将于 ${fmt(new Date(refAt.getTime() + 3 * DAY_MS))}（UTC）释放，释放后数据无法恢复。`,
      ],
      stopped_balance: ['余额已用尽', `您的账户余额已用尽，${name}已停止。充值后可重新启动。`],
      stopped_expired: ['实例已到期', `${name}已到期并停止，续费后可重新启动。`],
      released: ['实例已释放', `${name}关机已满 3 天，已释放。`],
    };
    const [subject, text] = texts[kind];
    await this.send(c.user_id, subject, text);
  }
}
