import { ApiDocsPage } from '../../features/api-docs/components/api-docs-page';

export function Component() {
  return <ApiDocsPage />;
}
