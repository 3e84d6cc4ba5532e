import { SITE } from '../site-info';
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
        text={`注册即送 ${SITE.newUserCredit} 元体验金，几分钟创建第一台 GPU 实例`}
        to="/market"
        label="立即体验"
      />
    </>
  );
}
