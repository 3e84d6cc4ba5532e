import type { Knex } from 'knex';
import { sqlArray } from '../../db/sql-arrays.js';
import type { ContainersSettlementSql } from './ports.js';

/** Memory for a batch's statement (its sorts, hashes and WITH results, some MB per 5,000 users). */
const WORK_MEM = '64MB';

/** What one batch of a settlement did. */
export interface SettledBatch {
  /** Open meters found (a meter whose container is gone is counted, and left as it is). */
  meters: number;
  chargedFen: number;
  /** Users with a meter settled, charged or not. */
  userIds: number[];
  /** Hourly containers found running and metered. */
  runningHourly: number;
  /** The users charged, with their balances after the charge (their ledger rows' balance_after_fen). */
  balances: { userId: number; balanceFen: number }[];
}

/**
 * A settlement's batch as one statement (a chain of data-modifying WITH queries): whatever the
 * number of users and meters, one round trip and no meter leaves the database. Its arithmetic is
 * Metering's settlementOf (and chargeFor) written in SQL, meter by meter:
 * - a meter runs to `now` while its container runs, else to the container's stopped_at (then
 *   deleted_at, then now) clamped to [running_since, now];
 * - elapsed = whole milliseconds (as JavaScript reads the timestamps), never negative;
 * - charged = (billed_ms × rate + 1,800,000) div 3,600,000 (half up, numeric: no overflow),
 *   due = max(0, charged − charged so far);
 * - per user one ledger row for the total (its balance after it from the locked account), the
 *   charges as its lines when there are several; the containers' running totals; the usage
 *   orders' totals as their meters' sums (the meters as they were, plus what this statement adds).
 *
 * The caller has locked the users' account rows (the ledger's lock order: accounts, then meters),
 * so every row read here is stable; the meters are locked too, in id order.
 */
export class SettlementRepository {
  async settleBatch(
    trx: Knex.Transaction,
    userIds: number[],
    now: Date,
    containers: ContainersSettlementSql,
  ): Promise<SettledBatch> {
    // The chain's intermediate results (a row per meter) stay in memory rather than in temporary
    // files; for this transaction only.
    await trx.raw(`set local work_mem = '${WORK_MEM}'`);
    const { rows } = await trx.raw<{
      rows: {
        meters: number;
        charged: string;
        running: number;
        users: string[];
        charged_users: number;
        entry_users: string[];
        balances: string[];
      }[];
    }>(
      `with settle_at as (select ?::timestamptz as now),
       open_meters as (
         select m.id, m.container_id, m.user_id, m.order_id, m.rate_fen_per_hour as rate,
                m.billed_ms, m.charged_fen, m.running_since
           from container_meters m
          where m.user_id = any(?::bigint[]) and m.running_since is not null
          order by m.id
            for update
       ),
       ended as (
         select o.*, c.name, c.status = 'running' as keep,
                c.status = 'running' and c.billing_type = 'hourly' as running_hourly,
                case when c.status = 'running' then t.now
                     else least(t.now, greatest(o.running_since, coalesce(c.stopped_at, c.deleted_at, t.now)))
                end as end_at
           from open_meters o
           join (${containers.settling}) c on c.id = o.container_id
          cross join settle_at t
       ),
       timed as (
         select e.*,
                greatest(0, floor(extract(epoch from e.end_at) * 1000)
                            - floor(extract(epoch from e.running_since) * 1000))::bigint as elapsed
           from ended e
       ),
       settled as (
         select t.*, t.billed_ms + t.elapsed as billed_new,
                greatest(0, div((t.billed_ms + t.elapsed)::numeric * t.rate + 1800000, 3600000)
                            - t.charged_fen)::bigint as due
           from timed t
       ),
       meter_updates as (
         update container_meters m
            set billed_ms = s.billed_new, charged_fen = s.charged_fen + s.due,
                running_since = case when s.keep then greatest(s.running_since, s.end_at) end,
                updated_at = s.end_at
           from settled s
          where m.id = s.id
       ),
       lines as (
         select s.user_id, s.id as meter_id, s.container_id, s.order_id, -s.due as amount_fen,
                round(s.elapsed / 1000.0)::bigint as billed_seconds,
                left('容器 ' || s.name || ' 按量计费（' || (s.rate / 100) || '.' || lpad((s.rate % 100)::text, 2, '0')
                     || '元/小时）', 255) as description,
                row_number() over (partition by s.user_id order by s.id) as line,
                count(*) over (partition by s.user_id) as n
           from settled s
          where s.due > 0
       ),
       totals as (
         select l.user_id, sum(l.amount_fen)::bigint as amount_fen,
                sum(l.billed_seconds)::bigint as billed_seconds, count(*) as n, min(l.meter_id) as first_meter
           from lines l
          group by l.user_id
       ),
       entries as (
         insert into ledger_entries (user_id, amount_fen, balance_after_fen, kind, description, payment_method,
                                     container_id, order_id, billed_seconds)
         select t.user_id, t.amount_fen, a.balance_fen + t.amount_fen, 'expense',
                case when t.n = 1 then one.description else '按量计费（' || t.n || '个容器）' end, 'balance',
                case when t.n = 1 then one.container_id end, case when t.n = 1 then one.order_id end,
                t.billed_seconds
           from totals t
           join billing_accounts a on a.user_id = t.user_id
           join lines one on one.user_id = t.user_id and one.line = 1
          order by t.first_meter
         returning id, user_id, balance_after_fen
       ),
       line_rows as (
         insert into ledger_lines (entry_id, line, container_id, order_id, amount_fen, billed_seconds, description)
         select e.id, l.line, l.container_id, l.order_id, l.amount_fen, l.billed_seconds, l.description
           from lines l
           join entries e on e.user_id = l.user_id
          where l.n > 1
       ),
       costs as (
         select s.container_id as id, sum(s.due)::bigint as fen from settled s where s.due > 0 group by s.container_id
       ),
       cost_updates as (${containers.addCosts('costs')}),
       usage as (
         select s.order_id, sum(s.due) as due, sum(s.elapsed) as elapsed
           from settled s
          where s.order_id is not null
          group by s.order_id
       ),
       order_updates as (
         update container_orders o
            set amount_fen = u.charged, billed_seconds = u.billed
           from (select u.order_id, sum(x.charged_fen) + u.due as charged,
                        (sum(x.billed_ms) + u.elapsed) / 1000 as billed
                   from usage u
                   join container_meters x on x.order_id = u.order_id
                  group by u.order_id, u.due, u.elapsed) u
          where o.id = u.order_id
       )
       select (select count(*) from open_meters)::int as meters,
              (select coalesce(sum(due), 0) from settled)::bigint as charged,
              (select count(distinct container_id) from settled where running_hourly)::int as running,
              (select coalesce(array_agg(distinct user_id), '{}') from settled) as users,
              (select count(*) from totals)::int as charged_users,
              (select coalesce(array_agg(user_id order by user_id), '{}') from entries) as entry_users,
              (select coalesce(array_agg(balance_after_fen order by user_id), '{}') from entries) as balances`,
      [now, sqlArray(userIds)],
    );
    const r = rows[0];
    if (!r) throw new Error('the settlement statement answered nothing');
    const entryUsers = r.entry_users.map(Number);
    // An inner join with the account row: a charged user without one would be left out.
    if (entryUsers.length !== r.charged_users) throw new Error('a settlement books one ledger row per user');
    return {
      meters: r.meters,
      chargedFen: Number(r.charged),
      userIds: r.users.map(Number),
      runningHourly: r.running,
      balances: entryUsers.map((userId, i) => ({ userId, balanceFen: Number(r.balances[i]) })),
    };
  }
}
