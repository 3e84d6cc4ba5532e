import type { AuthAnswer, LoginInput } from '@gpucloud/control-plane/api';
import { api } from '../../../lib/api-client';

export function login(input: LoginInput): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/api/auth/login', input, { anonymous: true });
}
