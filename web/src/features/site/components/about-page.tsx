import { SITE } from '../site-info';
import { CtaBand, FeatureGrid, type FeatureItem, PageHero, Section } from './page-blocks';

const VALUES: FeatureItem[] = [
  {
    icon: 'users',
    title: '开发者优先',
    text: '从开发者的真实工作流出发设计产品：环境即开即用，价格清晰透明。',
  },
  {
    icon: 'wallet',
    title: '普惠算力',
    text: '按小时计费、按秒计量，让学生、研究者和初创团队也用得起高端 GPU。',
  },
  { icon: 'shield', title: '稳定可靠', text: '以 99.9% 的服务可用性为目标，对每一次训练与推理负责。' },
  { icon: 'file', title: '开放透明', text: '平台核心代码开源，计费规则公开，数据归属清晰。' },
];

export function AboutPage() {
  return (
    <>
      <PageHero eyebrow="关于我们" title={`关于 ${SITE.name}`}>
        我们相信算力应当像水和电一样随取随用。{SITE.name}
        致力于让每一位 AI 开发者都能以合理的价格、在几分钟内获得所需的 GPU 算力。
      </PageHero>
      <Section title="我们做什么">
        <div className="pub-prose" style={{ margin: '0 auto' }}>
          <p>
            {SITE.name}
            是面向 AI 开发者的 GPU 算力租用平台。我们在多个机房部署 GPU 服务器，通过统一的控制平面与节点 Agent
            将它们组织成一朵云：用户在网页上选择卡型与数量，几分钟内即可获得预装 CUDA
            和深度学习框架的实例，通过 SSH 或 Jupyter 开始工作。
          </p>
          <p>
            除了按小时租用的轻量实例，我们还提供整机独享的裸金属 GPU
            服务器，以及部署在客户机房的私有云方案；应用市场汇集了 PyTorch、DeepSeek-R1 蒸馏模型、ComfyUI
            等常用框架与应用，帮助用户跳过繁琐的环境配置，把时间留给模型与业务本身。
          </p>
          <p>
            我们的用户包括高校实验室、AI 初创公司、独立开发者与企业研发团队，覆盖大模型微调与推理、AI
            绘画、计算机视觉、科学计算等场景。
          </p>
        </div>
      </Section>
      <section className="pub-section pub-section-alt" aria-label="平台数据">
        <div className="pub-container">
          <dl className="pub-stats">
            <div>
              <dt>GPU 节点</dt>
              <dd>50+</dd>
            </div>
            <div>
              <dt>常用 AI 应用</dt>
              <dd>20+</dd>
            </div>
            <div>
              <dt>服务可用性</dt>
              <dd>99.9%</dd>
            </div>
          </dl>
        </div>
      </section>
      <Section title="我们的理念">
        <FeatureGrid items={VALUES} />
      </Section>
      <CtaBand
        title="与我们同行"
        text="我们正在寻找热爱技术、关注 AI 基础设施的伙伴"
        to="/jobs"
        label="查看职位"
      />
    </>
  );
}
