import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AGREEMENT } from '../content/agreement';
import { PRIVACY } from '../content/privacy';
import { LegalDocument } from './legal-document';

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
    expect(text).toContain('20 元体验金');
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

  it('renders a table of contents linking each numbered section, with emphasised clauses in bold', () => {
    render(
      <MemoryRouter>
        <LegalDocument content={AGREEMENT} />
      </MemoryRouter>,
    );
    const toc = screen.getByRole('navigation', { name: '目录' });
    const links = within(toc).getAllByRole('link');
    expect(links).toHaveLength(AGREEMENT.sections.length);
    expect(links[0]?.getAttribute('href')).toBe(`#${AGREEMENT.sections[0]?.id}`);
    expect(screen.getByRole('heading', { level: 2, name: '4. 计费与支付' })).toBeTruthy();
    const bold = Array.from(document.querySelectorAll('strong')).map((node) => node.textContent);
    expect(bold).toContain('实例关机后停止计算资源计费');
  });
});
