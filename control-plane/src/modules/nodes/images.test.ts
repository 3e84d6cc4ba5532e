import { describe, expect, it } from 'vitest';
import { listedRef } from './images.js';

describe('listedRef', () => {
  it('writes a reference the way Docker lists it', () => {
    expect(listedRef('ubuntu')).toBe('ubuntu:latest');
    expect(listedRef('ubuntu:22.04')).toBe('ubuntu:22.04');
    expect(listedRef('docker.io/library/ubuntu')).toBe('ubuntu:latest');
    expect(listedRef('docker.io/pytorch/pytorch:2.4.0-cuda12.4-cudnn9-devel')).toBe(
      'pytorch/pytorch:2.4.0-cuda12.4-cudnn9-devel',
    );
    expect(listedRef('127.0.0.1:5000/team/train')).toBe('127.0.0.1:5000/team/train:latest');
    expect(listedRef('127.0.0.1:5000/team/train:1.2')).toBe('127.0.0.1:5000/team/train:1.2');
    expect(listedRef('nvidia/cuda@sha256:abc')).toBe('nvidia/cuda@sha256:abc');
  });
});
