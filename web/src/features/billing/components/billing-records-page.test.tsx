import type { BillingRecord } from '@gpucloud/control-plane/api';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, findButtons, renderRoutes } from '../../../test/render';

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

const record = (over: Partial<BillingRecord>): BillingRecord => ({
  id: 'ledger-1',
  source: 'ledger',
  create_time: '2026-11-01T08:00:00Z',
  type: 'expense',
  description: '容器 box 按量计费（1.99元/小时）',
  duration: 1.5,
  amount: -2.99,
  payment_method: 'balance',
  status: 'success',
  out_trade_no: null,
  code_url: null,
  order_id: null,
  ...over,
});

describe('billing records', () => {
  it('shows amounts with their sign, durations and statuses, and pages by 10 with skip/limit', async () => {
    const server = fakeServer({
      'GET /api/billing/billing-records': () => ({
        body: {
          items: [
            record({}),
            record({
              id: 'ledger-2',
              type: 'recharge',
              amount: 20,
              duration: null,
              payment_method: 'system',
            }),
          ],
          total: 2,
        },
      }),
    });
    renderRoutes(routes, '/user/billing-records');
    const row = await screen.findByTestId('record-row-ledger-1');
    expect(row.textContent).toContain('-¥2.99');
    expect(row.textContent).toContain('1.5 小时');
    expect(row.textContent).toContain('成功');
    expect(screen.getByTestId('record-row-ledger-2').textContent).toContain('+¥20.00');
    // No pending record: no pay-now column.
    expect(findButtons(document.body, '立即支付')).toHaveLength(0);
    const query = server.requests.find((r) => r.path === '/api/billing/billing-records')?.search;
    expect(query?.get('skip')).toBe('0');
    expect(query?.get('limit')).toBe('10');
  });

  it('offers pay-now on a pending record', async () => {
    fakeServer({
      'GET /api/billing/billing-records': () => ({
        body: {
          items: [
            record({
              id: 'order-5',
              source: 'order',
              status: 'pending',
              amount: -45.37,
              order_id: 5,
              description: '续费容器 A',
            }),
            record({}),
          ],
          total: 2,
        },
      }),
    });
    renderRoutes(routes, '/user/billing-records');
    await screen.findByTestId('record-row-order-5');
    await waitFor(() => expect(findButtons(document.body, '立即支付')).toHaveLength(1));
    expect(screen.getByTestId('record-row-order-5').textContent).toContain('待支付');
  });
});
