import type { CreatedPayment } from '@gpucloud/control-plane/api';
import { Alert, App, Form, InputNumber, Modal, Radio } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useCreateWechatPayment } from '../api/billing-commands';
import { DEFAULT_TOP_UP, MIN_TOP_UP, type TopUpMethod, validateTopUpAmount } from '../money';
import { PaymentQr } from './payment-qr';
import { SupportContact } from './support-contact';

interface TopUpForm {
  amount: number;
  payment_method: TopUpMethod;
}

/**
 * 充值: amount (default 100, minimum 1, 2 decimals) and method. Contact support shows the support
 * QR and disables confirm; WeChat shows the payment QR; a payment error falls back to support.
 * Clicking outside does not close it.
 */
export function TopUpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<TopUpForm>();
  const method = Form.useWatch('payment_method', form) ?? 'wechat';
  const [payment, setPayment] = useState<CreatedPayment | null>(null);
  const create = useCreateWechatPayment();

  const close = () => {
    setPayment(null);
    form.resetFields();
    onClose();
  };

  const fallBackToSupport = (reason: string) => {
    message.error(`支付出错: ${reason}`);
    setPayment(null);
    form.setFieldValue('payment_method', 'service');
  };

  const submit = ({ amount }: TopUpForm) =>
    create.mutate(
      { amount },
      {
        onSuccess: (created) => {
          message.success('充值申请提交成功');
          setPayment(created);
        },
        onError: (error) => {
          // A 503 carries the spec's WeChat text (微信支付服务暂时不可用…); the method falls back to support.
          message.error(
            error instanceof ApiError && error.status === 503 ? error.detail : '生成支付二维码失败',
          );
          form.setFieldValue('payment_method', 'service');
        },
      },
    );

  return (
    <Modal
      open={open}
      title="充值"
      maskClosable={false}
      okText="确认充值"
      cancelText="取消"
      onOk={() => form.submit()}
      onCancel={close}
      okButtonProps={{ disabled: method === 'service' || payment !== null }}
      confirmLoading={create.isPending}
      footer={payment ? null : undefined}
      destroyOnHidden
    >
      {payment ? (
        <PaymentQr
          payment={payment}
          onSuccess={() => {
            message.success('充值成功');
            close();
          }}
          onFailed={fallBackToSupport}
          onCancel={() => setPayment(null)}
        />
      ) : (
        <Form<TopUpForm>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ amount: DEFAULT_TOP_UP, payment_method: 'wechat' }}
          onFinish={submit}
        >
          <Form.Item
            label="充值金额（元）"
            name="amount"
            rules={[
              {
                validator: (_, value: number | null) => {
                  const error = validateTopUpAmount(value);
                  return error ? Promise.reject(new Error(error)) : Promise.resolve();
                },
              },
            ]}
          >
            <InputNumber
              min={MIN_TOP_UP}
              step={1}
              precision={2}
              style={{ width: '100%' }}
              aria-label="充值金额"
            />
          </Form.Item>
          <Form.Item label="支付方式" name="payment_method">
            <Radio.Group
              optionType="button"
              options={[
                { value: 'wechat', label: '微信支付' },
                { value: 'service', label: '联系客服' },
              ]}
            />
          </Form.Item>
          {method === 'service' ? (
            <SupportContact />
          ) : (
            <Alert type="info" showIcon message="确认后将显示微信支付二维码，支付成功后余额自动到账。" />
          )}
        </Form>
      )}
    </Modal>
  );
}
