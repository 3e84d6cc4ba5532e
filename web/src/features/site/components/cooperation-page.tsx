import { SITE } from '../site-info';
import { CtaBand, FeatureGrid, type FeatureItem, PageHero, Section, Steps } from './page-blocks';

const MODES: FeatureItem[] = [
  {
    icon: 'server',
    title: '算力供应商入驻',
    text: '拥有 GPU 服务器或机房资源？安装节点 Agent 即可接入平台对外出租，获得稳定收益。',
    points: ['平台负责获客、计费与结算', '资源状态实时可见', '按月结算，账目透明'],
  },
  {
    icon: 'users',
    title: '渠道与代理',
    text: '面向系统集成商、IDC 与行业伙伴，推荐客户使用平台服务获得返佣。',
    points: ['专属渠道价格', '联合售前支持', '客户归属保护'],
  },
  {
    icon: 'graduation',
    title: '高校与科研合作',
    text: '为高校实验室与科研机构提供教学与科研算力，支持课程实验与联合课题。',
    points: ['教育优惠价格', '课题组统一充值与报销', '教学实验镜像定制'],
  },
  {
    icon: 'box',
    title: '应用与模型生态',
    text: '模型厂商、开源社区与 ISV 可将镜像上架应用市场，触达 AI 开发者。',
    points: ['应用市场推荐位', '一键部署体验', '联合市场活动'],
  },
];

export function CooperationPage() {
  return (
    <>
      <PageHero eyebrow="商务合作" title="携手共建 GPU 算力生态">
        无论您拥有算力资源、客户渠道，还是优秀的 AI 应用，我们都期待与您合作。
      </PageHero>
      <Section title="合作模式">
        <FeatureGrid items={MODES} />
      </Section>
      <Section title="合作流程" alt>
        <Steps
          steps={[
            { title: '提交意向', text: `发送邮件至 ${SITE.businessEmail}，简述合作方向。` },
            { title: '需求沟通', text: '商务经理 2 个工作日内与您联系。' },
            { title: '方案确认', text: '明确合作方式、价格与权责。' },
            { title: '签约上线', text: '签署合作协议，资源或应用上线。' },
          ]}
        />
      </Section>
      <CtaBand title="期待与您合作" text={`商务邮箱：${SITE.businessEmail}`} to="/contact" label="联系商务" />
    </>
  );
}
