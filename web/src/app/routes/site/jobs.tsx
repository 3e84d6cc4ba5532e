import { JobsPage } from '../../../features/site/components/jobs-page';

export function Component() {
  return <JobsPage />;
}
