import type { AuthAnswer, RegisterInput } from '@gpucloud/control-plane/api';
import { api } from '../../../lib/api-client';

export function register(input: RegisterInput): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/api/auth/register', input, { anonymous: true });
}
