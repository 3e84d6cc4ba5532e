import { SITE } from '../site-info';
import { FeatureGrid, type FeatureItem, PageHero, Section } from './page-blocks';

interface Job {
  title: string;
  team: string;
  place: string;
  duties: string[];
  requirements: string[];
}

const JOBS: Job[] = [
  {
    title: '高级前端工程师',
    team: '控制台',
    place: '北京 / 远程',
    duties: [
      '负责 GPU 云控制台与官网的架构设计与开发，打磨实例、计费、存储等核心体验；',
      '建设组件与设计规范，关注性能、可访问性与测试覆盖。',
    ],
    requirements: [
      '3 年以上 React + TypeScript 开发经验，熟悉 Vite、React Router、TanStack Query 等工具；',
      '重视代码质量，有复杂中后台或云控制台开发经验者优先。',
    ],
  },
  {
    title: '后端工程师（Node.js）',
    team: '控制平面',
    place: '北京 / 杭州',
    duties: [
      '开发订单、计费、资源调度等核心服务，保证一致性与幂等；',
      '设计高可用、可水平扩展的无状态服务。',
    ],
    requirements: [
      '熟悉 Node.js / TypeScript 与 PostgreSQL，理解事务与并发控制；',
      '有支付、计费或云资源管理系统经验者优先。',
    ],
  },
  {
    title: 'GPU 基础设施工程师',
    team: '节点与运维',
    place: '北京',
    duties: [
      '负责 GPU 服务器、Docker 与 NVIDIA Container Toolkit 的部署、监控与故障处理；',
      '开发节点 Agent 的 GPU 发现、容器与存储管理能力。',
    ],
    requirements: [
      '熟悉 Linux、容器与网络，了解 CUDA、NVIDIA 驱动与 GPU 拓扑；',
      '有大规模集群运维或 gRPC 服务开发经验者优先。',
    ],
  },
  {
    title: '解决方案架构师',
    team: '商业化',
    place: '北京 / 上海 / 深圳',
    duties: ['理解客户的训练与推理需求，设计裸金属与私有云方案；', '支持售前交流、方案撰写与交付落地。'],
    requirements: ['熟悉深度学习训练与推理的算力需求，了解主流 GPU 型号与互联；', '良好的沟通与文档能力。'],
  },
  {
    title: '客户成功经理',
    team: '客户服务',
    place: '北京',
    duties: ['负责重点客户的上线、使用培训与续约；', '收集客户反馈，推动产品改进。'],
    requirements: ['有云计算或 SaaS 客户服务经验；', '对 AI 开发者群体与技术产品有热情。'],
  },
];

const BENEFITS: FeatureItem[] = [
  { icon: 'wallet', title: '有竞争力的薪酬', text: '具有竞争力的薪资与年终奖金，核心岗位提供期权。' },
  { icon: 'shield', title: '完善的保障', text: '五险一金足额缴纳，补充商业医疗保险与年度体检。' },
  { icon: 'gpu', title: '充足的算力', text: '员工学习与实验可免费使用平台 GPU 资源。' },
  { icon: 'clock', title: '弹性工作', text: '弹性工作时间，部分岗位支持远程办公。' },
];

export function JobsPage() {
  return (
    <>
      <PageHero eyebrow="加入我们" title="一起建设 AI 时代的算力基础设施">
        我们是一支小而精的工程团队，相信开放、务实与对用户负责。如果你也想让 GPU
        算力变得更易用、更普惠，欢迎加入。
      </PageHero>
      <Section title="福利待遇" alt>
        <FeatureGrid items={BENEFITS} />
      </Section>
      <Section title="开放职位" subtitle={`简历请发送至 ${SITE.jobsEmail}，邮件标题注明“应聘职位 - 姓名”`}>
        <ul className="pub-grid pub-grid-3">
          {JOBS.map((job) => (
            <li key={job.title}>
              <article className="pub-card">
                <span className="gc-tag gc-tag-blue">{job.team}</span>{' '}
                <span className="gc-tag">{job.place}</span>
                <h3>{job.title}</h3>
                <p>岗位职责</p>
                <ul>
                  {job.duties.map((duty) => (
                    <li key={duty}>{duty}</li>
                  ))}
                </ul>
                <p style={{ marginTop: 12 }}>任职要求</p>
                <ul>
                  {job.requirements.map((requirement) => (
                    <li key={requirement}>{requirement}</li>
                  ))}
                </ul>
                <p style={{ marginTop: 12 }}>
                  <a href={`mailto:${SITE.jobsEmail}?subject=${encodeURIComponent(`应聘${job.title}`)}`}>
                    投递简历
                  </a>
                </p>
              </article>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
