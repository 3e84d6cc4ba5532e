import { ImageComparePage } from '../../features/images/components/image-compare-page';

export function Component() {
  return <ImageComparePage />;
}
