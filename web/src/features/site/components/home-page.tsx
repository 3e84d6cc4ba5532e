import { formatCredit, useTrialCredit } from '../../auth/api/get-site';
import { HomeHero } from './home/home-hero';
import {
  EcosystemSection,
  FeaturesSection,
  StatsSection,
  SuccessCaseSection,
  SupportSection,
  UseCasesSection,
} from './home/home-sections';
import { PromoBanner } from './home/promo-banner';
import { CtaBand } from './page-blocks';
import './home/home.css';

export function HomePage() {
  // The trial credit only with the server's amount: no number while it loads, no offer when 0.
  const credit = useTrialCredit();
  return (
    <>
      <PromoBanner />
      <HomeHero />
      <EcosystemSection />
      <FeaturesSection />
      <StatsSection />
      <UseCasesSection />
      <SuccessCaseSection />
      <SupportSection />
      <CtaBand
        title="开启您的 AI 算力之旅"
        text={
          credit === null
            ? '几分钟创建第一台 GPU 实例'
            : `注册即送 ${formatCredit(credit)}体验金，几分钟创建第一台 GPU 实例`
        }
        to="/market"
        label="立即体验"
      />
    </>
  );
}
