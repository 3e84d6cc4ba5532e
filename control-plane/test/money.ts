import type { RunningControlPlane } from '../src/platform.js';
import { ADMIN, ApiClient } from './harness.js';

const admins = new Map<string, ApiClient>();

async function adminOf(cp: RunningControlPlane): Promise<ApiClient> {
  let admin = admins.get(cp.url);
  if (!admin) {
    admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    admins.set(cp.url, admin);
  }
  return admin;
}

async function userId(cp: RunningControlPlane, username: string): Promise<number> {
  const row = await cp.knex('users').where({ username }).first('id');
  if (!row) throw new Error(`no user ${username}`);
  return row.id as number;
}

/** Gives (or takes, when negative) yuan through the admin adjustment API: a ledger row naming the admin. */
export async function adjustBalance(
  cp: RunningControlPlane,
  username: string,
  yuan: number,
  reason = '测试充值',
) {
  const admin = await adminOf(cp);
  const res = await admin.request<{ balance: number }>(
    'POST',
    `/api/admin/users/${await userId(cp, username)}/balance`,
    {
      amount: yuan,
      reason,
    },
  );
  if (res.status !== 200) throw new Error(`adjust failed: ${JSON.stringify(res.body)}`);
  return res.body.balance;
}

/** Grants a coupon to the users through the admin API; returns the new coupons' ids. */
export async function grantCoupon(
  cp: RunningControlPlane,
  usernames: string[],
  coupon: { name?: string; amount: number; minAmount: number; expireDate?: string },
): Promise<number[]> {
  const admin = await adminOf(cp);
  const res = await admin.request('POST', '/api/admin/coupons', {
    name: coupon.name ?? '测试券',
    amount: coupon.amount,
    minAmount: coupon.minAmount,
    expireDate: coupon.expireDate ?? new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
    usernames,
  });
  if (res.status !== 201) throw new Error(`grant failed: ${JSON.stringify(res.body)}`);
  const ids = await cp
    .knex('coupons')
    .join('users', 'users.id', 'coupons.user_id')
    .whereIn('users.username', usernames)
    .pluck('coupons.id');
  return ids as number[];
}

/** The user's balance (fen) and the sum of their ledger (fen): always equal. */
export async function balanceAndLedger(cp: RunningControlPlane, username: string) {
  const id = await userId(cp, username);
  const user = await cp.knex('billing_accounts').where({ user_id: id }).first('balance_fen');
  const [sum] = await cp
    .knex('ledger_entries')
    .where({ user_id: id })
    .sum<{ sum: string | null }[]>({ sum: 'amount_fen' });
  return { balanceFen: Number(user.balance_fen), ledgerFen: Number(sum?.sum ?? 0) };
}
