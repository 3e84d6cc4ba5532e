import type { CreatedPayment, PayAnswer } from '@gpucloud/control-plane/api';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Descriptions, Form, InputNumber, Modal, Radio } from 'antd';
import { useState } from 'react';
import { api, withDetail } from '../../../lib/api-client';
import { billingTypeInfo, computeTotalPrice, isBillingType } from '../../../lib/billing-types';
import { formatDateTime } from '../../../lib/format';
import { useInvalidateMoney } from '../api/billing-commands';
import { PaymentQr } from './payment-qr';

interface RenewableContainer {
  container_id: string;
  name: string;
  billing_type: string;
  price?: number | undefined;
  gpu_count: number;
  end_time?: string | null | undefined;
  status: string;
}

/** 续费 of a prepaid container: duration and payment (balance or WeChat); extends its end time. */
export function RenewButton({ container }: { container: RenewableContainer }) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [duration, setDuration] = useState<number | null>(1);
  const [method, setMethod] = useState<'balance' | 'wechat'>('balance');
  const [payment, setPayment] = useState<CreatedPayment | null>(null);
  const invalidate = useInvalidateMoney();
  const renew = useMutation({
    mutationFn: () =>
      api.post<PayAnswer>(`/api/containers/${encodeURIComponent(container.container_id)}/renew`, {
        duration,
        payment_method: method,
      }),
    onSuccess: (answer) => {
      void invalidate();
      if (answer.payment) setPayment(answer.payment);
      else {
        message.success('续费成功');
        close();
      }
    },
    onError: (error) => message.error(withDetail('续费失败', error)),
  });
  const billingType = container.billing_type;
  if (!isBillingType(billingType) || billingType === 'hourly' || container.status === 'deleted') return null;
  const info = billingTypeInfo(billingType);
  const total =
    duration && duration >= 1 && duration <= info.maxDuration
      ? computeTotalPrice({
          unitPrice: container.price ?? 0,
          gpuCount: container.gpu_count,
          duration,
          billingType,
        })
      : null;

  function close() {
    setOpen(false);
    setPayment(null);
    setDuration(1);
    setMethod('balance');
  }

  return (
    <>
      <Button
        type="link"
        size="small"
        onClick={() => setOpen(true)}
        data-testid={`renew-${container.container_id}`}
      >
        续费
      </Button>
      <Modal
        open={open}
        title={`续费 ${container.name}`}
        maskClosable={false}
        okText="确认续费"
        cancelText="取消"
        onOk={() => renew.mutate()}
        onCancel={close}
        okButtonProps={{ disabled: total === null }}
        confirmLoading={renew.isPending}
        footer={payment ? null : undefined}
        destroyOnHidden
      >
        {payment ? (
          <PaymentQr
            payment={payment}
            onSuccess={() => {
              message.success('续费成功');
              close();
            }}
            onFailed={(reason) => {
              message.error(`支付出错: ${reason}`);
              close();
            }}
            onCancel={close}
          />
        ) : (
          <>
            <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
              <Descriptions.Item label="计费方式">{info.label}</Descriptions.Item>
              <Descriptions.Item label="当前到期时间">{formatDateTime(container.end_time)}</Descriptions.Item>
            </Descriptions>
            <Form layout="vertical" requiredMark={false}>
              <Form.Item label={`续费时长（${info.unit}，最多 ${info.maxDuration}）`}>
                <InputNumber
                  min={1}
                  max={info.maxDuration}
                  precision={0}
                  value={duration}
                  onChange={setDuration}
                  aria-label="续费时长"
                />
              </Form.Item>
              <Form.Item label="支付方式">
                <Radio.Group
                  value={method}
                  onChange={(e) => setMethod(e.target.value as 'balance' | 'wechat')}
                  options={[
                    { value: 'balance', label: '余额支付' },
                    { value: 'wechat', label: '微信支付' },
                  ]}
                />
              </Form.Item>
              <Form.Item label="费用">{total === null ? '-' : `¥${total.toFixed(2)}`}</Form.Item>
            </Form>
          </>
        )}
      </Modal>
    </>
  );
}
