import { AdminImagesPage } from '../../../features/admin-images/components/admin-images-page';

export function Component() {
  return <AdminImagesPage />;
}
