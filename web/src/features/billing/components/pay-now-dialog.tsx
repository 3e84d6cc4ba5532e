import type { CreatedPayment } from '@gpucloud/control-plane/api';
import { App, Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { withDetail } from '../../../lib/api-client';
import { usePayOrder } from '../api/billing-commands';
import { yuan } from '../money';
import { PaymentQr } from './payment-qr';

export interface PayTarget {
  /** A pending order: pay from the balance or by WeChat. */
  orderId?: number;
  /** A pending WeChat top-up: its QR again. */
  payment?: CreatedPayment;
  amount: number;
  description: string;
}

/** 立即支付 of a pending billing record. */
export function PayNowDialog({ target, onClose }: { target: PayTarget | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [method, setMethod] = useState<'balance' | 'wechat'>('balance');
  const [payment, setPayment] = useState<CreatedPayment | null>(null);
  const pay = usePayOrder();
  const shown = payment ?? target?.payment ?? null;

  const close = () => {
    setPayment(null);
    setMethod('balance');
    onClose();
  };

  const confirm = () => {
    if (!target?.orderId) return;
    pay.mutate(
      { orderId: target.orderId, method },
      {
        onSuccess: (answer) => {
          if (answer.payment) setPayment(answer.payment);
          else {
            message.success('支付成功');
            close();
          }
        },
        onError: (error) => message.error(withDetail('支付出错', error)),
      },
    );
  };

  return (
    <Modal
      open={target !== null}
      title="立即支付"
      maskClosable={false}
      okText="确认支付"
      cancelText="取消"
      onOk={confirm}
      onCancel={close}
      confirmLoading={pay.isPending}
      footer={shown ? null : undefined}
      destroyOnHidden
    >
      {shown ? (
        <PaymentQr
          payment={shown}
          onSuccess={close}
          onFailed={(reason) => {
            message.error(`支付出错: ${reason}`);
            close();
          }}
          onCancel={close}
        />
      ) : target ? (
        <>
          <Typography.Paragraph>
            {target.description}：<Typography.Text strong>{yuan(Math.abs(target.amount))}</Typography.Text>
          </Typography.Paragraph>
          <Radio.Group
            value={method}
            onChange={(e) => setMethod(e.target.value as 'balance' | 'wechat')}
            options={[
              { value: 'balance', label: '余额支付' },
              { value: 'wechat', label: '微信支付' },
            ]}
          />
        </>
      ) : null}
    </Modal>
  );
}
