import { ImagesPage } from '../../features/images/components/images-page';

export function Component() {
  return <ImagesPage />;
}
