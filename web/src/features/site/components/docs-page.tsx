import { Link } from 'react-router-dom';
import { formatCredit, useTrialCredit } from '../../auth/api/get-site';
import { PageHero } from './page-blocks';
import './docs-page.css';

const TOPICS = [
  { id: 'start', title: '注册与充值' },
  { id: 'create', title: '创建实例' },
  { id: 'connect', title: '连接实例' },
  { id: 'storage', title: '数据与存储' },
  { id: 'billing', title: '计费说明' },
  { id: 'api', title: 'API 与 MCP' },
];

/** A quick-start guide: enough to go from a new account to a running, reachable GPU instance. */
export function DocsPage() {
  // No number while the server's amount loads, and no trial credit to promise when it is 0.
  const credit = useTrialCredit();
  return (
    <>
      <PageHero title="文档中心">从注册到运行第一个 GPU 实例的快速入门。</PageHero>
      <div className="pub-container docs">
        <nav className="docs-toc" aria-label="文档目录">
          <ol>
            {TOPICS.map((topic) => (
              <li key={topic.id}>
                <a href={`#${topic.id}`}>{topic.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        <article className="docs-body">
          <section id="start" aria-labelledby="start-title">
            <h2 id="start-title">1. 注册与充值</h2>
            <p>
              {credit === null ? (
                <>
                  请先<Link to="/register">注册账号</Link>。
                </>
              ) : (
                <>
                  <Link to="/register">注册账号</Link>后即可获得 {formatCredit(credit)}体验金。
                </>
              )}
              余额不足时，在
              “余额”页面充值，支持微信支付，或联系客服进行对公转账。建议设置余额告警阈值，余额低于阈值时会提醒您。
            </p>
          </section>
          <section id="create" aria-labelledby="create-title">
            <h2 id="create-title">2. 创建实例</h2>
            <ol>
              <li>
                进入<Link to="/market">实例市场</Link>，按地区、卡型、GPU 数量筛选服务器。
              </li>
              <li>点击“购买”，填写实例名称，选择框架与版本（如 PyTorch 2.x + CUDA 12.4）和 GPU 数量。</li>
              <li>选择计费方式与时长，按需添加存储卷挂载与自定义端口（10000-65535）。</li>
              <li>阅读并同意服务条款，确认价格后创建。实例会自动启动。</li>
            </ol>
          </section>
          <section id="connect" aria-labelledby="connect-title">
            <h2 id="connect-title">3. 连接实例</h2>
            <p>在“我的容器”中点击“复制连接信息”，即可得到 SSH 命令与密码，例如：</p>
            <pre className="docs-code">
              <code>ssh -p 10022 root@gpu-node-01.example.com</code>
            </pre>
            <p>
              使用 Jupyter 镜像的实例会显示 Jupyter 地址（由容器的 8888
              端口映射而来），在浏览器中打开即可。也可以在控制台中直接打开网页终端或查看实时日志。
            </p>
          </section>
          <section id="storage" aria-labelledby="storage-title">
            <h2 id="storage-title">4. 数据与存储</h2>
            <p>
              实例的系统盘随实例释放而删除。训练数据、模型权重等需要长期保存的文件，请放在
              <strong>存储卷</strong>
              中：在“存储管理”创建存储卷，创建实例时将其挂载到如 <code>/root/data</code>{' '}
              的路径。存储卷可在多个实例之间复用。
            </p>
          </section>
          <section id="billing" aria-labelledby="billing-title">
            <h2 id="billing-title">5. 计费说明</h2>
            <ul>
              <li>按量计费：实例运行期间按 GPU 数量 × 小时单价计费，按秒计量；关机后停止 GPU 计费。</li>
              <li>
                <strong>按量计费实例关机 3 天后自动释放</strong>，请及时备份数据。
              </li>
              <li>包日、包周、包月、包年：下单时一次性扣费，长期使用更优惠，到期后停止。</li>
              <li>
                所有消费与充值记录可在“账单记录”中查看，详细规则见<Link to="/agreement">服务条款</Link>。
              </li>
            </ul>
          </section>
          <section id="api" aria-labelledby="api-title">
            <h2 id="api-title">6. API 与 MCP</h2>
            <p>
              在“个人中心”创建 API 密钥后，可以通过 <code>X-API-Key</code> 请求头调用 MCP 接口，在脚本或 AI
              智能体中创建、启动、停止容器：
            </p>
            <pre className="docs-code">
              <code>curl -H "X-API-Key: &lt;您的密钥&gt;" https://&lt;平台域名&gt;/api/mcp/containers</code>
            </pre>
            <p>
              同一个密钥也可以调用容器、算力市场、镜像与余额接口。全部接口、参数与答复见{' '}
              <Link to="/docs/api">API 文档</Link>（OpenAPI 3.1：/api/openapi.json）。
            </p>
            <p>API 密钥只在创建时完整显示一次，请妥善保管；如有泄露，请立即删除并重新创建。</p>
          </section>
        </article>
      </div>
    </>
  );
}
