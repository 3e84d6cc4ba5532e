import { api } from '../../../lib/api-client';
import type { AuthAnswer } from './types';

export interface RegisterInput {
  username: string;
  password: string;
  email: string;
  email_verify_code: string;
}

export function register(input: RegisterInput): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/api/auth/register', input, { anonymous: true });
}
