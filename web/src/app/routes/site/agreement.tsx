import { LegalDocument } from '../../../features/site/components/legal-document';
import { AGREEMENT } from '../../../features/site/content/agreement';
import '../../../features/site/site.css';

export function Component() {
  return <LegalDocument content={AGREEMENT} />;
}
