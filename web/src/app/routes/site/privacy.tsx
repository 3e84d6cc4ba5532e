import { LegalDocument } from '../../../features/site/components/legal-document';
import { PRIVACY } from '../../../features/site/content/privacy';
import '../../../features/site/site.css';

export function Component() {
  return <LegalDocument content={PRIVACY} />;
}
