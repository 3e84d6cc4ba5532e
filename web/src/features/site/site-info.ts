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
  newUserCredit: 20,
} as const;
