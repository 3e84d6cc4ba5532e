import { ImagesPage } from '../../../features/catalogue/components/images-page';

export function Component() {
  return <ImagesPage />;
}
