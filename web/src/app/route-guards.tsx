import { Link, Navigate, Outlet, useLocation } from 'react-router-dom';
import { loginPathFor, useSession } from '../lib/auth';

/** Routes under this element need a token; without one the visitor goes to /login?redirect=<path>. */
export function RequireAuth() {
  const { token } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  return <Outlet />;
}

/**
 * Admin routes: a token and the admin flag from the login answer (the server checks again).
 * Plain markup, no antd: the router imports the guards eagerly and the home page must stay small.
 */
export function RequireAdmin() {
  const { token, user } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  if (!user?.isAdmin) {
    return (
      <section className="status-page" aria-labelledby="forbidden-title">
        <p className="status-page-code" aria-hidden="true">
          403
        </p>
        <h1 id="forbidden-title">无权访问</h1>
        <p>该页面仅限管理员访问。</p>
        <div className="status-page-actions">
          <Link to="/" className="gc-btn gc-btn-primary">
            返回首页
          </Link>
        </div>
      </section>
    );
  }
  return <Outlet />;
}
