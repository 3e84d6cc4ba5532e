import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { AuthAnswer, LoginInput } from '@gpucloud/control-plane/api';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Divider, Flex, Form, Input, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { withDetail } from '../../../lib/api-client';
import { login } from '../api/login';
import { validateLogin } from '../validation';
import { WechatLoginButton } from './wechat-login-button';

export function LoginForm({
  onSignedIn,
  redirect,
}: {
  onSignedIn: (answer: AuthAnswer) => void;
  /** The ?redirect= of the login page, kept across the WeChat round trip. */
  redirect: string | null;
}) {
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
      <Flex justify="flex-end" style={{ marginTop: -16, marginBottom: 16 }}>
        <Link to="/forgot-password">忘记密码？</Link>
      </Flex>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          登录
        </Button>
      </Form.Item>
      <Divider plain>
        <Typography.Text type="secondary">其他登录方式</Typography.Text>
      </Divider>
      <WechatLoginButton redirect={redirect} />
    </Form>
  );
}
