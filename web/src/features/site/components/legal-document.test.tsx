import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { siteKeys } from '../../../lib/query-keys';
import { fakeServer, renderRoutes } from '../../../test/render';
import { AGREEMENT, trialCreditClause } from '../content/agreement';
import { PRIVACY } from '../content/privacy';

const CLAUSE_TAIL =
  '（以活动页面为准），仅可用于抵扣本平台服务费用，**不可提现、不可转让、不可开具发票**，有效期与使用条件以活动规则为准。以批量注册、提供虚假信息等不正当方式获取的赠送金额，我们有权收回并限制相关账号。';

/** /agreement, with GET /api/site giving new users `credit` yuan; resolves once it has answered. */
async function renderAgreement(credit: number) {
  fakeServer({ 'GET /api/site': () => ({ body: { new_user_credit: credit } }) });
  const view = renderRoutes(routes, '/agreement');
  await screen.findByRole('heading', { level: 2, name: '4. 计费与支付' });
  await waitFor(() => expect(view.queryClient.getQueryState(siteKeys.info())?.status).toBe('success'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return view;
}

/** The rendered clause 4.6 (bold spans flattened). */
const clause46 = () =>
  Array.from(document.querySelectorAll('.legal-body p')).find((p) => p.textContent?.startsWith('4.6 '))
    ?.textContent;

const titles = (content: typeof AGREEMENT) => content.sections.map((section) => section.title);

describe('legal pages', () => {
  it('the terms cover accounts, billing, data, prohibited uses, liability and disputes', () => {
    expect(titles(AGREEMENT)).toEqual(
      expect.arrayContaining([
        '账号注册与管理',
        '计费与支付',
        '用户数据',
        '使用规范与禁止行为',
        '免责与责任限制',
        '法律适用与争议解决',
      ]),
    );
    const text = JSON.stringify(AGREEMENT);
    expect(text).toContain('关机后保留 3 天');
    expect(text).toContain('挖矿');
  });

  it('clause 4.6 takes the trial credit as a parameter, and words it without a number when there is none', () => {
    expect(trialCreditClause(12.5)).toBe(`4.6 新用户体验金：新注册用户可获得 12.5 元体验金${CLAUSE_TAIL}`);
    expect(trialCreditClause(null)).toBe(`4.6 新用户体验金：新注册用户可获得平台赠送的体验金${CLAUSE_TAIL}`);
    expect(trialCreditClause(0)).toBe(trialCreditClause(null));
  });

  it('the terms page quotes the trial credit the server gives (GET /api/site)', async () => {
    await renderAgreement(12.5);
    expect(clause46()).toContain('新注册用户可获得 12.5 元体验金（以活动页面为准）');
    expect(screen.getByText('不可提现、不可转让、不可开具发票')).toBeTruthy();
  });

  it('with no trial credit (0) the terms page names no amount', async () => {
    await renderAgreement(0);
    expect(clause46()).toContain('新注册用户可获得平台赠送的体验金（以活动页面为准）');
    expect(document.body.textContent).not.toMatch(/\d+(\.\d+)? 元体验金/);
  });

  it('the privacy policy names the PIPL rights and how to reach the person responsible', () => {
    const text = JSON.stringify(PRIVACY);
    for (const right of [
      '查阅、复制',
      '更正、补充',
      '删除',
      '撤回同意',
      '注销账号',
      '可携带',
      '要求解释说明',
    ]) {
      expect(text).toContain(right);
    }
    expect(text).toContain('个人信息保护法');
    expect(text).toContain('localStorage');
  });

  it('renders a table of contents linking each numbered section, with emphasised clauses in bold', async () => {
    await renderAgreement(12.5);
    const toc = screen.getByRole('navigation', { name: '目录' });
    const links = within(toc).getAllByRole('link');
    expect(links).toHaveLength(AGREEMENT.sections.length);
    expect(links[0]?.getAttribute('href')).toBe(`#${AGREEMENT.sections[0]?.id}`);
    expect(screen.getByRole('heading', { level: 2, name: '4. 计费与支付' })).toBeTruthy();
    const bold = Array.from(document.querySelectorAll('strong')).map((node) => node.textContent);
    expect(bold).toContain('实例关机后停止计算资源计费');
  });
});
