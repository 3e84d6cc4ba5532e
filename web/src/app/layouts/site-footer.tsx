import { Link } from 'react-router-dom';
import {
  COMPANY_LINKS,
  LEGAL_LINKS,
  PRODUCT_LINKS,
  SITE,
  type SiteLink,
  SUPPORT_LINKS,
} from '../../features/site/site-info';

const COLUMNS: { title: string; links: SiteLink[] }[] = [
  { title: '产品', links: PRODUCT_LINKS },
  { title: '支持', links: [...SUPPORT_LINKS, { to: '/sitemap', label: '网站地图' }] },
  { title: '关于', links: COMPANY_LINKS },
  { title: '法律', links: LEGAL_LINKS },
];

function CopyrightLine() {
  return (
    <p className="site-footer-legal">
      <span>
        © {new Date().getFullYear()} {SITE.operator} 版权所有
      </span>
      <a href={SITE.icpLink} target="_blank" rel="noopener noreferrer">
        {SITE.icpFiling}
      </a>
      <Link to="/agreement">服务条款</Link>
      <Link to="/privacy">隐私政策</Link>
    </p>
  );
}

/** The public pages' footer: link columns, support contacts, ICP filing and copyright. */
export function SiteFooter({ compact = false }: { compact?: boolean }) {
  if (compact) {
    return (
      <footer className="site-footer site-footer-compact">
        <CopyrightLine />
      </footer>
    );
  }
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="site-footer-brand">
          <p className="site-footer-name">{SITE.name}</p>
          <p>面向 AI 开发者的 GPU 算力租用平台</p>
          <p>
            客服热线 {SITE.supportPhone}（{SITE.supportHours}）
          </p>
          <p>
            邮箱 <a href={`mailto:${SITE.supportEmail}`}>{SITE.supportEmail}</a>
          </p>
        </div>
        <nav aria-label="页脚导航" className="site-footer-links">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2>{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <CopyrightLine />
    </footer>
  );
}
