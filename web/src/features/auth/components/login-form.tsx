import type { AuthAnswer } from '@gpucloud/control-plane/api';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { withDetail } from '../../../lib/api-client';
import { preloadMessages, showMessage } from '../../../lib/messages';
import { login } from '../api/login';
import { validateLogin } from '../validation';
import { AuthIcon } from './auth-icons';
import { WechatLoginButton } from './wechat-login-button';

/**
 * Username and password sign-in, in plain HTML with antd's look and ids (form#login,
 * #login_username, #login_password) so it needs no antd before it can be used.
 */
export function LoginForm({
  onSignedIn,
  redirect,
}: {
  onSignedIn: (answer: AuthAnswer) => void;
  /** The ?redirect= of the login page, kept across the WeChat round trip. */
  redirect: string | null;
}) {
  const [showPassword, setShowPassword] = useState(false);
  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (answer) => {
      showMessage('success', '登录成功');
      onSignedIn(answer);
    },
    onError: (error) => {
      showMessage('error', withDetail('操作失败', error));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    // Read from the fields themselves: what was typed or autofilled before the prerendered page
    // was hydrated counts as much as what was typed after.
    const fields = new FormData(event.currentTarget);
    const name = String(fields.get('username') ?? '').trim();
    const password = String(fields.get('password') ?? '');
    const problem = validateLogin(name, password);
    if (problem) {
      showMessage('error', problem);
      return;
    }
    mutation.mutate({ username: name, password });
  };

  return (
    // The toasts' code loads as soon as the user starts with the form, not before it is usable.
    <form id="login" noValidate onSubmit={submit} onFocus={preloadMessages} onPointerDown={preloadMessages}>
      <div className="auth-field">
        <label className="auth-label" htmlFor="login_username">
          用户名
        </label>
        <span className="auth-input">
          <AuthIcon name="user" className="auth-input-prefix" />
          <input
            id="login_username"
            name="username"
            type="text"
            placeholder="请输入用户名"
            autoComplete="username"
          />
        </span>
      </div>
      <div className="auth-field">
        <label className="auth-label" htmlFor="login_password">
          密码
        </label>
        <span className="auth-input">
          <AuthIcon name="lock" className="auth-input-prefix" />
          <input
            id="login_password"
            name="password"
            type={showPassword ? 'text' : 'password'}
            placeholder="请输入密码"
            autoComplete="current-password"
          />
          <AuthIcon
            name={showPassword ? 'eye' : 'eye-invisible'}
            className="auth-input-suffix"
            // Keeps the focus in the field while the eye is clicked, as antd does.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => setShowPassword((shown) => !shown)}
          />
        </span>
      </div>
      <div className="auth-forgot">
        <Link to="/forgot-password">忘记密码？</Link>
      </div>
      <div className="auth-submit">
        <button
          type="submit"
          className="gc-btn gc-btn-primary auth-btn-block"
          aria-busy={mutation.isPending || undefined}
        >
          {mutation.isPending ? <AuthIcon name="loading" /> : null}
          <span>登录</span>
        </button>
      </div>
      <div className="auth-divider">
        <span>其他登录方式</span>
      </div>
      <WechatLoginButton redirect={redirect} />
    </form>
  );
}
