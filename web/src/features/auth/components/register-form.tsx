import type { AuthAnswer } from '@gpucloud/control-plane/api';
import { useMutation } from '@tanstack/react-query';
import { Button, Flex, Form, Input } from 'antd';
import { SendCodeButton } from '../../../components/send-code-button';
import { withDetail } from '../../../lib/api-client';
import { ruleFrom } from '../../../lib/form-rules';
import { showMessage } from '../../../lib/messages';
import { useCountdown } from '../../../lib/use-countdown';
import { register } from '../api/register';
import { EMAIL_CODE_COUNTDOWN_S, sendEmailVerifyCode } from '../api/send-email-code';
import {
  validateCode,
  validateConfirm,
  validateEmail,
  validatePassword,
  validateUsername,
} from '../validation';

interface RegisterValues {
  username: string;
  email: string;
  email_verify_code: string;
  password: string;
  confirm: string;
}

export function RegisterForm({ onSignedIn }: { onSignedIn: (answer: AuthAnswer) => void }) {
  const [form] = Form.useForm<RegisterValues>();
  const email = Form.useWatch('email', form) ?? '';
  const countdown = useCountdown();
  const emailValid = validateEmail(email) === null;

  const sendCode = useMutation({
    mutationFn: sendEmailVerifyCode,
    onSuccess: () => {
      showMessage('success', '验证码已发送');
      countdown.start(EMAIL_CODE_COUNTDOWN_S);
    },
    onError: (error) => {
      showMessage('error', withDetail('发送验证码失败', error));
    },
  });

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: (answer) => {
      showMessage('success', '注册成功！');
      onSignedIn(answer);
    },
    onError: (error) => {
      showMessage('error', withDetail('操作失败', error));
    },
  });

  return (
    <Form
      form={form}
      name="register"
      layout="vertical"
      requiredMark={false}
      onFinish={(values) =>
        mutation.mutate({
          username: values.username.trim(),
          email: values.email.trim(),
          email_verify_code: values.email_verify_code.trim(),
          password: values.password,
        })
      }
    >
      <Form.Item label="用户名" name="username" rules={[ruleFrom((v?: string) => validateUsername(v ?? ''))]}>
        <Input placeholder="至少3个字符" autoComplete="username" />
      </Form.Item>
      <Form.Item label="邮箱" name="email" rules={[ruleFrom((v?: string) => validateEmail(v ?? ''))]}>
        <Input placeholder="name@example.com" autoComplete="email" />
      </Form.Item>
      <Form.Item label="验证码" required={false}>
        <Flex gap={8}>
          <Form.Item
            name="email_verify_code"
            noStyle
            rules={[ruleFrom((v?: string) => validateCode(v ?? ''))]}
          >
            <Input placeholder="邮箱验证码" autoComplete="one-time-code" aria-label="验证码" maxLength={6} />
          </Form.Item>
          <SendCodeButton
            remaining={countdown.remaining}
            disabled={!emailValid}
            loading={sendCode.isPending}
            onClick={() => sendCode.mutate(email.trim())}
            testId="send-email-code"
          />
        </Flex>
      </Form.Item>
      <Form.Item label="密码" name="password" rules={[ruleFrom((v?: string) => validatePassword(v ?? ''))]}>
        <Input.Password placeholder="至少6个字符" autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="确认密码"
        name="confirm"
        dependencies={['password']}
        rules={[
          ({ getFieldValue }) =>
            ruleFrom((v?: string) => validateConfirm(String(getFieldValue('password') ?? ''), v ?? '')),
        ]}
      >
        <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          注册
        </Button>
      </Form.Item>
    </Form>
  );
}
