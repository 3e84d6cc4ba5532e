import { App, DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FormDialog } from '../../../components/form-dialog';
import { withDetail } from '../../../lib/api-client';
import { useGrantCoupons } from '../../coupons/api/coupons';

interface GrantForm {
  name: string;
  amount: number;
  minAmount: number;
  expireDate: Dayjs;
  usernames: string[];
}

/** 发放卡券: one coupon for each named user. */
export function GrantCouponsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<GrantForm>();
  const grant = useGrantCoupons();
  const submit = (v: GrantForm) =>
    grant.mutate(
      {
        name: v.name.trim(),
        amount: v.amount,
        minAmount: v.minAmount,
        expireDate: v.expireDate.toISOString(),
        usernames: v.usernames.map((u) => u.trim()).filter(Boolean),
      },
      {
        onSuccess: ({ created }) => {
          message.success(`已发放 ${created} 张卡券`);
          onClose();
        },
        onError: (error) => message.error(withDetail('发放卡券失败', error)),
      },
    );
  return (
    <FormDialog<GrantForm>
      open={open}
      title="发放卡券"
      okText="发放"
      form={form}
      requiredMark={false}
      initialValues={{ minAmount: 0, expireDate: dayjs().add(30, 'day').endOf('day') }}
      saving={grant.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item
        label="卡券名称"
        name="name"
        rules={[{ required: true, whitespace: true, message: '请输入卡券名称' }]}
      >
        <Input maxLength={64} aria-label="卡券名称" />
      </Form.Item>
      <Form.Item label="面额（元）" name="amount" rules={[{ required: true, message: '请输入面额' }]}>
        <InputNumber min={0.01} precision={2} style={{ width: '100%' }} aria-label="面额" />
      </Form.Item>
      <Form.Item
        label="使用门槛（元，满多少可用）"
        name="minAmount"
        rules={[{ required: true, message: '请输入使用门槛' }]}
      >
        <InputNumber min={0} precision={2} style={{ width: '100%' }} aria-label="使用门槛" />
      </Form.Item>
      <Form.Item label="过期时间" name="expireDate" rules={[{ required: true, message: '请选择过期时间' }]}>
        <DatePicker showTime style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
      </Form.Item>
      <Form.Item
        label="发放给（用户名，回车添加）"
        name="usernames"
        rules={[{ required: true, message: '请至少选择一个用户' }]}
      >
        <Select mode="tags" tokenSeparators={[',', ' ', '，']} open={false} aria-label="用户名" />
      </Form.Item>
    </FormDialog>
  );
}
