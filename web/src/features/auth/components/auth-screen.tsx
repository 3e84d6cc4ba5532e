import type { AuthAnswer } from '@gpucloud/control-plane/api';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useTrialCreditLine } from '../api/get-site';
import { postLoginPath, startSession } from '../session';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

export type AuthMode = 'login' | 'register';

/** Error codes the server may put in /login?error=. */
const ERROR_MESSAGES: Record<string, string> = {
  code_used: '微信授权已过期，请重新扫码登录',
  wechat_failed: '微信登录失败',
};

/** The register screen's 新用户注册即送 … 元体验金, with the server's amount (nothing while it loads or when 0). */
function TrialCredit() {
  const line = useTrialCreditLine();
  if (!line) return null;
  return (
    <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
      {line}
    </Typography.Paragraph>
  );
}

export function AuthScreen({ initialMode = 'login' }: { initialMode?: AuthMode }) {
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const errorCode = searchParams.get('error');
  const errorMessage = errorCode ? ERROR_MESSAGES[errorCode] : undefined;

  // The spec also lists code and state on /login: a WeChat redirect landing here is finished
  // by the callback page.
  const code = searchParams.get('code');
  const state = searchParams.get('state');
  if (code && state) {
    return <Navigate to={`/wechat-callback?${new URLSearchParams({ code, state })}`} replace />;
  }

  const signedIn = (answer: AuthAnswer) => {
    startSession(answer);
    navigate(postLoginPath(searchParams.get('redirect')), { replace: true });
  };

  return (
    <Flex justify="center" style={{ padding: '48px 16px' }}>
      <Card style={{ width: 420, maxWidth: '100%' }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginTop: 0 }}>
          {mode === 'login' ? '登录 GPU 云平台' : '注册账号'}
        </Typography.Title>
        {mode === 'register' ? <TrialCredit /> : null}
        {errorMessage ? (
          <Alert type="error" showIcon message={errorMessage} style={{ marginBottom: 16 }} />
        ) : null}
        {/* Each mode is its own form, so switching unmounts the other one and clears its fields. */}
        {mode === 'login' ? (
          <LoginForm onSignedIn={signedIn} redirect={searchParams.get('redirect')} />
        ) : (
          <RegisterForm onSignedIn={signedIn} />
        )}
        <Flex justify="center">
          <Button type="link" onClick={() => setMode(mode === 'login' ? 'register' : 'login')}>
            {mode === 'login' ? '没有账号？立即注册' : '已有账号？去登录'}
          </Button>
        </Flex>
      </Card>
    </Flex>
  );
}
