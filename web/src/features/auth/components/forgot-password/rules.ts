import { ApiError } from '../../../../lib/api-client';

/** The wizard's rules (document 2, §5). */
export const MSG_USERNAME_REQUIRED = '请输入用户名';
export const MSG_USERNAME_SHORT = '用户名长度不能小于3位';
export const MSG_CODE_REQUIRED = '请输入验证码';
export const MSG_CODE_LENGTH = '验证码必须为6位';
export const MSG_PASSWORD_REQUIRED = '请输入新密码';
export const MSG_PASSWORD_SHORT = '密码长度不能小于6位';
export const MSG_PASSWORD_MISMATCH = '两次输入的密码不一致';
export const CODE_LENGTH = 6;

/** The wizard shows the server's detail when there is one, else its own failure text. */
export function preferServerDetail(fallback: string, error: unknown): string {
  return error instanceof ApiError && error.serverDetail ? error.serverDetail : fallback;
}
