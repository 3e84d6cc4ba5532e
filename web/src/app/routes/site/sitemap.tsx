import { SitemapPage } from '../../../features/site/components/sitemap-page';

export function Component() {
  return <SitemapPage />;
}
