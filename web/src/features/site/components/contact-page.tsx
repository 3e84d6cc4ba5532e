import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../../components/icons';
import { SITE } from '../site-info';
import { PageHero, Section } from './page-blocks';

interface Channel {
  icon: IconName;
  title: string;
  text: string;
  lines: { label: string; value: string; href?: string }[];
}

const CHANNELS: Channel[] = [
  {
    icon: 'phone',
    title: '客服热线',
    text: '充值、账单、发票与账号问题',
    lines: [
      { label: '电话', value: SITE.supportPhone, href: `tel:${SITE.supportPhone.replaceAll('-', '')}` },
      { label: '时间', value: SITE.supportHours },
    ],
  },
  {
    icon: 'headset',
    title: '技术支持',
    text: '实例无法连接、驱动与框架环境等技术问题',
    lines: [
      { label: '邮箱', value: SITE.supportEmail, href: `mailto:${SITE.supportEmail}` },
      { label: '响应', value: '7×24 小时受理，紧急故障优先处理' },
    ],
  },
  {
    icon: 'server',
    title: '售前咨询',
    text: '裸金属服务器、私有云与大客户方案',
    lines: [
      { label: '邮箱', value: SITE.businessEmail, href: `mailto:${SITE.businessEmail}` },
      { label: '电话', value: SITE.supportPhone, href: `tel:${SITE.supportPhone.replaceAll('-', '')}` },
    ],
  },
  {
    icon: 'link',
    title: '商务合作',
    text: '算力供应、渠道代理、高校与生态合作',
    lines: [{ label: '邮箱', value: SITE.businessEmail, href: `mailto:${SITE.businessEmail}` }],
  },
];

const FAQ: { q: string; a: string }[] = [
  {
    q: '实例创建后如何连接？',
    a: '在“我的容器”中点击“复制连接信息”即可获得 SSH 命令与密码；使用 Jupyter 镜像的实例还会显示 Jupyter 访问地址。',
  },
  {
    q: '按小时计费的实例关机后还收费吗？',
    a: '关机后停止 GPU 计费。注意：按量计费实例关机 3 天后会被自动释放，重要数据请保存在存储卷中。',
  },
  {
    q: '如何开具发票？',
    a: '登录后在“发票”页面选择已支付的订单，填写抬头与税号提交申请即可。',
  },
];

export function ContactPage() {
  return (
    <>
      <PageHero eyebrow="联系我们" title="我们随时为您提供帮助">
        人工客服服务时间为{SITE.supportHours}，平台运维 7×24 小时值守。
      </PageHero>
      <Section title="联系方式">
        <ul className="pub-grid">
          {CHANNELS.map((channel) => (
            <li key={channel.title}>
              <article className="pub-card">
                <span className="pub-card-icon">
                  <Icon name={channel.icon} size={22} />
                </span>
                <h3>{channel.title}</h3>
                <p>{channel.text}</p>
                <ul>
                  {channel.lines.map((line) => (
                    <li key={line.label}>
                      {line.label}：{line.href ? <a href={line.href}>{line.value}</a> : line.value}
                    </li>
                  ))}
                </ul>
              </article>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="常见问题" alt>
        <div className="pub-prose" style={{ margin: '0 auto' }}>
          {FAQ.map((item) => (
            <details key={item.q} className="pub-faq">
              <summary>{item.q}</summary>
              <p>{item.a}</p>
            </details>
          ))}
          <p>
            更多问题请查看 <Link to="/docs">文档中心</Link>。
          </p>
        </div>
      </Section>
    </>
  );
}
