import { z } from 'zod';
import { pageField, pageSizeField } from '../../framework/fields.js';
import { MSG_SSH_KEY_TOO_LONG, SSH_KEY_MAX_LENGTH, sshKeyProblem } from './ssh-keys.js';

export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Mainland mobile numbers: 1, then 3-9, then 9 digits. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

export const MSG_EMAIL = '请输入正确的邮箱地址';
export const MSG_PHONE = '请输入正确的手机号';
export const MSG_CODE_REQUIRED = '请输入验证码';

const email = z
  .string({ required_error: MSG_EMAIL, invalid_type_error: MSG_EMAIL })
  .trim()
  .max(255, MSG_EMAIL)
  .regex(EMAIL_PATTERN, MSG_EMAIL)
  .transform((value) => value.toLowerCase());

const phone = z
  .string({ required_error: MSG_PHONE, invalid_type_error: MSG_PHONE })
  .trim()
  .regex(PHONE_PATTERN, MSG_PHONE);

const code = z
  .string({ required_error: MSG_CODE_REQUIRED, invalid_type_error: MSG_CODE_REQUIRED })
  .trim()
  .min(1, MSG_CODE_REQUIRED)
  .max(16, '验证码错误');

export const registerSchema = z.object({
  username: z
    .string({ required_error: '请输入用户名' })
    .trim()
    .min(3, '用户名至少需要3个字符')
    .max(32, '用户名不能超过32个字符')
    .regex(USERNAME_PATTERN, '用户名只能包含字母、数字、下划线和横线'),
  password: z
    .string({ required_error: '请输入密码' })
    .min(6, '密码至少需要6个字符')
    .max(128, '密码不能超过128个字符'),
  email,
  email_verify_code: code,
});

/** The longest username an account can have (users.username is varchar(64); new ones ≤ 32). */
export const USERNAME_MAX_LENGTH = 64;
export const PASSWORD_MAX_LENGTH = 128;

export const loginSchema = z.object({
  username: z
    .string({ required_error: '请输入用户名和密码', invalid_type_error: '请输入用户名和密码' })
    .trim()
    .min(1, '请输入用户名和密码')
    .max(USERNAME_MAX_LENGTH, `用户名不能超过${USERNAME_MAX_LENGTH}个字符`),
  password: z
    .string({ required_error: '请输入用户名和密码', invalid_type_error: '请输入用户名和密码' })
    .min(1, '请输入用户名和密码')
    .max(PASSWORD_MAX_LENGTH, `密码不能超过${PASSWORD_MAX_LENGTH}个字符`),
});

export const sendEmailCodeSchema = z.object({ email });

/** POST /api/auth/send-verify-code: the profile's e-mail verification (method is always email). */
export const sendVerifyCodeSchema = z.object({
  email,
  method: z.literal('email', { errorMap: () => ({ message: '不支持的验证方式' }) }).default('email'),
});

export const verifyEmailSchema = z.object({ verify_code: code });

export const sendPhoneCodeSchema = z.object({ phone });

export const verifyPhoneSchema = z.object({ phone, code });

export const sshKeySchema = z.object({
  ssh_key: z
    .string({ invalid_type_error: '请输入SSH公钥' })
    .max(SSH_KEY_MAX_LENGTH, MSG_SSH_KEY_TOO_LONG)
    .superRefine((value, ctx) => {
      const problem = sshKeyProblem(value);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    }),
});

// The forgot-password wizard (document 2, §5).
const resetUsername = z
  .string({ required_error: '请输入用户名' })
  .trim()
  .min(1, '请输入用户名')
  .min(3, '用户名长度不能小于3位')
  .max(USERNAME_MAX_LENGTH, '用户不存在');
const resetMethod = z.enum(['phone', 'email'], { errorMap: () => ({ message: '请选择验证方式' }) });
const resetCode = z
  .string({ required_error: MSG_CODE_REQUIRED })
  .trim()
  .min(1, MSG_CODE_REQUIRED)
  .length(6, '验证码必须为6位');

export const checkUsernameSchema = z.object({ username: resetUsername });
export const sendResetCodeSchema = z.object({ username: resetUsername, method: resetMethod });
export const verifyResetCodeSchema = z.object({
  username: resetUsername,
  code: resetCode,
  method: resetMethod.optional(),
});
export const resetPasswordSchema = z.object({
  username: resetUsername,
  code: resetCode,
  password: z
    .string({ required_error: '请输入新密码' })
    .min(1, '请输入新密码')
    .min(6, '密码长度不能小于6位')
    .max(128, '密码不能超过128个字符'),
});

export const adminUserListQuery = z.object({
  page: pageField(),
  size: pageSizeField([10, 20, 50, 100], 20),
  keyword: z.string().trim().max(64, '关键词不能超过64个字符').optional(),
});
