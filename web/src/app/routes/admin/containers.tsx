import { AdminContainersPage } from '../../../features/containers/components/admin/admin-containers-page';

export function Component() {
  return <AdminContainersPage />;
}
