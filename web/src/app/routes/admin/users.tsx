import { UsersPage } from '../../../features/admin-users/components/users-page';

export function Component() {
  return <UsersPage />;
}
