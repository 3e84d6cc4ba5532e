import { Link } from 'react-router-dom';
import { PageHero } from './page-blocks';

const GROUPS: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: '产品',
    links: [
      { to: '/apps', label: '应用市场' },
      { to: '/market', label: '轻量实例' },
      { to: '/gpu-servers', label: '裸金属GPU' },
      { to: '/private-cloud', label: '私有云' },
    ],
  },
  {
    title: '控制台',
    links: [
      { to: '/user/containers', label: '我的容器' },
      { to: '/user/storage', label: '存储管理' },
      { to: '/user/mcp', label: 'MCP 控制台' },
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
    links: [
      { to: '/docs', label: '文档中心' },
      { to: '/contact', label: '联系我们' },
    ],
  },
  {
    title: '关于',
    links: [
      { to: '/', label: '首页' },
      { to: '/about', label: '关于我们' },
      { to: '/jobs', label: '加入我们' },
      { to: '/cooperation', label: '商务合作' },
    ],
  },
  {
    title: '法律条款',
    links: [
      { to: '/agreement', label: '服务条款' },
      { to: '/privacy', label: '隐私政策' },
    ],
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
