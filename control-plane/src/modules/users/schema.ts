import { z } from 'zod';

export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
  email: z
    .string({ required_error: '请输入正确的邮箱地址' })
    .trim()
    .max(255)
    .regex(EMAIL_PATTERN, '请输入正确的邮箱地址'),
  email_verify_code: z.string().optional(),
});

export const loginSchema = z.object({
  username: z.string({ required_error: '请输入用户名和密码' }).trim().min(1, '请输入用户名和密码'),
  password: z.string({ required_error: '请输入用户名和密码' }).min(1, '请输入用户名和密码'),
});
