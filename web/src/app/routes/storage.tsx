import { StoragePage } from '../../features/storage/components/storage-page';

export function Component() {
  return <StoragePage />;
}
