import type { Knex } from 'knex';
import type { KeyedChangeCache } from '../../db/change-cache.js';
import type { AuthUser } from '../../framework/auth.js';
import { badRequest, conflict } from '../../framework/errors.js';
import type { AccountsRepository, LowBalance } from './accounts-repository.js';
import type { BalanceReply, StatisticsReply } from './contract.js';
import type { CouponsService } from './coupons.js';
import type { Ledger } from './ledger.js';
import { yuan } from './numbers.js';
import type { Records } from './records.js';

/** A new account's low-balance alert threshold (the column's default: 100 yuan). */
const DEFAULT_ALERT_THRESHOLD_FEN = 10_000;

/** The balance screen: balance, alert threshold, statistics; the trial credit; admin adjustments. */
export class AccountService {
  constructor(
    private readonly d: {
      ledger: Ledger;
      accounts: AccountsRepository;
      records: Records;
      coupons: CouponsService;
      newUserCreditFen: number;
      /** Replies kept between changes of the account (db/change-cache.ts). */
      balanceCache?: KeyedChangeCache<BalanceReply>;
    },
  ) {}

  /**
   * The balance screen's figures: kept between changes of the account where a cache is given
   * (every console page asks). Nothing in them depends on the clock.
   */
  balance(userId: number): Promise<BalanceReply> {
    const cache = this.d.balanceCache;
    return cache ? cache.get(userId, () => this.readBalance(userId)) : this.readBalance(userId);
  }

  /** How many balances the cache read from the database (for tests: a kept one reads nothing). */
  balanceCacheLoads(): number {
    return this.d.balanceCache?.loads ?? 0;
  }

  private async readBalance(userId: number): Promise<BalanceReply> {
    const row = await this.d.accounts.find(userId);
    return {
      balance: yuan(row?.balance_fen ?? 0),
      alert_threshold: yuan(row?.alert_threshold_fen ?? DEFAULT_ALERT_THRESHOLD_FEN),
    };
  }

  async statistics(userId: number): Promise<StatisticsReply> {
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
    await this.d.accounts.setAlertThreshold(userId, thresholdFen);
    return this.balance(userId);
  }

  /**
   * Of these users, those whose balance fell below their alert threshold (still above zero) and
   * who were not warned since it did: marked warned now, and returned to be warned.
   */
  flagLowBalances(userIds: number[]): Promise<LowBalance[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.d.accounts.flagLowBalances(userIds, new Date());
  }

  /** Of these users, those with nothing left (balance at or below zero). */
  async exhausted(userIds: number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    // A user without an account row has nothing either.
    const left = new Set(await this.d.accounts.funded(userIds));
    return userIds.filter((id) => !left.has(id));
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
