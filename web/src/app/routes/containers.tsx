import { ContainersPage } from '../../features/containers/components/containers-page';

export function Component() {
  return <ContainersPage />;
}
