/** Money is integer fen everywhere; the API shows yuan with 2 decimals. */
export function fenToYuan(fen: number | string | bigint): number {
  return Number(fen) / 100;
}

/** Parses a yuan amount with at most 2 decimals to fen without floating point drift. */
export function yuanToFen(yuan: number): number {
  const fen = Math.round(yuan * 100);
  if (Math.abs(fen - yuan * 100) > 1e-6) throw new Error(`more than 2 decimals: ${yuan}`);
  return fen;
}
