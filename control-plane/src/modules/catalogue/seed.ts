import type { CatalogueRepository } from './repository.js';

/** The image every `npm start` builds locally (busybox + OpenSSH), usable without a registry. */
export const LOCAL_BASE_IMAGE = 'gpucloud/base:local';

const SSH_JUPYTER = { ssh: 22, jupyter: 8888 };
/** Images without Jupyter show no Jupyter port (the agent's init starts Jupyter only where it is). */
const SSH_ONLY = { ssh: 22 };

interface SeedVersion {
  version: string;
  image: string;
  cuda_version: string;
  system_type?: 'ubuntu' | 'windows';
  ports?: Record<string, number | string>;
  mounts?: { source: string; target: string }[];
}

interface SeedFramework {
  name: string;
  ports: Record<string, number>;
  versions: SeedVersion[];
}

// Real, public images. On a host without registry access only the local base image can run;
// the others are pulled by the agent on a real GPU host. None needs sshd: SSH comes from the
// agent's toolbox. A Jupyter port is shown only for images that ship Jupyter.
const CATALOGUE: SeedFramework[] = [
  {
    name: 'Base',
    ports: { ssh: 22 },
    versions: [
      { version: 'busybox-sshd (本地)', image: LOCAL_BASE_IMAGE, cuda_version: '', ports: { ssh: 22 } },
    ],
  },
  {
    name: 'PyTorch',
    ports: SSH_JUPYTER,
    versions: [
      {
        version: '2.5.1-cuda12.4',
        image: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel',
        cuda_version: '12.4',
        ports: SSH_ONLY,
      },
      {
        version: '2.4.1-cuda12.1',
        image: 'pytorch/pytorch:2.4.1-cuda12.1-cudnn9-devel',
        cuda_version: '12.1',
        ports: SSH_ONLY,
      },
    ],
  },
  {
    name: 'TensorFlow',
    ports: { ...SSH_JUPYTER, tensorboard: 6006 },
    versions: [
      { version: '2.17.0-gpu', image: 'tensorflow/tensorflow:2.17.0-gpu-jupyter', cuda_version: '12.3' },
    ],
  },
  {
    name: 'JAX',
    ports: SSH_JUPYTER,
    versions: [
      {
        version: '0.4.35-cuda12',
        image: 'nvcr.io/nvidia/jax:24.10-py3',
        cuda_version: '12.6',
        ports: SSH_ONLY,
      },
    ],
  },
  {
    name: 'PaddlePaddle',
    ports: SSH_JUPYTER,
    versions: [
      {
        version: '3.0.0-cuda12.3',
        image: 'paddlepaddle/paddle:3.0.0-gpu-cuda12.3-cudnn9.0-trt8.6',
        cuda_version: '12.3',
        ports: SSH_ONLY,
      },
    ],
  },
  {
    name: 'Ubuntu',
    ports: SSH_JUPYTER,
    versions: [
      {
        version: '22.04-cuda12.4-jupyter',
        image: 'nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04',
        cuda_version: '12.4',
        ports: SSH_ONLY,
      },
    ],
  },
  {
    name: 'Windows',
    ports: { rdp: 3389 },
    versions: [
      {
        version: 'win10-cuda12.6',
        image: 'gpucloud/windows10-cuda:12.6',
        cuda_version: '12.6',
        system_type: 'windows',
        ports: { custom: 'rdp:3389,ssh:22' },
      },
    ],
  },
];

const IMAGES = [
  {
    name: 'PyTorch 2.5.1',
    framework: 'PyTorch',
    version: '2.5.1-cuda12.4',
    category: 'pytorch',
    description: 'PyTorch 2.5.1 + CUDA 12.4 + cuDNN 9 官方镜像，SSH 登录即用，适合深度学习训练与推理。',
  },
  {
    name: 'TensorFlow 2.17',
    framework: 'TensorFlow',
    version: '2.17.0-gpu',
    category: 'tensorflow',
    description: 'TensorFlow 2.17 GPU 版，内置 Jupyter 与 TensorBoard。',
  },
  {
    name: 'JAX 0.4.35',
    framework: 'JAX',
    version: '0.4.35-cuda12',
    category: 'ml',
    description: 'NVIDIA 优化的 JAX 容器，适合大规模数值计算与研究。',
  },
  {
    name: 'PaddlePaddle 3.0',
    framework: 'PaddlePaddle',
    version: '3.0.0-cuda12.3',
    category: 'cv',
    description: '飞桨 3.0 GPU 版，适合 OCR、检测与中文 NLP 任务。',
  },
  {
    name: 'Ubuntu 22.04 + CUDA 12.4 Jupyter',
    framework: 'Ubuntu',
    version: '22.04-cuda12.4-jupyter',
    category: 'all',
    description: '干净的 Ubuntu 22.04 + CUDA 12.4 + cuDNN 开发环境（NVIDIA 官方镜像），SSH 登录即用。',
  },
  {
    name: 'Windows 10 + CUDA 12.6',
    framework: 'Windows',
    version: 'win10-cuda12.6',
    category: 'all',
    description: 'Windows 10 桌面环境，支持远程桌面与 CUDA 12.6。',
  },
];

/** Idempotent: safe on every start. */
export async function seedCatalogue(repo: CatalogueRepository): Promise<void> {
  const versionIds = new Map<string, number>();
  for (const [sort, fw] of CATALOGUE.entries()) {
    const frameworkId = await repo.upsertFramework(fw.name, fw.ports, sort);
    for (const v of fw.versions) {
      const id = await repo.upsertVersion({
        framework_id: frameworkId,
        version: v.version,
        image: v.image,
        cuda_version: v.cuda_version,
        system_type: v.system_type ?? 'ubuntu',
        ports: v.ports ?? fw.ports,
        mounts: v.mounts ?? [],
      });
      versionIds.set(`${fw.name}/${v.version}`, id);
    }
  }
  for (const image of IMAGES) {
    const versionId = versionIds.get(`${image.framework}/${image.version}`);
    if (!versionId) throw new Error(`seed image ${image.name} names an unknown version`);
    await repo.ensureImage({
      name: image.name,
      icon: '',
      description: image.description,
      category: image.category,
      framework_version_id: versionId,
    });
  }
}
