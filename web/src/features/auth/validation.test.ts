import { describe, expect, it } from 'vitest';
import { postLoginPath, sessionUserFrom } from './session';
import {
  validateCode,
  validateConfirm,
  validateEmail,
  validateLogin,
  validatePassword,
  validatePhone,
  validateUsername,
} from './validation';

describe('login and register rules', () => {
  it('login needs both username and password', () => {
    expect(validateLogin('', 'x')).toBe('请输入用户名和密码');
    expect(validateLogin('alice', '')).toBe('请输入用户名和密码');
    expect(validateLogin('alice', 'secret')).toBeNull();
  });

  it('username: at least 3 characters of letters, digits, _ and -', () => {
    expect(validateUsername('ab')).toBe('用户名至少需要3个字符');
    expect(validateUsername('abc')).toBeNull();
    expect(validateUsername('a b c')).toBe('用户名只能包含字母、数字、下划线和横线');
  });

  it('email, password length and confirmation', () => {
    expect(validateEmail('a@b')).toBe('请输入正确的邮箱地址');
    expect(validateEmail('a@b.cn')).toBeNull();
    expect(validatePassword('12345')).toBe('密码至少需要6个字符');
    expect(validatePassword('123456')).toBeNull();
    expect(validateConfirm('123456', '1234567')).toBe('两次输入的密码不一致');
    expect(validateConfirm('123456', '123456')).toBeNull();
  });
});

describe('after signing in', () => {
  it('takes isAdmin from is_admin and a missing nickname as empty', () => {
    expect(sessionUserFrom({ token: 't', username: 'root', nickname: null, is_admin: true })).toEqual({
      username: 'root',
      nickname: '',
      isAdmin: true,
    });
  });

  it('goes to the redirect query, else the stored route, else /market', () => {
    expect(postLoginPath('/user/containers')).toBe('/user/containers');
    sessionStorage.setItem('redirectAfterLogin', '/containers');
    expect(postLoginPath(null)).toBe('/containers');
    expect(postLoginPath('https://evil.example')).toBe('/market');
  });
});

describe('codes and phones', () => {
  it('a code is required; a phone is 1, then 3-9, then 9 digits', () => {
    expect(validateCode(' ')).toBe('请输入验证码');
    expect(validateCode('123456')).toBeNull();
    expect(validatePhone('13812345678')).toBeNull();
    expect(validatePhone('12812345678')).toBe('请输入正确的手机号');
    expect(validatePhone('1381234567')).toBe('请输入正确的手机号');
  });
});
