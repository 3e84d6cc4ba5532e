import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Form, Input } from 'antd';
import { withDetail } from '../../../lib/api-client';
import { type LoginInput, login } from '../api/login';
import type { AuthAnswer } from '../api/types';
import { validateLogin } from '../validation';

export function LoginForm({ onSignedIn }: { onSignedIn: (answer: AuthAnswer) => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<LoginInput>();
  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (answer) => {
      message.success('登录成功');
      onSignedIn(answer);
    },
    onError: (error) => {
      message.error(withDetail('操作失败', error));
    },
  });

  const submit = (values: Partial<LoginInput>) => {
    const username = values.username?.trim() ?? '';
    const password = values.password ?? '';
    const problem = validateLogin(username, password);
    if (problem) {
      message.error(problem);
      return;
    }
    mutation.mutate({ username, password });
  };

  return (
    <Form form={form} name="login" layout="vertical" onFinish={submit} requiredMark={false}>
      <Form.Item label="用户名" name="username">
        <Input prefix={<UserOutlined />} placeholder="请输入用户名" autoComplete="username" />
      </Form.Item>
      <Form.Item label="密码" name="password">
        <Input.Password prefix={<LockOutlined />} placeholder="请输入密码" autoComplete="current-password" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          登录
        </Button>
      </Form.Item>
    </Form>
  );
}
