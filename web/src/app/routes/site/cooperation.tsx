import { CooperationPage } from '../../../features/site/components/cooperation-page';

export function Component() {
  return <CooperationPage />;
}
