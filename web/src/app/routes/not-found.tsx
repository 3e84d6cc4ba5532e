import { Link } from 'react-router-dom';

export function Component() {
  return (
    <section className="status-page" aria-labelledby="not-found-title">
      <p className="status-page-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">页面不存在</h1>
      <p>您访问的页面不存在或已被移除，请检查地址是否正确。</p>
      <div className="status-page-actions">
        <Link to="/" className="gc-btn gc-btn-primary">
          返回首页
        </Link>
        <Link to="/sitemap" className="gc-btn">
          网站地图
        </Link>
      </div>
    </section>
  );
}
