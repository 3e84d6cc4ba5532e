import { Link } from 'react-router-dom';
import { Icon } from '../../../../components/icons';
import { SITE } from '../../site-info';
import { FeatureGrid, type FeatureItem, Section } from '../page-blocks';

interface EcosystemApp {
  name: string;
  logo: string;
  color: string;
  tags: string[];
  text: string;
}

const APPS: EcosystemApp[] = [
  {
    name: 'PyTorch',
    logo: 'Py',
    color: 'linear-gradient(135deg, #ee4c2c, #ff8a65)',
    tags: ['深度学习框架', 'CUDA 12.4', 'JupyterLab'],
    text: '主流深度学习框架，预装 CUDA、cuDNN 与 JupyterLab，创建实例即可开始训练与实验。',
  },
  {
    name: 'DeepSeek-R1-Distill-Qwen-7B',
    logo: 'DS',
    color: 'linear-gradient(135deg, #1d4ed8, #4d6bfe)',
    tags: ['大模型推理', 'vLLM', 'OpenAI 兼容接口'],
    text: 'DeepSeek-R1 蒸馏模型，内置 vLLM 推理服务，单卡 RTX 4090 即可部署，几分钟获得自己的推理 API。',
  },
  {
    name: 'ComfyUI',
    logo: 'CU',
    color: 'linear-gradient(135deg, #7c3aed, #c084fc)',
    tags: ['AI 绘画', '节点式工作流', 'Stable Diffusion'],
    text: '节点式 AI 绘画工作流，预置常用模型与插件，浏览器打开即可搭建图像与视频生成流程。',
  },
];

export function EcosystemSection() {
  return (
    <Section id="apps" title="应用生态" subtitle="官方维护的框架、模型与工具镜像，一键部署，告别环境配置">
      <ul className="pub-grid pub-grid-3">
        {APPS.map((app) => (
          <li key={app.name}>
            <article className="app-card">
              <div className="app-card-head">
                <span className="app-card-logo" style={{ background: app.color }} aria-hidden="true">
                  {app.logo}
                </span>
                <h3>{app.name}</h3>
              </div>
              <div className="app-card-tags">
                {app.tags.map((tag) => (
                  <span key={tag} className="gc-tag gc-tag-blue">
                    {tag}
                  </span>
                ))}
              </div>
              <p>{app.text}</p>
              <Link to="/apps" className="app-card-link" aria-label={`在应用市场部署 ${app.name}`}>
                一键部署 <Icon name="arrow-right" size={14} />
              </Link>
            </article>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const FEATURES: FeatureItem[] = [
  {
    icon: 'layers',
    title: 'GPU 集群',
    text: '多地域 GPU 节点，RTX 4090、A100 等多种卡型，单实例 1-8 卡灵活选择。',
  },
  {
    icon: 'rocket',
    title: '一键环境',
    text: '官方镜像预装驱动、CUDA 与主流框架，创建即用，无需折腾环境。',
  },
  {
    icon: 'wallet',
    title: '灵活计费',
    text: '按小时计费、按秒计量，亦可包日、包周、包月、包年，长期使用更优惠。',
  },
  {
    icon: 'shield',
    title: '安全可靠',
    text: '实例容器独立隔离，存储卷按用户隔离，登录凭证加密存储。',
  },
  {
    icon: 'activity',
    title: 'AI 运维',
    text: '实时监控节点与 GPU 状态，异常实例自动发现与处理，运维省心。',
  },
  {
    icon: 'zap',
    title: '快速搭建 AI 应用',
    text: '应用市场提供大模型、AI 绘画等镜像，几分钟上线自己的 AI 服务。',
  },
  {
    icon: 'sliders',
    title: '定制化微调',
    text: '挂载数据卷、开放自定义端口，LoRA 与全参数微调按需配置。',
  },
  {
    icon: 'server',
    title: 'GPU 服务器租用',
    text: '裸金属整机独享、性能无损，适合长期大规模训练，支持按月、按年租用。',
  },
];

export function FeaturesSection() {
  return (
    <Section
      id="features"
      title="为什么选择我们"
      subtitle="从算力到环境、从计费到运维，为 AI 开发者准备好一切"
      alt
    >
      <FeatureGrid items={FEATURES} />
    </Section>
  );
}

const STATS = [
  { value: '50+', label: 'GPU 节点' },
  { value: '20+', label: '常用 AI 应用' },
  { value: '99.9%', label: '服务可用性' },
];

export function StatsSection() {
  return (
    <section className="pub-section" aria-label="平台数据">
      <div className="pub-container">
        <dl className="pub-stats" data-testid="home-stats">
          {STATS.map((stat) => (
            <div key={stat.label}>
              <dt>{stat.label}</dt>
              <dd>{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

const USE_CASES: FeatureItem[] = [
  {
    icon: 'sliders',
    title: '大模型微调',
    text: '基于 LoRA / QLoRA 在自有数据上微调开源大模型，数据卷持久保存训练成果。',
  },
  {
    icon: 'message',
    title: '大模型推理部署',
    text: '部署 DeepSeek、Qwen 等开源模型，通过自定义端口对外提供 OpenAI 兼容 API。',
  },
  {
    icon: 'image',
    title: 'AI 绘画与视频生成',
    text: 'ComfyUI、Stable Diffusion 批量出图与视频生成，高显存卡型从容应对大分辨率。',
  },
  {
    icon: 'eye',
    title: '计算机视觉',
    text: '目标检测、图像分割、OCR 模型的训练与评测，多卡并行缩短实验周期。',
  },
  {
    icon: 'flask',
    title: '科学计算',
    text: '分子动力学、气象与流体模拟等 CUDA 加速计算，按需扩容、用完即停。',
  },
  {
    icon: 'graduation',
    title: '教学与科研',
    text: '高校课程实验与论文复现，学生按需租用，课题组统一充值与报销。',
  },
];

export function UseCasesSection() {
  return (
    <Section id="use-cases" title="应用场景" subtitle="覆盖训练、微调、推理与创作的 AI 全流程" alt>
      <FeatureGrid items={USE_CASES} wide />
    </Section>
  );
}

const CASE_METRICS = [
  { value: '5 分钟', label: '环境准备（原需 1-2 天）' },
  { value: '约 40%', label: '算力成本下降' },
  { value: '零排队', label: '20 余名研究生按需使用 GPU' },
];

export function SuccessCaseSection() {
  return (
    <Section id="case" title="客户案例" subtitle="来自真实用户的实践">
      <article className="home-case">
        <div>
          <span className="gc-tag gc-tag-blue">高校科研</span>
          <h3>某高校智能计算实验室：论文复现周期缩短一半以上</h3>
          <p>实验室原有的 4 张 GPU 由 20 余名研究生轮流排队使用，环境冲突频繁，一次实验常常要等上几天。</p>
          <p>
            接入平台后，学生按需租用 RTX 4090 实例，使用官方 PyTorch
            镜像一键创建环境，训练数据放在个人存储卷中跨实例复用；课题组统一充值、按账单记录报销，经费使用清晰可查。
          </p>
          <blockquote>
            “以前大家抢卡，现在谁需要谁就开一台，做完实验关机就不再计费。”—— 实验室负责老师
          </blockquote>
        </div>
        <dl className="home-case-metrics">
          {CASE_METRICS.map((metric) => (
            <div key={metric.label}>
              <dt>{metric.label}</dt>
              <dd>{metric.value}</dd>
            </div>
          ))}
        </dl>
      </article>
    </Section>
  );
}

const SUPPORT: FeatureItem[] = [
  { icon: 'activity', title: '7×24 运维监控', text: '节点与实例全天候监控，故障第一时间发现与处理。' },
  { icon: 'headset', title: '专业技术支持', text: '驱动、CUDA、框架与分布式训练问题，工程师在线解答。' },
  { icon: 'phone', title: '人工客服', text: `客服热线 ${SITE.supportPhone}，服务时间${SITE.supportHours}。` },
  {
    icon: 'database',
    title: '数据安全保障',
    text: '存储卷独立持久保存，实例释放前提前提醒，重要数据不丢失。',
  },
];

export function SupportSection() {
  return (
    <Section id="support" title="服务保障" subtitle="全天候守护您的每一次训练与推理">
      <div className="home-support">
        <div className="home-support-badge">
          <strong>7×24</strong>
          <span>小时服务保障</span>
          <span>服务可用性 99.9%</span>
        </div>
        <FeatureGrid items={SUPPORT} />
      </div>
    </Section>
  );
}
