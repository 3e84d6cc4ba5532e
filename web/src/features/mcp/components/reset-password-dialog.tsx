import type { McpContainer } from '@gpucloud/control-plane/api';
import { App, Form, Input } from 'antd';
import { FormDialog } from '../../../components/form-dialog';
import { withDetail } from '../../../lib/api-client';
import { useResetMcpPassword } from '../api/mcp-commands';
import { MSG_NEW_PASSWORD, MSG_PASSWORD_MISMATCH } from '../types';

interface ResetForm {
  password: string;
  confirm: string;
}

/** A new root password, typed twice. */
export function ResetPasswordDialog({
  container,
  onClose,
}: {
  container: McpContainer;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ResetForm>();
  const reset = useResetMcpPassword();

  const submit = ({ password }: ResetForm) =>
    reset.mutate(
      { id: container.container_id, password },
      {
        onSuccess: () => {
          message.success('密码重置成功');
          onClose();
        },
        onError: (error) => {
          message.error(withDetail('重置密码失败', error));
        },
      },
    );

  return (
    <FormDialog
      title={`重置密码 - ${container.name}`}
      okText="确定"
      form={form}
      requiredMark={false}
      saving={reset.isPending}
      onClose={onClose}
      onFinish={submit}
    >
      <Form.Item label="新密码" name="password" rules={[{ required: true, message: MSG_NEW_PASSWORD }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="确认密码"
        name="confirm"
        dependencies={['password']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              value === getFieldValue('password')
                ? Promise.resolve()
                : Promise.reject(new Error(MSG_PASSWORD_MISMATCH)),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormDialog>
  );
}
