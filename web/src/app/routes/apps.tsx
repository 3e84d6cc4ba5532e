import { AppsPage } from '../../features/apps/components/apps-page';

export function Component() {
  return <AppsPage />;
}
