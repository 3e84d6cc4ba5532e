/** Register and login rules of the spec (§5), shared by the form and its tests. */
export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 6;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

export const MSG_LOGIN_REQUIRED = '请输入用户名和密码';
export const MSG_USERNAME_SHORT = '用户名至少需要3个字符';
export const MSG_USERNAME_CHARS = '用户名只能包含字母、数字、下划线和横线';
export const MSG_EMAIL = '请输入正确的邮箱地址';
export const MSG_PASSWORD_SHORT = '密码至少需要6个字符';
export const MSG_PASSWORD_MISMATCH = '两次输入的密码不一致';
export const MSG_CODE_REQUIRED = '请输入验证码';
/** Mainland mobile numbers (profile): 1, then 3-9, then 9 digits. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const MSG_PHONE = '请输入正确的手机号';

export function validateLogin(username: string, password: string): string | null {
  return username.trim() && password ? null : MSG_LOGIN_REQUIRED;
}

export function validateUsername(value: string): string | null {
  const username = value.trim();
  if (username.length < USERNAME_MIN) return MSG_USERNAME_SHORT;
  if (!USERNAME_PATTERN.test(username)) return MSG_USERNAME_CHARS;
  return null;
}

export function validateEmail(value: string): string | null {
  return EMAIL_PATTERN.test(value.trim()) ? null : MSG_EMAIL;
}

export function validatePassword(value: string): string | null {
  return value.length >= PASSWORD_MIN ? null : MSG_PASSWORD_SHORT;
}

export function validateConfirm(password: string, confirm: string): string | null {
  return password === confirm ? null : MSG_PASSWORD_MISMATCH;
}

export function validateCode(value: string): string | null {
  return value.trim() ? null : MSG_CODE_REQUIRED;
}

export function validatePhone(value: string): string | null {
  return PHONE_PATTERN.test(value.trim()) ? null : MSG_PHONE;
}
