import type { IconName } from '../components/icons';

export interface NavLinkItem {
  to: string;
  label: string;
  description?: string;
}

export interface ProductMenu {
  key: string;
  label: string;
  items: NavLinkItem[];
}

/** The header's four expandable product menus (spec: app market, light instances, bare-metal GPU, private cloud). */
export const PRODUCT_MENUS: ProductMenu[] = [
  {
    key: 'apps',
    label: '应用市场',
    items: [
      { to: '/apps', label: '全部应用', description: '框架、模型与工具镜像，一键部署' },
      { to: '/apps?category=pytorch', label: 'PyTorch', description: '预装 CUDA 的深度学习训练环境' },
      { to: '/apps?category=nlp', label: '大模型推理', description: 'DeepSeek-R1 蒸馏模型等开箱即用' },
      { to: '/apps?category=cv', label: 'AI 绘画', description: 'ComfyUI 工作流与图像生成' },
    ],
  },
  {
    key: 'instances',
    label: '轻量实例',
    items: [
      { to: '/market', label: '实例市场', description: '按小时租用 GPU 容器，SSH 与 Jupyter 即开即用' },
      { to: '/user/containers', label: '我的实例', description: '启动、停止、查看日志与连接信息' },
      { to: '/user/storage', label: '存储卷', description: '持久化数据，跨实例挂载' },
    ],
  },
  {
    key: 'bare-metal',
    label: '裸金属GPU',
    items: [
      { to: '/gpu-servers', label: '产品介绍', description: '整机独享的 8 卡 GPU 服务器' },
      { to: '/contact', label: '咨询购买', description: '获取配置建议与报价' },
    ],
  },
  {
    key: 'private-cloud',
    label: '私有云',
    items: [
      { to: '/private-cloud', label: '方案介绍', description: '在自有机房部署的 GPU 算力平台' },
      { to: '/cooperation', label: '商务合作', description: '算力供应、渠道与科研合作' },
    ],
  },
];

export const DOCS_LINK: NavLinkItem = { to: '/docs', label: '文档' };

export interface ProductCard {
  key: string;
  title: string;
  description: string;
  icon: IconName;
  /** Absent while the product has no screen at all. */
  to?: string;
  /** Shows 开发中: the self-service screen is not finished. Drop the flag when it ships. */
  inDevelopment?: boolean;
}

/** The side menu: every product as a card. */
export const PRODUCT_CARDS: ProductCard[] = [
  { key: 'apps', title: '应用市场', description: '热门框架与模型镜像', icon: 'grid', to: '/apps' },
  { key: 'market', title: '轻量实例', description: '按需租用 GPU 容器', icon: 'box', to: '/market' },
  {
    key: 'gpu-servers',
    title: '裸金属GPU',
    description: '整机独享，性能无损',
    icon: 'server',
    to: '/gpu-servers',
    inDevelopment: true,
  },
  {
    key: 'private-cloud',
    title: '私有云',
    description: '本地部署的算力平台',
    icon: 'cloud',
    to: '/private-cloud',
    inDevelopment: true,
  },
  {
    key: 'storage',
    title: '存储',
    description: '持久化数据卷',
    icon: 'database',
    to: '/user/storage',
    inDevelopment: true,
  },
  {
    key: 'billing-records',
    title: '账单记录',
    description: '消费与充值明细',
    icon: 'receipt',
    to: '/user/billing-records',
  },
  {
    key: 'explore',
    title: '探索',
    description: '更多 AI 能力即将上线',
    icon: 'compass',
    inDevelopment: true,
  },
];

/**
 * Card targets that need a session (the spec: /market and anything under /containers; the user
 * centre, /user, is guarded the same way in this console).
 */
export function cardNeedsLogin(to: string): boolean {
  return to === '/market' || to.startsWith('/containers') || to === '/user' || to.startsWith('/user/');
}
