import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server';
import { pageTitle } from './app/page-title';
import { AppProvider } from './app/provider';
import { routes } from './app/router';

export interface PrerenderedPage {
  /** The markup of #root, as the client's first render draws it for a signed-out visitor. */
  html: string;
  title: string;
}

/**
 * Renders one public page at build time (web/build/prerender.ts), so the HTML the server sends
 * already shows the page: it paints before any script runs, and main.tsx hydrates it. Rendered
 * as a visitor who is not signed in, with nothing fetched yet: exactly the client's first render
 * (useSession's server snapshot is the signed-out session; queries start empty on both sides).
 */
export async function prerender(url: string): Promise<PrerenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(url, 'http://prerender.invalid')));
  if (context instanceof Response)
    throw new Error(`${url} redirects (${context.status}); it cannot be prerendered`);
  if (context.errors) throw new Error(`${url} has no page: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <AppProvider>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>,
  );
  return { html, title: pageTitle(context.matches.map((match) => match.route.handle)) };
}
