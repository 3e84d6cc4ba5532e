import { NodesPage } from '../../../features/nodes/components/nodes-page';

export function Component() {
  return <NodesPage />;
}
