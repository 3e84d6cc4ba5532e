import { ContactPage } from '../../../features/site/components/contact-page';

export function Component() {
  return <ContactPage />;
}
