/**
 * Facts about the operator shown in the footer and on the public pages. An open-source platform
 * is run by whoever deploys it, so they come from the build environment (VITE_*), with neutral
 * defaults that read as placeholders.
 */
const env = import.meta.env;

export const SITE = {
  name: 'GPU 云平台',
  operator: env.VITE_SITE_OPERATOR || 'GPU 云平台运营方',
  icpFiling: env.VITE_ICP_FILING || '京ICP备XXXXXXXX号',
  /** The MIIT filing lookup the ICP number must link to. */
  icpLink: 'https://beian.miit.gov.cn/',
  supportPhone: env.VITE_SUPPORT_PHONE || '400-000-0000',
  supportEmail: env.VITE_SUPPORT_EMAIL || 'support@gpucloud.example.com',
  /** The spec's customer-service hours. */
  supportHours: '每天 9:00-21:00',
  businessEmail: 'bd@gpucloud.example.com',
  jobsEmail: 'hr@gpucloud.example.com',
  privacyEmail: 'privacy@gpucloud.example.com',
} as const;

export interface SiteLink {
  to: string;
  label: string;
}

/** Link groups the footer and the sitemap both list. */
export const PRODUCT_LINKS: SiteLink[] = [
  { to: '/apps', label: '应用市场' },
  { to: '/market', label: '轻量实例' },
  { to: '/gpu-servers', label: '裸金属GPU' },
  { to: '/private-cloud', label: '私有云' },
];
export const SUPPORT_LINKS: SiteLink[] = [
  { to: '/docs', label: '文档中心' },
  { to: '/contact', label: '联系我们' },
];
export const COMPANY_LINKS: SiteLink[] = [
  { to: '/about', label: '关于我们' },
  { to: '/jobs', label: '加入我们' },
  { to: '/cooperation', label: '商务合作' },
];
export const LEGAL_LINKS: SiteLink[] = [
  { to: '/agreement', label: '服务条款' },
  { to: '/privacy', label: '隐私政策' },
];
