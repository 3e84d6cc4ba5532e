import type { Context, Next } from 'koa';
import { isHttps } from './proxy.js';

/**
 * The console's Content-Security-Policy: scripts only from our own origin (the built console has
 * no inline script); styles may be inline (antd's CSS-in-JS and echarts write style attributes
 * and <style> elements at run time); images may be data:/blob: (QR codes, charts) or https
 * (catalogue logos); the API and its WebSockets are same-origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HSTS = 'max-age=31536000; includeSubDomains';

/** The security headers of every answer, as [name, value] pairs; HSTS only over HTTPS. */
export function securityHeaderPairs(https: boolean): [string, string][] {
  return https ? SECURE_PAIRS : PLAIN_PAIRS;
}

const PLAIN_PAIRS: [string, string][] = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
];
const SECURE_PAIRS: [string, string][] = [...PLAIN_PAIRS, ['Strict-Transport-Security', HSTS]];

/** Security headers on every answer (console and API); HSTS only over HTTPS. */
export function securityHeaders() {
  return async (ctx: Context, next: Next) => {
    for (const [name, value] of securityHeaderPairs(isHttps(ctx))) ctx.set(name, value);
    await next();
  };
}
