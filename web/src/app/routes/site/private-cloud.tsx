import { PrivateCloudPage } from '../../../features/site/components/private-cloud-page';

export function Component() {
  return <PrivateCloudPage />;
}
