import { api } from '../../../lib/api-client';
import type { AuthAnswer } from './types';

export interface LoginInput {
  username: string;
  password: string;
}

export function login(input: LoginInput): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/api/auth/login', input, { anonymous: true });
}
