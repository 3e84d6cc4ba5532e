import { Link } from 'react-router-dom';
import { Icon } from '../../../../components/icons';

const TERMINAL: { id: string; prompt?: string; text: string; dim?: boolean }[] = [
  { id: 'ssh', prompt: '$', text: 'ssh -p 10022 root@gpu-node-01' },
  { id: 'smi', prompt: '~#', text: 'nvidia-smi --query-gpu=name,memory.total --format=csv' },
  { id: 'head', text: 'name, memory.total [MiB]', dim: true },
  { id: 'gpu0', text: 'NVIDIA GeForce RTX 4090, 24564 MiB' },
  { id: 'gpu1', text: 'NVIDIA GeForce RTX 4090, 24564 MiB' },
  { id: 'train', prompt: '~#', text: 'torchrun --nproc_per_node=2 train.py' },
  { id: 'e1', text: 'epoch 1/10  loss=0.412  1830 samples/s' },
  { id: 'e2', text: 'epoch 2/10  loss=0.287  1846 samples/s' },
];

const POINTS = ['按小时计费，秒级计量', '预装 CUDA 与主流框架', 'SSH / Jupyter 即开即用'];

export function HomeHero() {
  return (
    <section className="home-hero" aria-labelledby="home-hero-title">
      <div className="pub-container">
        <div>
          <span className="pub-hero-eyebrow">RTX 4090 · A100 多卡型现货可租</span>
          <h1 id="home-hero-title">
            面向 AI 开发者的
            <br />
            <em>GPU 云平台</em>
          </h1>
          <p className="home-hero-lead">
            按需租用 GPU 容器，一键部署 PyTorch、大模型推理与 AI
            绘画环境。从模型训练、微调到推理上线，算力随开随用，用多少付多少。
          </p>
          <div className="pub-hero-actions">
            <Link to="/market" className="gc-btn gc-btn-primary gc-btn-lg" data-testid="hero-market-link">
              立即体验
              <Icon name="arrow-right" size={16} />
            </Link>
            <Link to="/apps" className="gc-btn gc-btn-lg">
              浏览应用市场
            </Link>
          </div>
          <ul className="home-hero-points">
            {POINTS.map((point) => (
              <li key={point}>
                <Icon name="check" size={16} />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <figure className="home-terminal" aria-label="实例终端示例">
          <div className="home-terminal-bar" aria-hidden="true">
            <span />
            <span />
            <span />
          </div>
          <pre>
            {TERMINAL.map((line) => (
              <span key={line.id} className={line.dim ? 't-dim' : undefined}>
                {line.prompt ? <span className="t-prompt">{line.prompt} </span> : null}
                {line.text}
                {'\n'}
              </span>
            ))}
          </pre>
        </figure>
      </div>
    </section>
  );
}
