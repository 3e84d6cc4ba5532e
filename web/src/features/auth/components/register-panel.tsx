import type { AuthAnswer } from '@gpucloud/control-plane/api';
import { AntdProviders } from '../../../app/antd-providers';
import { RegisterForm } from './register-form';

/** Register mode's form with antd's providers: loaded when the screen switches to it. */
export default function RegisterPanel({ onSignedIn }: { onSignedIn: (answer: AuthAnswer) => void }) {
  return (
    <AntdProviders>
      <RegisterForm onSignedIn={onSignedIn} />
    </AntdProviders>
  );
}
