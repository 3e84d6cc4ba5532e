import type { ResetContacts } from '@gpucloud/control-plane/api';
import { Button, Flex, Form, Input, Radio, Result, Typography } from 'antd';
import { LinkButton } from '../../../../components/link-button';
import { SendCodeButton } from '../../../../components/send-code-button';
import type { ResetMethod } from '../../api/password-reset';
import {
  CODE_LENGTH,
  MSG_CODE_LENGTH,
  MSG_CODE_REQUIRED,
  MSG_PASSWORD_MISMATCH,
  MSG_PASSWORD_REQUIRED,
  MSG_PASSWORD_SHORT,
  MSG_USERNAME_REQUIRED,
  MSG_USERNAME_SHORT,
} from './rules';

export function UsernameStep({ loading, onNext }: { loading: boolean; onNext: (username: string) => void }) {
  return (
    <Form
      layout="vertical"
      requiredMark={false}
      onFinish={(v: { username: string }) => onNext(v.username.trim())}
    >
      <Form.Item
        label="用户名"
        name="username"
        rules={[
          { required: true, whitespace: true, message: MSG_USERNAME_REQUIRED },
          { min: 3, message: MSG_USERNAME_SHORT },
        ]}
      >
        <Input placeholder="请输入要找回密码的用户名" autoComplete="username" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={loading}>
        下一步
      </Button>
    </Form>
  );
}

export function MethodStep({
  contacts,
  method,
  onMethod,
  loading,
  onBack,
  onSend,
}: {
  contacts: ResetContacts;
  method: ResetMethod | null;
  onMethod: (method: ResetMethod) => void;
  loading: boolean;
  onBack: () => void;
  onSend: () => void;
}) {
  return (
    <Flex vertical gap={16}>
      <Typography.Text>请选择接收验证码的方式：</Typography.Text>
      <Radio.Group value={method} onChange={(e) => onMethod(e.target.value as ResetMethod)}>
        <Flex vertical gap={8}>
          <Radio value="phone" disabled={!contacts.phone}>
            手机号 {contacts.phone ?? '（未绑定）'}
          </Radio>
          <Radio value="email" disabled={!contacts.email}>
            邮箱 {contacts.email ?? '（未绑定）'}
          </Radio>
        </Flex>
      </Radio.Group>
      <Flex gap={8}>
        <Button onClick={onBack}>上一步</Button>
        <Button type="primary" block disabled={!method} loading={loading} onClick={onSend}>
          发送验证码
        </Button>
      </Flex>
    </Flex>
  );
}

export function CodeStep({
  target,
  remaining,
  resending,
  loading,
  onResend,
  onBack,
  onNext,
}: {
  target: string;
  remaining: number;
  resending: boolean;
  loading: boolean;
  onResend: () => void;
  onBack: () => void;
  onNext: (code: string) => void;
}) {
  return (
    <Form layout="vertical" requiredMark={false} onFinish={(v: { code: string }) => onNext(v.code.trim())}>
      <Typography.Paragraph type="secondary">验证码已发送至 {target}</Typography.Paragraph>
      <Form.Item label="验证码" required={false}>
        <Flex gap={8}>
          <Form.Item
            name="code"
            noStyle
            rules={[
              { required: true, whitespace: true, message: MSG_CODE_REQUIRED },
              { len: CODE_LENGTH, message: MSG_CODE_LENGTH },
            ]}
          >
            <Input
              placeholder="6位验证码"
              maxLength={CODE_LENGTH}
              aria-label="验证码"
              autoComplete="one-time-code"
            />
          </Form.Item>
          <SendCodeButton remaining={remaining} loading={resending} onClick={onResend} />
        </Flex>
      </Form.Item>
      <Flex gap={8}>
        <Button onClick={onBack}>上一步</Button>
        <Button type="primary" htmlType="submit" block loading={loading}>
          下一步
        </Button>
      </Flex>
    </Form>
  );
}

export function PasswordStep({
  loading,
  onBack,
  onSubmit,
}: {
  loading: boolean;
  onBack: () => void;
  onSubmit: (password: string) => void;
}) {
  return (
    <Form layout="vertical" requiredMark={false} onFinish={(v: { password: string }) => onSubmit(v.password)}>
      <Form.Item
        label="新密码"
        name="password"
        rules={[
          { required: true, message: MSG_PASSWORD_REQUIRED },
          { min: 6, message: MSG_PASSWORD_SHORT },
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="确认新密码"
        name="confirm"
        dependencies={['password']}
        rules={[
          { required: true, message: '请再次输入新密码' },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || value === getFieldValue('password')
                ? Promise.resolve()
                : Promise.reject(new Error(MSG_PASSWORD_MISMATCH)),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Flex gap={8}>
        <Button onClick={onBack}>上一步</Button>
        <Button type="primary" htmlType="submit" block loading={loading}>
          确认重置
        </Button>
      </Flex>
    </Form>
  );
}

export function DoneStep() {
  return (
    <Result
      status="success"
      title="密码重置成功"
      subTitle="请使用新密码登录。"
      extra={
        <LinkButton to="/login" type="primary">
          去登录
        </LinkButton>
      }
    />
  );
}
