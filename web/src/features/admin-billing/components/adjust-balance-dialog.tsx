import { App, Form, Input, InputNumber } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withDetail } from '../../../lib/api-client';
import { useAdjustBalance } from '../api/admin-money';

interface AdjustForm {
  username: string;
  amount: number;
  reason: string;
}

/** 调整余额: a positive amount credits, a negative one debits; the reason is kept in the ledger. */
export function AdjustBalanceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<AdjustForm>();
  const adjust = useAdjustBalance();
  const submit = (values: AdjustForm) =>
    adjust.mutate(
      { username: values.username.trim(), amount: values.amount, reason: values.reason.trim() },
      {
        onSuccess: ({ balance }) => {
          message.success(`调整成功，当前余额 ¥${balance.toFixed(2)}`);
          onClose();
        },
        onError: (error) => message.error(withDetail('调整失败', error)),
      },
    );
  return (
    <FormDialog<AdjustForm>
      open={open}
      title="调整余额"
      okText="确定"
      form={form}
      requiredMark={false}
      saving={adjust.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item
        label="用户名"
        name="username"
        rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}
      >
        <Input aria-label="用户名" />
      </Form.Item>
      <Form.Item
        label="调整金额（元，负数为扣减）"
        name="amount"
        rules={[
          { required: true, message: '请输入调整金额' },
          {
            validator: (_, v: number) =>
              v === 0 ? Promise.reject(new Error('调整金额不能为0')) : Promise.resolve(),
          },
        ]}
      >
        <InputNumber precision={2} style={{ width: '100%' }} aria-label="调整金额" />
      </Form.Item>
      <Form.Item
        label="原因"
        name="reason"
        rules={[{ required: true, whitespace: true, message: '请输入调整原因' }]}
      >
        <Input maxLength={100} aria-label="原因" />
      </Form.Item>
    </FormDialog>
  );
}
