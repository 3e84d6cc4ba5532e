import { SandboxPayPage } from '../../features/billing/components/sandbox-pay-page';

export function Component() {
  return <SandboxPayPage />;
}
