import type { Knex } from 'knex';
import type { AuthUser } from '../../framework/auth.js';
import { badRequest, conflict } from '../../framework/errors.js';
import type { CouponsService } from './coupons.js';
import type { Ledger } from './ledger.js';
import { yuan } from './numbers.js';
import type { RecordsRepository } from './records.js';

/** The balance screen: balance, alert threshold, statistics; the trial credit; admin adjustments. */
export class AccountService {
  constructor(
    private readonly d: {
      ledger: Ledger;
      records: RecordsRepository;
      coupons: CouponsService;
      newUserCreditFen: number;
    },
  ) {}

  private get knex(): Knex {
    return this.d.ledger.knex;
  }

  async balance(userId: number) {
    const row = await this.knex('users').where({ id: userId }).first('balance_fen', 'alert_threshold_fen');
    return { balance: yuan(row?.balance_fen ?? 0), alert_threshold: yuan(row?.alert_threshold_fen ?? 0) };
  }

  async statistics(userId: number) {
    const [stats, coupons] = await Promise.all([
      this.d.records.statistics(userId),
      this.d.coupons.availableCount(userId),
    ]);
    return {
      total_expense: yuan(stats.expenseFen),
      total_recharge: yuan(stats.rechargeFen),
      available_coupons: coupons,
    };
  }

  async setAlertThreshold(userId: number, thresholdFen: number) {
    await this.knex('users')
      .where({ id: userId })
      .update({ alert_threshold_fen: thresholdFen, balance_alert_sent_at: null });
    return this.balance(userId);
  }

  /**
   * Of these users, those whose balance fell below their alert threshold (still above zero) and
   * who were not warned since it did: marked warned now, and returned to be warned.
   */
  flagLowBalances(
    userIds: number[],
  ): Promise<{ id: number; balance_fen: number; alert_threshold_fen: number }[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.knex('users')
      .whereIn('id', userIds)
      .whereNull('balance_alert_sent_at')
      .whereRaw('balance_fen < alert_threshold_fen')
      .where('balance_fen', '>', 0)
      .update({ balance_alert_sent_at: new Date() })
      .returning(['id', 'balance_fen', 'alert_threshold_fen']);
  }

  /** Of these users, those with nothing left (balance at or below zero). */
  async exhausted(userIds: number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    return this.knex('users').whereIn('id', userIds).where('balance_fen', '<=', 0).pluck('id');
  }

  /** The new user's trial credit, booked with the user's row (registration's transaction). */
  async grantTrialCredit(trx: Knex.Transaction, userId: number): Promise<void> {
    if (this.d.newUserCreditFen <= 0) return;
    await this.d.ledger.post(trx, {
      userId,
      amountFen: this.d.newUserCreditFen,
      kind: 'credit',
      description: '新用户注册赠送体验金',
      paymentMethod: 'system',
      uniqueKey: `trial:${userId}`,
    });
  }

  /** An admin's correction of a balance: a ledger row naming the admin and the reason. */
  async adjust(admin: AuthUser, userId: number, amountFen: number, reason: string) {
    if (amountFen === 0) throw badRequest('调整金额不能为0', 'ADJUST_ZERO');
    await this.d.ledger.transaction(async (trx) => {
      const balance = await this.d.ledger.lockBalance(trx, userId);
      if (balance + amountFen < 0) throw conflict('调整后余额不能为负数', 'ADJUST_NEGATIVE');
      await this.d.ledger.post(trx, {
        userId,
        amountFen,
        kind: 'adjustment',
        description: `管理员调整（${admin.username}）：${reason}`,
        paymentMethod: 'system',
        adminId: admin.id,
      });
    });
    return this.balance(userId);
  }
}
