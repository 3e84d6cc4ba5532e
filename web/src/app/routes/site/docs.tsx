import { DocsPage } from '../../../features/site/components/docs-page';

export function Component() {
  return <DocsPage />;
}
