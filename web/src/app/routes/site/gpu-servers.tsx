import { GpuServersPage } from '../../../features/site/components/gpu-servers-page';

export function Component() {
  return <GpuServersPage />;
}
