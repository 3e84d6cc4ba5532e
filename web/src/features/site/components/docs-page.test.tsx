import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { siteKeys } from '../../../lib/query-keys';
import { fakeServer, renderRoutes } from '../../../test/render';

/** The docs' first step, 注册与充值, once GET /api/site has answered with `credit` yuan. */
async function firstStep(credit: number) {
  fakeServer({ 'GET /api/site': () => ({ body: { new_user_credit: credit } }) });
  const { queryClient } = renderRoutes(routes, '/docs');
  const heading = await screen.findByRole('heading', { level: 2, name: '1. 注册与充值' });
  await waitFor(() => expect(queryClient.getQueryState(siteKeys.info())?.status).toBe('success'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return heading.parentElement?.textContent ?? '';
}

describe('docs page', () => {
  it('quotes the trial credit the server gives (GET /api/site)', async () => {
    expect(await firstStep(12.5)).toContain('注册账号后即可获得 12.5 元体验金。余额不足时');
  });

  it('with no trial credit (0) the first step promises none', async () => {
    const text = await firstStep(0);
    expect(text).toContain('请先注册账号。余额不足时');
    expect(text).not.toContain('体验金');
  });
});
