import type { ResetContacts } from '@gpucloud/control-plane/api';
import { useMutation } from '@tanstack/react-query';
import { App, Card, Flex, Steps, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useCountdown } from '../../../../lib/use-countdown';
import {
  checkUsername,
  RESET_CODE_COUNTDOWN_S,
  type ResetMethod,
  resetPassword,
  sendResetCode,
  verifyResetCode,
} from '../../api/password-reset';
import { preferServerDetail } from './rules';
import { CodeStep, DoneStep, MethodStep, PasswordStep, UsernameStep } from './steps';

const STEP_TITLES = ['输入用户名', '选择验证方式', '输入验证码', '设置新密码', '完成'];

/** /forgot-password: 1 username, 2 method, 3 code, 4 new password, 5 success (document 2). */
export function ForgotPasswordPage() {
  const { message } = App.useApp();
  const [step, setStep] = useState(0);
  const [contacts, setContacts] = useState<ResetContacts | null>(null);
  const [method, setMethod] = useState<ResetMethod | null>(null);
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const countdown = useCountdown();

  const check = useMutation({
    mutationFn: checkUsername,
    onSuccess: (answer) => {
      setContacts(answer);
      setMethod(answer.phone ? 'phone' : answer.email ? 'email' : null);
      setStep(1);
    },
    onError: (error) => message.error(preferServerDetail('用户名验证失败', error)),
  });

  const send = useMutation({
    mutationFn: sendResetCode,
    onSuccess: (answer) => {
      message.success('验证码已发送');
      setTarget(answer.target);
      countdown.start(RESET_CODE_COUNTDOWN_S);
      setStep(2);
    },
    onError: (error) => message.error(preferServerDetail('发送验证码失败', error)),
  });

  const verify = useMutation({
    mutationFn: verifyResetCode,
    onSuccess: (_answer, input) => {
      setCode(input.code);
      setStep(3);
    },
    onError: (error) => message.error(preferServerDetail('验证码验证失败', error)),
  });

  const reset = useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      message.success('密码重置成功');
      setStep(4);
    },
    onError: (error) => message.error(preferServerDetail('重置密码失败', error)),
  });

  const username = contacts?.username ?? '';
  const sendCode = () => {
    if (method) send.mutate({ username, method });
  };

  return (
    <Flex justify="center" style={{ padding: '48px 16px' }}>
      <Card style={{ width: 640, maxWidth: '100%' }}>
        <Typography.Title level={3} style={{ marginTop: 0, textAlign: 'center' }}>
          找回密码
        </Typography.Title>
        <Steps
          current={step}
          size="small"
          items={STEP_TITLES.map((title) => ({ title }))}
          style={{ marginBottom: 32 }}
        />
        <div style={{ maxWidth: 400, margin: '0 auto' }} data-testid={`reset-step-${step + 1}`}>
          {step === 0 ? (
            <UsernameStep loading={check.isPending} onNext={(name) => check.mutate(name)} />
          ) : null}
          {step === 1 && contacts ? (
            <MethodStep
              contacts={contacts}
              method={method}
              onMethod={setMethod}
              loading={send.isPending}
              onBack={() => setStep(0)}
              onSend={sendCode}
            />
          ) : null}
          {step === 2 && method ? (
            <CodeStep
              target={target}
              remaining={countdown.remaining}
              resending={send.isPending}
              loading={verify.isPending}
              onResend={sendCode}
              onBack={() => setStep(1)}
              onNext={(value) => verify.mutate({ username, code: value, method })}
            />
          ) : null}
          {step === 3 ? (
            <PasswordStep
              loading={reset.isPending}
              onBack={() => setStep(2)}
              onSubmit={(password) => reset.mutate({ username, password, code })}
            />
          ) : null}
          {step === 4 ? <DoneStep /> : null}
        </div>
        {step < 4 ? (
          <Flex justify="center" style={{ marginTop: 24 }}>
            <Link to="/login">返回登录</Link>
          </Flex>
        ) : null}
      </Card>
    </Flex>
  );
}
