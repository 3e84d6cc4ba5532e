import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Shown when a route fails to load (for instance a lazy chunk missing after a redeploy). No antd: it may be what failed. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : '未知错误';
  return (
    <main className="status-page" role="alert">
      <h1>页面加载失败</h1>
      <p>{detail}</p>
      <button type="button" className="gc-btn gc-btn-primary" onClick={() => window.location.reload()}>
        刷新页面
      </button>
    </main>
  );
}
