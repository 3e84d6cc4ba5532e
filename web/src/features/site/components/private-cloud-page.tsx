import { Link } from 'react-router-dom';
import {
  CtaBand,
  DevelopmentNote,
  FeatureGrid,
  type FeatureItem,
  PageHero,
  Section,
  Steps,
} from './page-blocks';

const ARCHITECTURE: FeatureItem[] = [
  {
    icon: 'layers',
    title: '控制平面',
    text: 'Web 控制台与开放 API，使用 PostgreSQL 保存业务数据；无状态设计，可多副本部署实现高可用。',
  },
  {
    icon: 'server',
    title: '节点 Agent',
    text: '每台 GPU 服务器运行一个 Agent，负责容器、GPU、端口与存储卷管理，通过 gRPC 与 TLS 与控制平面通信。',
  },
  {
    icon: 'box',
    title: '镜像与应用',
    text: '框架与模型镜像可离线导入，对接企业内部镜像仓库，应用市场按需定制。',
  },
];

const CAPABILITIES: FeatureItem[] = [
  { icon: 'gpu', title: '统一纳管 GPU', text: '不同型号、不同机房的 GPU 服务器统一接入，资源使用一目了然。' },
  { icon: 'users', title: '自助式算力', text: '研发人员在控制台自助创建实例，无需再向运维排队申请。' },
  { icon: 'receipt', title: '内部计量与分摊', text: '按部门或项目统计 GPU 用量与费用，成本清晰可追溯。' },
  { icon: 'lock', title: '数据不出本地', text: '平台、数据与模型全部运行在您的网络中，满足数据合规要求。' },
  { icon: 'link', title: '开放接口', text: 'API 密钥与 MCP 接口，便于接入 CI/CD、调度系统与 AI 智能体。' },
  { icon: 'file', title: '源码开放', text: '平台核心代码开源，可审计、可二次开发，避免厂商锁定。' },
];

export function PrivateCloudPage() {
  return (
    <>
      <PageHero
        eyebrow="私有云"
        title="GPU 私有云解决方案"
        actions={
          <Link to="/contact" className="gc-btn gc-btn-primary gc-btn-lg">
            预约方案咨询
          </Link>
        }
      >
        将本平台部署在您自己的机房或专属集群中：统一纳管 GPU
        服务器，按团队和项目分配算力，数据与模型始终留在本地。
      </PageHero>
      <Section title="平台架构" subtitle="与公有云版本同一套软件，部署在您的环境中">
        <DevelopmentNote>
          私有云在线申请与自助部署向导正在开发中，目前由交付团队为您实施部署。
        </DevelopmentNote>
        <FeatureGrid items={ARCHITECTURE} wide />
      </Section>
      <Section title="核心能力" alt>
        <FeatureGrid items={CAPABILITIES} wide />
      </Section>
      <Section title="实施流程" subtitle="常规规模通常 1-2 周完成部署与验收">
        <Steps
          steps={[
            { title: '需求评估', text: '梳理 GPU 资产、网络与安全要求。' },
            { title: '方案设计', text: '确定部署架构、高可用与存储方案。' },
            { title: '部署实施', text: '安装控制平面，为每台服务器部署 Agent。' },
            { title: '培训验收', text: '管理员与用户培训，联合验收。' },
            { title: '持续支持', text: '版本升级与 7×24 运维支持。' },
          ]}
        />
      </Section>
      <CtaBand
        title="让每一张 GPU 都被充分利用"
        text="留下您的需求，解决方案架构师将与您联系"
        to="/contact"
        label="联系我们"
      />
    </>
  );
}
