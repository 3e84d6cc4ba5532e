import { ImageDetailPage } from '../../features/images/components/image-detail-page';

export function Component() {
  return <ImageDetailPage />;
}
