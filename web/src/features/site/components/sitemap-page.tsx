import { Link } from 'react-router-dom';
import { COMPANY_LINKS, LEGAL_LINKS, PRODUCT_LINKS, type SiteLink, SUPPORT_LINKS } from '../site-info';
import { PageHero } from './page-blocks';

const GROUPS: { title: string; links: SiteLink[] }[] = [
  {
    title: '产品',
    links: PRODUCT_LINKS,
  },
  {
    title: '控制台',
    links: [
      { to: '/user/containers', label: '我的容器' },
      { to: '/user/storage', label: '存储管理' },
      { to: '/user/mcp', label: 'MCP 控制台' },
      { to: '/docs/api', label: 'API 文档' },
      { to: '/user/balance', label: '余额与充值' },
      { to: '/user/billing-records', label: '账单记录' },
      { to: '/user/orders', label: '我的订单' },
      { to: '/invoices', label: '发票' },
      { to: '/coupons', label: '卡券' },
      { to: '/user/profile', label: '个人中心' },
    ],
  },
  {
    title: '账号',
    links: [
      { to: '/login', label: '登录' },
      { to: '/register', label: '注册' },
      { to: '/forgot-password', label: '找回密码' },
    ],
  },
  {
    title: '帮助与支持',
    links: SUPPORT_LINKS,
  },
  {
    title: '关于',
    links: [{ to: '/', label: '首页' }, ...COMPANY_LINKS],
  },
  {
    title: '法律条款',
    links: LEGAL_LINKS,
  },
];

export function SitemapPage() {
  return (
    <>
      <PageHero title="网站地图">本站全部页面一览。控制台页面需要登录后访问。</PageHero>
      <section className="pub-section" aria-label="页面列表">
        <div className="pub-container">
          <ul className="pub-grid">
            {GROUPS.map((group) => (
              <li key={group.title}>
                <nav className="pub-card" aria-label={group.title}>
                  <h2 className="sitemap-title">{group.title}</h2>
                  <ul className="sitemap-links">
                    {group.links.map((link) => (
                      <li key={link.to}>
                        <Link to={link.to}>{link.label}</Link>
                      </li>
                    ))}
                  </ul>
                </nav>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
