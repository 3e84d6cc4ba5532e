import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router-dom';
import { App } from './app/app';
import { routes } from './app/router';
import './styles.css';

/**
 * Loads the lazy routes the current URL matches before the router is created, so its first
 * render draws the page (as the prerender did) rather than the loading fallback.
 */
async function loadMatchedRoutes(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (!route.lazy) return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

async function start(container: HTMLElement): Promise<void> {
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // A page prerendered at build time (web/build/prerender.ts) is hydrated where it was rendered
  // for exactly that URL; anywhere else (another query string, a client-side route) React draws
  // the page itself, replacing whatever the HTML held.
  const prerenderedFor = container.dataset.prerendered;
  if (prerenderedFor !== undefined && prerenderedFor === window.location.pathname + window.location.search) {
    await loadMatchedRoutes();
    // Hydration is one long task on a slow CPU: let the browser paint the server's page first
    // (after the next frame; a background tab, which draws no frames, waits 100 ms).
    await new Promise((resolve) => {
      requestAnimationFrame(() => setTimeout(resolve, 0));
      setTimeout(resolve, 100);
    });
    hydrateRoot(container, app);
    return;
  }
  createRoot(container).render(app);
}

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');
void start(container);
