// What is inside a small Debian image with pip, as the agent records it: the compare and
// Dockerfile tests vary it.
import type { ImageContents } from './contract.js';

export const contents = (over: Partial<ImageContents> = {}): ImageContents => ({
  os: { id: 'debian', version_id: '12', pretty_name: 'Debian GNU/Linux 12 (bookworm)' },
  python: '3.11.2',
  cuda: null,
  cudnn: null,
  pip: [
    { name: 'numpy', version: '1.26.4' },
    { name: 'requests', version: '2.31.0' },
  ],
  conda: null,
  apt: [
    { name: 'bash', version: '5.2.15-2+b2' },
    { name: 'curl', version: '7.88.1-10' },
  ],
  apt_added: [{ name: 'curl', version: '7.88.1-10' }],
  base: { image: 'debian:12', digest: 'debian@sha256:'.concat('a'.repeat(64)) },
  layers: [
    { created_by: 'gpucloud save', size_bytes: 1000, added: true },
    { created_by: '/bin/sh -c #(nop) ADD file:x in /', size_bytes: 50_000, added: false },
  ],
  added_bytes: 1000,
  ...over,
});
