import { Result } from 'antd';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { LinkButton } from '../components/link-button';
import { loginPathFor, useSession } from '../lib/auth';

/** Routes under this element need a token; without one the visitor goes to /login?redirect=<path>. */
export function RequireAuth() {
  const { token } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  return <Outlet />;
}

/** Admin routes: a token and the admin flag from the login answer (the server checks again). */
export function RequireAdmin() {
  const { token, user } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  if (!user?.isAdmin) {
    return (
      <Result
        status="403"
        title="无权访问"
        subTitle="该页面仅限管理员访问。"
        extra={
          <LinkButton to="/" type="primary">
            返回首页
          </LinkButton>
        }
      />
    );
  }
  return <Outlet />;
}
