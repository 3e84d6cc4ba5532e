import { HomePage } from '../../features/site/components/home-page';

export function Component() {
  return <HomePage />;
}
