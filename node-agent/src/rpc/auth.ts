// The node token: every call carries `authorization: Bearer <token>`.
import { createHash, timingSafeEqual } from 'node:crypto';
import { AUTH_METADATA_KEY } from '@gpucloud/proto';
import type * as grpc from '@grpc/grpc-js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time (digests of equal length, whatever the input lengths). */
export function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

export function isAuthorized(metadata: grpc.Metadata, token: string): boolean {
  const values = metadata.get(AUTH_METADATA_KEY);
  if (values.length !== 1 || typeof values[0] !== 'string') return false;
  const m = /^Bearer (.+)$/.exec(values[0]);
  return m !== null && tokenMatches(m[1]!, token);
}
