import type { ImageContents, UserImage, UserImageDetail, UserImageList } from '@gpucloud/control-plane/api';

/** A saved image as GET /api/images lists it, for tests. */
export function anImage(overrides: Partial<UserImage> = {}): UserImage {
  return {
    id: 1,
    name: 'my-env',
    tag: 'latest',
    description: '',
    status: 'ready',
    progress: 100,
    error: null,
    size_bytes: 3 * 1024 ** 3,
    created_at: '2026-11-20T08:00:00.000Z',
    source_container: { id: 'c-run', name: 'train-box' },
    source_image: 'pytorch:2.1-cuda12.1',
    digest: `sha256:${'a'.repeat(64)}`,
    in_use: [],
    ...overrides,
  };
}

export function imageList(images: UserImage[], quota: Partial<UserImageList['quota']> = {}): UserImageList {
  return {
    quota: { count: images.length, max_count: 10, bytes: 5 * 1024 ** 3, max_bytes: 50 * 1024 ** 3, ...quota },
    images,
  };
}

export const contents: ImageContents = {
  os: { id: 'ubuntu', version_id: '22.04', pretty_name: 'Ubuntu 22.04.4 LTS' },
  python: '3.10.12',
  cuda: '12.1.1',
  cudnn: '8.9.2',
  pip: [
    { name: 'numpy', version: '1.26.4' },
    { name: 'requests', version: '2.31.0' },
    { name: 'torch', version: '2.1.0' },
  ],
  conda: null,
  apt: [
    { name: 'curl', version: '7.81.0' },
    { name: 'htop', version: '3.0.5' },
  ],
  apt_added: [{ name: 'htop', version: '3.0.5' }],
  base: { image: 'pytorch:2.1-cuda12.1', digest: `sha256:${'b'.repeat(64)}` },
  layers: [
    { created_by: 'gpucloud save', size_bytes: 120 * 1024 ** 2, added: true },
    { created_by: '/bin/sh -c #(nop) CMD ["bash"]', size_bytes: 0, added: false },
    { created_by: '/bin/sh -c apt-get install cuda', size_bytes: 2 * 1024 ** 3, added: false },
  ],
  added_bytes: 120 * 1024 ** 2,
};

export function anImageDetail(overrides: Partial<UserImageDetail> = {}): UserImageDetail {
  return { ...anImage(), contents, ...overrides };
}
