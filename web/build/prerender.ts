import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type Manifest, type Plugin, type ResolvedConfig } from 'vite';
import type { PrerenderedPage } from '../src/prerender';

/** Where the prerendered pages go under the build: `/` → pages/index.html, `/login` → pages/login.html. */
export const PAGES_DIR = 'pages';

export function pageFile(url: string): string {
  return `${PAGES_DIR}/${url === '/' ? 'index' : url.slice(1)}.html`;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Renders `url` in a Vite SSR server of its own (src/prerender.tsx) and names the source files
 * the render loaded: a fresh server per page, so what one page loaded lazily is not counted for
 * another.
 */
async function renderPage(root: string, url: string): Promise<{ page: PrerenderedPage; modules: string[] }> {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
  });
  try {
    const entry = (await server.ssrLoadModule('/src/prerender.tsx')) as typeof import('../src/prerender');
    const page = await entry.prerender(url);
    // The graph also lists what was only named by an import(); ssrModule is set for what ran.
    const modules = [...server.moduleGraph.idToModuleMap.values()]
      .filter((mod) => mod.ssrModule && mod.file?.startsWith(root))
      .map((mod) =>
        path
          .relative(root, mod.file as string)
          .split(path.sep)
          .join('/'),
      );
    return { page, modules };
  } finally {
    await server.close();
  }
}

/** The chunks a lazily loaded route needs (its own and what it imports) and their CSS. */
function assetsOf(manifest: Manifest, modules: string[]): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) if (manifest[module]?.isDynamicEntry) visit(module);
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * The page's HTML: the built index.html with the page's title, its lazily loaded route's
 * stylesheets (so the first paint is styled) and scripts (preloaded, so hydration waits for no
 * further round trip), and #root holding the rendered markup with the URL it was rendered for
 * (main.tsx hydrates only at that URL).
 */
function pageHtml(
  shell: string,
  url: string,
  page: PrerenderedPage,
  assets: ReturnType<typeof assetsOf>,
): string {
  const links = [
    ...assets.styles
      .filter((file) => !shell.includes(file))
      .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...assets.scripts
      .filter((file) => !shell.includes(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ].join('\n    ');
  const root = '<div id="root"></div>';
  if (!shell.includes(root) || !shell.includes('</head>'))
    throw new Error('index.html has no empty #root or </head>');
  return shell
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace('</head>', `  ${links}\n  </head>`)
    .replace(root, `<div id="root" data-prerendered="${escapeHtml(url)}">${page.html}</div>`);
}

/**
 * Vite plugin (`vite build` only): once the client build is written, renders each of `urls`
 * (public pages, as a signed-out visitor sees them first) into `pages/` of the build, where the
 * control plane's static handler answers them for their exact path. The page paints before its
 * scripts run (Largest Contentful Paint no longer waits for React), and main.tsx hydrates it.
 * Runs before the precompress plugin (order 'pre', sequential), so the pages get .br/.gz too.
 */
export function prerender(urls: string[]): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'gpucloud:prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'pre',
      sequential: true,
      async handler() {
        if (config.build.ssr) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const shell = await readFile(path.join(outDir, 'index.html'), 'utf8');
        const manifest = JSON.parse(
          await readFile(path.join(outDir, '.vite', 'manifest.json'), 'utf8'),
        ) as Manifest;
        await mkdir(path.join(outDir, PAGES_DIR), { recursive: true });
        for (const url of urls) {
          const { page, modules } = await renderPage(config.root, url);
          const html = pageHtml(shell, url, page, assetsOf(manifest, modules));
          await writeFile(path.join(outDir, pageFile(url)), html);
        }
        config.logger.info(`prerendered ${urls.join(', ')} into ${PAGES_DIR}/`);
      },
    },
  };
}
