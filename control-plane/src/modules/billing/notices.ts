import { spanText } from '../../lifecycle-settings.js';
import type { NoticeKind, NoticesRepository } from './notices-repository.js';
import type { BillingContainers, BillingUsers } from './ports.js';

export type { NoticeKind } from './notices-repository.js';

/** Sends a notice to a user by e-mail and SMS (the messages module, or its sandbox outbox). */
export interface Notifier {
  sendNotice(p: {
    email?: string | null;
    phone?: string | null;
    subject: string;
    text: string;
  }): Promise<void>;
}

const fmt = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 16);

/** Billing's messages to users; each container notice goes out once (container_notices). */
export class Notices {
  constructor(
    private readonly repo: NoticesRepository,
    private readonly d: {
      notifier: Notifier;
      users: Pick<BillingUsers, 'contact'>;
      containers: Pick<BillingContainers, 'find'>;
      /** When a stopped hourly container is released and how long before it is warned (the texts name them). */
      releaseAfterMs: number;
      warnBeforeMs: number;
      log: (message: string, err?: unknown) => void;
    },
  ) {}

  private async send(userId: number, subject: string, text: string): Promise<void> {
    const contact = await this.d.users.contact(userId);
    if (!contact) return;
    try {
      await this.d.notifier.sendNotice({ ...contact, subject, text });
    } catch (err) {
      this.d.log(`notice to user ${userId} failed`, err);
    }
  }

  lowBalance(userId: number, balanceFen: number, thresholdFen: number): Promise<void> {
    return this.send(
      userId,
      '余额不足提醒',
      `您的账户余额为 ${(balanceFen / 100).toFixed(2)} 元，已低于告警阈值 ${(thresholdFen / 100).toFixed(2)} 元。余额用尽后按量计费的容器将被停止，请及时充值。`,
    );
  }

  /**
   * Tells the owner that a GPU of the container became unusable at `refAt` (`problem`: which and
   * why, in Chinese); once per container and moment, whichever replica saw it.
   */
  async gpuProblem(containerId: string, refAt: Date, problem: string): Promise<void> {
    if (!(await this.repo.claim(containerId, 'gpu_problem', refAt))) return;
    const c = await this.d.containers.find(containerId);
    if (!c) return;
    await this.send(
      c.user_id,
      'GPU 故障提醒',
      `容器 ${c.name}（${containerId}）的 ${problem}（${fmt(refAt)} UTC）。该 GPU 不会分配给其他用户；如需继续使用，请保存数据后联系客服或重新购买实例。`,
    );
  }

  /** Sends the notice of `kind` for the container at `refAt` unless it went out before. */
  async once(containerId: string, kind: Exclude<NoticeKind, 'gpu_problem'>, refAt: Date): Promise<void> {
    if (!(await this.repo.claim(containerId, kind, refAt))) return;
    const c = await this.d.containers.find(containerId);
    if (!c) return;
    const name = `容器 ${c.name}（${containerId}）`;
    const texts: Record<Exclude<NoticeKind, 'gpu_problem'>, [string, string]> = {
      expiry_warning: [
        '实例即将到期',
        `${name}将于 ${fmt(refAt)}（UTC）到期，到期后将自动停止，请及时续费。`,
      ],
      release_warning: [
        '实例即将释放',
        `${name}已关机近 ${spanText(this.d.releaseAfterMs - this.d.warnBeforeMs)}，将于 ${fmt(new Date(refAt.getTime() + this.d.releaseAfterMs))}（UTC）释放，释放后数据无法恢复。`,
      ],
      stopped_balance: ['余额已用尽', `您的账户余额已用尽，${name}已停止。充值后可重新启动。`],
      stopped_expired: ['实例已到期', `${name}已到期并停止，续费后可重新启动。`],
      released: ['实例已释放', `${name}关机已满 ${spanText(this.d.releaseAfterMs)}，已释放。`],
    };
    const [subject, text] = texts[kind];
    await this.send(c.user_id, subject, text);
  }
}
