import { App, Form, Input, InputNumber, Select } from 'antd';
import { useEffect } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { withDetail } from '../../../lib/api-client';
import { useInvoiceableOrders } from '../../orders/api/orders';
import { useApplyInvoice } from '../api/invoices';

interface ApplyForm {
  order_id: number;
  title: string;
  tax_no: string;
  amount: number;
}

/** Apply for an invoice: an invoiceable order, title, tax number, amount (≥ 0, 2 decimals, ≤ what is left). */
export function ApplyInvoiceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ApplyForm>();
  const orders = useInvoiceableOrders(open);
  const apply = useApplyInvoice();
  const orderId = Form.useWatch('order_id', form);
  const chosen = orders.data?.items.find((o) => o.id === orderId);
  useEffect(() => {
    if (orders.isError && open) message.error('获取可开票订单失败');
  }, [orders.isError, open, message]);

  const submit = (values: ApplyForm) =>
    apply.mutate(
      { ...values, title: values.title.trim(), tax_no: values.tax_no.trim() },
      {
        onSuccess: () => {
          message.success('发票申请成功');
          onClose();
        },
        onError: (error) => message.error(withDetail('申请发票失败', error)),
      },
    );

  return (
    <FormDialog<ApplyForm>
      open={open}
      title="申请发票"
      okText="提交申请"
      form={form}
      requiredMark={false}
      saving={apply.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item label="订单" name="order_id" rules={[{ required: true, message: '请选择订单' }]}>
        <Select
          aria-label="订单"
          loading={orders.isPending}
          placeholder="选择可开票的订单"
          onChange={(id: number) => {
            const order = orders.data?.items.find((o) => o.id === id);
            if (order) form.setFieldValue('amount', order.invoiceable_amount);
          }}
          options={(orders.data?.items ?? []).map((o) => ({
            value: o.id,
            label: `${o.order_id}（${o.product_name}，可开票 ¥${o.invoiceable_amount.toFixed(2)}）`,
          }))}
        />
      </Form.Item>
      <Form.Item
        label="发票抬头"
        name="title"
        rules={[{ required: true, whitespace: true, message: '请输入发票抬头' }]}
      >
        <Input maxLength={100} aria-label="发票抬头" />
      </Form.Item>
      <Form.Item
        label="税号"
        name="tax_no"
        rules={[
          { required: true, message: '请输入税号' },
          { pattern: /^[0-9A-Za-z]{15,20}$/, message: '税号格式不正确（15-20位字母或数字）' },
        ]}
      >
        <Input maxLength={20} aria-label="税号" />
      </Form.Item>
      <Form.Item label="开票金额（元）" name="amount" rules={[{ required: true, message: '请输入开票金额' }]}>
        <InputNumber
          min={0}
          max={chosen?.invoiceable_amount}
          precision={2}
          style={{ width: '100%' }}
          aria-label="开票金额"
        />
      </Form.Item>
    </FormDialog>
  );
}
