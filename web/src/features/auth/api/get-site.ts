import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { siteKeys } from '../../../lib/query-keys';

/** GET /api/site (public): what this deployment offers before sign-in. */
export interface SiteInfo {
  /** A new user's trial credit in yuan (the control plane's NEW_USER_CREDIT_YUAN); 0 for none. */
  new_user_credit: number;
}

export function getSite(signal?: AbortSignal) {
  return api.get<SiteInfo>('/api/site', { signal });
}

export function useSite() {
  return useQuery({
    queryKey: siteKeys.info(),
    queryFn: ({ signal }) => getSite(signal),
    // Changes only with the server's configuration.
    staleTime: 10 * 60_000,
  });
}

/** "20 元", "12.5 元": the yuan amount without trailing zeros. */
export function formatCredit(yuan: number): string {
  return `${Math.round(yuan * 100) / 100} 元`;
}

/**
 * A new user's trial credit in yuan as the server says it; null while it loads, when it could not
 * be loaded and when new users get nothing (never a number the server did not say).
 */
export function useTrialCredit(): number | null {
  const site = useSite();
  const credit = site.data?.new_user_credit;
  return typeof credit === 'number' && credit > 0 ? credit : null;
}

/** 新用户注册即送 … 元体验金, with the server's amount; null whenever useTrialCredit() is. */
export function useTrialCreditLine(): string | null {
  const credit = useTrialCredit();
  return credit === null ? null : `新用户注册即送 ${formatCredit(credit)}体验金`;
}
