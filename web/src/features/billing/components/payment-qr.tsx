import { WechatOutlined } from '@ant-design/icons';
import type { CreatedPayment } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Flex, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { errorDetail } from '../../../lib/api-client';
import { billingKeys } from '../../../lib/query-keys';
import { cancelWechatPayment, queryWechatPayment, useInvalidateMoney } from '../api/billing-commands';
import {
  PAYMENT_POLL_MS,
  paymentStatusOf,
  pollBackoffMs,
  QR_MARGIN,
  QR_SIZE,
  resolveCodeUrl,
  shouldRetryPoll,
  tradeStateText,
  yuan,
} from '../money';

/** A QR image of `text`, 200 px with margin 2; the qrcode package loads only when one is shown. */
export function QrImage({ text, testId }: { text: string; testId?: string }) {
  const { message } = App.useApp();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((mod) => {
        // A CommonJS package: bundlers expose its exports as the default export, named ones or both.
        const qrcode = (mod.default as typeof mod | undefined) ?? mod;
        return qrcode.toDataURL(text, { width: QR_SIZE, margin: QR_MARGIN });
      })
      .then((url) => {
        if (live) setSrc(url);
      })
      .catch(() => {
        if (live) message.error('生成二维码图片失败');
      });
    return () => {
      live = false;
    };
  }, [text, message]);
  return (
    <div style={{ width: QR_SIZE, height: QR_SIZE, display: 'grid', placeItems: 'center' }}>
      {src ? (
        <img src={src} width={QR_SIZE} height={QR_SIZE} alt="支付二维码" data-testid={testId} />
      ) : (
        <Spin />
      )}
    </div>
  );
}

/**
 * The WeChat QR payment: the code is shown, the state polled every 3 s (SUCCESS → success; a
 * definite failure such as CLOSED or PAYERROR → failed; NOTPAY and USERPAYING keep waiting). A
 * poll that fails for a passing reason (network, 5xx) is retried with backoff while the QR stays;
 * only a definite refusal (401/403/404) ends it. Cancelling stops polling, tells the server (it
 * closes the order) and closes the component.
 */
export function PaymentQr({
  payment,
  onSuccess,
  onFailed,
  onCancel,
}: {
  payment: CreatedPayment;
  onSuccess: () => void;
  onFailed: (reason: string) => void;
  onCancel: () => void;
}) {
  const { message } = App.useApp();
  const invalidate = useInvalidateMoney();
  const [cancelling, setCancelling] = useState(false);
  const done = useRef(false);
  const state = useQuery({
    queryKey: billingKeys.payment(payment.out_trade_no),
    queryFn: ({ signal }) => queryWechatPayment(payment.out_trade_no, signal),
    refetchInterval: (query) => {
      const trade = query.state.data?.trade_state;
      return done.current || cancelling || (trade && paymentStatusOf(trade) !== 'pending')
        ? false
        : PAYMENT_POLL_MS;
    },
    refetchIntervalInBackground: true,
    retry: (_failures, error) => !done.current && shouldRetryPoll(error),
    retryDelay: (failures) => pollBackoffMs(failures),
  });
  const tradeState = state.data?.trade_state;

  useEffect(() => {
    if (!tradeState || done.current) return;
    const status = paymentStatusOf(tradeState);
    if (status === 'success') {
      done.current = true;
      message.success('支付成功');
      void invalidate();
      onSuccess();
    } else if (status === 'failed') {
      done.current = true;
      onFailed(tradeStateText(tradeState));
    }
  }, [tradeState, message, invalidate, onSuccess, onFailed]);

  useEffect(() => {
    if (state.error && !done.current) {
      done.current = true;
      onFailed(errorDetail(state.error));
    }
  }, [state.error, onFailed]);

  const cancel = async () => {
    setCancelling(true);
    done.current = true;
    try {
      await cancelWechatPayment(payment.out_trade_no);
    } catch {
      // Closing is best effort: an unpaid order also expires at WeChat by itself.
    }
    message.info('已取消支付');
    void invalidate();
    onCancel();
  };

  const target = resolveCodeUrl(payment.code_url, window.location.origin);
  return (
    <Flex vertical align="center" gap={12} data-testid="payment-qr">
      <Typography.Text>
        <WechatOutlined style={{ color: '#07c160' }} /> 请使用微信扫码支付{' '}
        <Typography.Text strong>{yuan(payment.amount)}</Typography.Text>
      </Typography.Text>
      <QrImage text={target} testId="payment-qr-image" />
      <Typography.Text type="secondary">
        {state.failureCount > 0 && state.fetchStatus === 'fetching'
          ? '网络异常，正在重试…'
          : tradeState === 'USERPAYING'
            ? '用户支付中…'
            : paymentStatusOf(tradeState) === 'pending' || !tradeState
              ? '等待支付…'
              : tradeStateText(tradeState ?? '')}
      </Typography.Text>
      {payment.provider === 'sandbox' ? (
        <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
          未配置微信支付凭据（沙箱模式）：
          <a href={target} target="_blank" rel="noreferrer" data-testid="sandbox-pay-link">
            打开沙箱支付页面
          </a>
        </Typography.Text>
      ) : null}
      <Button onClick={() => void cancel()} loading={cancelling}>
        取消支付
      </Button>
    </Flex>
  );
}
