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

interface ServerModel {
  name: string;
  gpu: string;
  cpu: string;
  memory: string;
  disk: string;
  network: string;
  fit: string;
}

const MODELS: ServerModel[] = [
  {
    name: 'G8-4090',
    gpu: '8 × RTX 4090 24GB',
    cpu: '2 × Intel Xeon Gold 6430（64 核）',
    memory: '512 GB DDR5',
    disk: '2 × 3.84 TB NVMe SSD',
    network: '25 Gbps',
    fit: '推理部署、LoRA 微调、AI 绘画',
  },
  {
    name: 'G8-L40S',
    gpu: '8 × L40S 48GB',
    cpu: '2 × Intel Xeon Platinum 8462Y+（64 核）',
    memory: '1 TB DDR5',
    disk: '4 × 3.84 TB NVMe SSD',
    network: '25 Gbps',
    fit: '大模型推理、多模态、视频生成',
  },
  {
    name: 'G8-A100',
    gpu: '8 × A100 80GB SXM4（NVLink）',
    cpu: '2 × AMD EPYC 7763（128 核）',
    memory: '1 TB DDR4',
    disk: '4 × 3.84 TB NVMe SSD',
    network: '100 Gbps，可选 200G InfiniBand',
    fit: '大模型预训练与全参数微调',
  },
];

const SPEC_FIELDS: [Exclude<keyof ServerModel, 'name'>, string][] = [
  ['gpu', 'GPU'],
  ['cpu', 'CPU'],
  ['memory', '内存'],
  ['disk', '本地存储'],
  ['network', '网络'],
  ['fit', '适用场景'],
];

const FEATURES: FeatureItem[] = [
  { icon: 'server', title: '整机独享', text: '物理服务器由您独占，不与其他租户共享 CPU、内存、磁盘与网络。' },
  {
    icon: 'zap',
    title: '性能无损',
    text: '无虚拟化开销，GPU 直通与 NVLink 拓扑完整保留，多卡训练效率更高。',
  },
  {
    icon: 'terminal',
    title: '系统自定义',
    text: '可选 Ubuntu 22.04 / 24.04 等系统，支持自定义镜像与驱动版本。',
  },
  { icon: 'lock', title: '带外管理', text: '提供 BMC 远程开关机与控制台，系统故障时也能自助恢复。' },
  {
    icon: 'layers',
    title: '接入平台统一管理',
    text: '可安装节点 Agent 接入控制台，像轻量实例一样创建和管理容器。',
  },
  { icon: 'headset', title: '专属技术支持', text: '交付、驱动、分布式训练环境调优，工程师一对一支持。' },
];

export function GpuServersPage() {
  return (
    <>
      <PageHero
        eyebrow="裸金属 GPU"
        title="裸金属 GPU 服务器"
        actions={
          <>
            <Link to="/contact" className="gc-btn gc-btn-primary gc-btn-lg">
              咨询购买
            </Link>
            <Link to="/market" className="gc-btn gc-btn-lg">
              先试试轻量实例
            </Link>
          </>
        }
      >
        整机独享的 GPU
        物理服务器，无虚拟化损耗，适合大模型训练、长期稳定运行的推理业务，以及对隔离性有严格要求的企业客户。
      </PageHero>
      <Section title="可选配置" subtitle="常用机型如下，更多配置与现货情况请咨询商务">
        <DevelopmentNote>
          裸金属服务器的在线自助下单功能正在开发中。目前由商务团队为您确认配置与报价，签约后通常 1-3
          个工作日内交付。
        </DevelopmentNote>
        <div className="pub-table-wrap spec-table">
          <table className="pub-table">
            <caption className="visually-hidden">裸金属 GPU 服务器配置</caption>
            <thead>
              <tr>
                <th scope="col">机型</th>
                <th scope="col">GPU</th>
                <th scope="col">CPU</th>
                <th scope="col">内存</th>
                <th scope="col">本地存储</th>
                <th scope="col">网络</th>
                <th scope="col">适用场景</th>
              </tr>
            </thead>
            <tbody>
              {MODELS.map((model) => (
                <tr key={model.name}>
                  <th scope="row">{model.name}</th>
                  <td>{model.gpu}</td>
                  <td>{model.cpu}</td>
                  <td>{model.memory}</td>
                  <td>{model.disk}</td>
                  <td>{model.network}</td>
                  <td>{model.fit}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {/* Phones get one card per model instead of a table that scrolls sideways. */}
        <ul className="spec-cards">
          {MODELS.map((model) => (
            <li key={model.name} className="pub-card">
              <h3>{model.name}</h3>
              <dl>
                {SPEC_FIELDS.map(([field, label]) => (
                  <div key={field}>
                    <dt>{label}</dt>
                    <dd>{model[field]}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
        <p className="pub-prose" style={{ marginTop: 16 }}>
          支持按月、按季、按年租用，长期租用享阶梯折扣。价格因配置、租期与地域而异，请联系商务获取报价。
        </p>
      </Section>
      <Section title="产品优势" alt>
        <FeatureGrid items={FEATURES} wide />
      </Section>
      <Section title="交付流程">
        <Steps
          steps={[
            { title: '需求沟通', text: '说明业务场景、卡型、数量与租期。' },
            { title: '方案与报价', text: '确认配置、网络与交付时间。' },
            { title: '签约付款', text: '签订租用合同，支持对公转账。' },
            { title: '上架交付', text: '完成系统安装与验收，交付登录信息。' },
            { title: '持续支持', text: '租期内的硬件保修与技术支持。' },
          ]}
        />
      </Section>
      <CtaBand
        title="需要整机算力？"
        text="告诉我们您的需求，商务将在 1 个工作日内联系您"
        to="/contact"
        label="联系商务"
      />
    </>
  );
}
