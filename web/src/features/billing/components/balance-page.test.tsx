import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';

vi.mock('qrcode', () => {
  const toDataURL = async (text: string) => `data:image/png;base64,${btoa(text)}`;
  return { toDataURL, default: { toDataURL } };
});

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

const money = {
  'GET /api/billing/balance': () => ({ body: { balance: 1234.5, alert_threshold: 100 } }),
  'GET /api/billing/statistics': () => ({
    body: { total_expense: 12.3, total_recharge: 100, available_coupons: 3 },
  }),
};

describe('balance', () => {
  it('shows the balance with 2 decimals, the statistics with N 张, and saves the alert threshold', async () => {
    const server = fakeServer({
      ...money,
      'POST /api/billing/alert-threshold': (r) => ({
        body: { balance: 1234.5, alert_threshold: (r.body as { threshold: number }).threshold },
      }),
    });
    renderRoutes(routes, '/user/balance');
    await screen.findByText('1,234');
    expect(screen.getByText('.50')).toBeTruthy();
    expect(await screen.findByText('3 张')).toBeTruthy();
    const input = screen.getByLabelText('余额告警阈值');
    fireEvent.change(input, { target: { value: '50.25' } });
    fireEvent.click(getButton(document.body, '保存'));
    await screen.findByText('告警阈值更新成功');
    expect(server.requests.find((r) => r.path === '/api/billing/alert-threshold')?.body).toEqual({
      threshold: 50.25,
    });
  });

  it('the contact-support option shows the support QR and hours and disables confirm', async () => {
    fakeServer(money);
    renderRoutes(routes, '/user/balance');
    fireEvent.click(await waitForButton(document.body, '充值'));
    await screen.findByText('充值金额（元）');
    expect((screen.getByLabelText('充值金额') as HTMLInputElement).value).toBe('100.00');
    fireEvent.click(screen.getByText('联系客服'));
    expect(await screen.findByText('客服工作时间：每天 9:00-21:00')).toBeTruthy();
    await screen.findByTestId('support-qr');
    expect(getButton(document.body, '确认充值').disabled).toBe(true);
  });

  it('WeChat shows the payment QR; a refused payment falls back to contact support', async () => {
    fakeServer({
      ...money,
      'POST /api/billing/wechat/create': () => ({
        status: 503,
        body: { detail: 'x', code: 'PAYMENT_UNAVAILABLE' },
      }),
    });
    renderRoutes(routes, '/user/balance');
    fireEvent.click(await waitForButton(document.body, '充值'));
    fireEvent.click(await waitForButton(document.body, '确认充值'));
    expect(await screen.findByText('微信支付服务暂时不可用，请稍后再试或选择其他支付方式')).toBeTruthy();
    expect(await screen.findByText('客服工作时间：每天 9:00-21:00')).toBeTruthy();
  });

  it('polls the payment until SUCCESS and reports 支付成功', async () => {
    let polls = 0;
    fakeServer({
      ...money,
      'POST /api/billing/wechat/create': () => ({
        status: 201,
        body: { out_trade_no: 'P1', code_url: '/pay/sandbox/P1', amount: 100, provider: 'sandbox' },
      }),
      'GET /api/billing/wechat/query': () => {
        polls++;
        return { body: { out_trade_no: 'P1', trade_state: polls > 1 ? 'SUCCESS' : 'NOTPAY' } };
      },
    });
    renderRoutes(routes, '/user/balance');
    fireEvent.click(await waitForButton(document.body, '充值'));
    fireEvent.click(await waitForButton(document.body, '确认充值'));
    await screen.findByTestId('payment-qr-image');
    expect(screen.getByTestId('sandbox-pay-link').getAttribute('href')).toBe(
      `${window.location.origin}/pay/sandbox/P1`,
    );
    await waitFor(() => expect(screen.getByText('充值成功')).toBeTruthy(), { timeout: 12_000 });
    expect(polls).toBeGreaterThanOrEqual(2);
  }, 20_000);

  it('keeps the QR through USERPAYING and a failed poll, then reports 充值成功', async () => {
    const answers = ['USERPAYING', 'ERROR', 'SUCCESS'];
    let polls = 0;
    fakeServer({
      ...money,
      'POST /api/billing/wechat/create': () => ({
        status: 201,
        body: {
          out_trade_no: 'P2',
          code_url: 'weixin://wxpay/bizpayurl?pr=x',
          amount: 100,
          provider: 'wechat',
        },
      }),
      'GET /api/billing/wechat/query': () => {
        const state = answers[Math.min(polls++, answers.length - 1)];
        return state === 'ERROR'
          ? { status: 503, body: { detail: '微信支付服务暂时不可用，请稍后再试或选择其他支付方式' } }
          : { body: { out_trade_no: 'P2', trade_state: state } };
      },
    });
    renderRoutes(routes, '/user/balance');
    fireEvent.click(await waitForButton(document.body, '充值'));
    fireEvent.click(await waitForButton(document.body, '确认充值'));
    await screen.findByTestId('payment-qr-image');
    expect(await screen.findByText('用户支付中…')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('充值成功')).toBeTruthy(), { timeout: 15_000 });
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(screen.queryByText(/支付出错/)).toBeNull();
  }, 25_000);
});
