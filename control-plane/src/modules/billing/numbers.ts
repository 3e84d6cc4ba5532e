import { randomInt } from 'node:crypto';

/** A business number: prefix + UTC yyyyMMddHHmmss + 8 random digits (WeChat allows 6-32 of [A-Za-z0-9_-|*]). */
export function businessNo(prefix: string, at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${prefix}${stamp}${String(randomInt(100_000_000)).padStart(8, '0')}`;
}

export const fen = (yuan: number) => Math.round(yuan * 100);
export const yuan = (amountFen: number | string) => Number(amountFen) / 100;
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
