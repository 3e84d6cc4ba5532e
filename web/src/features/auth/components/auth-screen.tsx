import type { AuthAnswer } from '@gpucloud/control-plane/api';
import { lazy, Suspense, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { RouteLoading } from '../../../app/layouts/main-layout';
import { useTrialCreditLine } from '../api/get-site';
import { postLoginPath, startSession } from '../session';
import { AuthIcon } from './auth-icons';
import { LoginForm } from './login-form';
import './auth.css';

export type AuthMode = 'login' | 'register';

/** The register form is built with antd: it (and antd) loads when register mode opens. */
const RegisterPanel = lazy(() => import('./register-panel'));

/** Error codes the server may put in /login?error=. */
const ERROR_MESSAGES: Record<string, string> = {
  code_used: '微信授权已过期，请重新扫码登录',
  wechat_failed: '微信登录失败',
};

/** The register screen's 新用户注册即送 … 元体验金, with the server's amount (nothing while it loads or when 0). */
function TrialCredit() {
  const line = useTrialCreditLine();
  if (!line) return null;
  return <p className="auth-note">{line}</p>;
}

/**
 * The sign-in / register screen. Drawn without antd (auth.css copies antd's look) so /login is
 * usable after little JavaScript; register mode brings antd with its form.
 */
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
    <div className="auth-page">
      <section className="auth-card">
        <h3 className="auth-title">{mode === 'login' ? '登录 GPU 云平台' : '注册账号'}</h3>
        {mode === 'register' ? <TrialCredit /> : null}
        {errorMessage ? (
          <div className="auth-alert" role="alert">
            <AuthIcon name="close-circle" />
            <span>{errorMessage}</span>
          </div>
        ) : null}
        {/* Each mode is its own form, so switching unmounts the other one and clears its fields. */}
        {mode === 'login' ? (
          <LoginForm onSignedIn={signedIn} redirect={searchParams.get('redirect')} />
        ) : (
          <Suspense fallback={<RouteLoading />}>
            <RegisterPanel onSignedIn={signedIn} />
          </Suspense>
        )}
        <div className="auth-switch">
          <button
            type="button"
            className="auth-link-btn"
            onClick={() => setMode(mode === 'login' ? 'register' : 'login')}
          >
            {mode === 'login' ? '没有账号？立即注册' : '已有账号？去登录'}
          </button>
        </div>
      </section>
    </div>
  );
}
