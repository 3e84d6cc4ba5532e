// The pure parts of a save: parsing what the tools print, the saved configuration and history,
// the archives; no engine needed.
import { describe, expect, it } from 'vitest';
import { imageContents } from '../../control-plane/src/modules/images/contract.js';
import type { ContainerDetails } from '../src/docker/container-client.js';
import {
  addedPackages,
  baseDigest,
  layersOf,
  parseConda,
  parseCuda,
  parseCudnn,
  parseDpkg,
  parseOsRelease,
  parsePip,
  parsePython,
} from '../src/images/image-contents.js';
import {
  commitChanges,
  configArchive,
  historyFor,
  savedConfig,
  savedEnv,
} from '../src/images/image-saver.js';
import { fileEntry, readTar, writeTar } from '../src/images/tar.js';

describe('reading what the tools print', () => {
  it('reads /etc/os-release', () => {
    const text = 'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\n';
    expect(parseOsRelease(text)).toEqual({
      id: 'ubuntu',
      version_id: '22.04',
      pretty_name: 'Ubuntu 22.04.4 LTS',
    });
    expect(parseOsRelease('sh: cat: not found')).toBeNull();
  });

  it('reads the Python version', () => {
    expect(parsePython('Python 3.10.12\n')).toBe('3.10.12');
    expect(parsePython('sh: python3: not found')).toBeNull();
  });

  it('reads CUDA from version.json, version.txt, nvcc, or the environment', () => {
    expect(
      parseCuda(
        '{"cuda" : {"name" : "CUDA SDK", "version" : "12.1.1"}, "cuda_cudart": {"version": "12.1.105"}}',
        [],
      ),
    ).toBe('12.1.1');
    expect(parseCuda('CUDA Version 11.0.228\n', [])).toBe('11.0.228');
    expect(parseCuda('Cuda compilation tools, release 12.4, V12.4.131\n', [])).toBe('12.4.131');
    expect(parseCuda('', ['CUDA_VERSION=11.8.0'])).toBe('11.8.0');
    expect(parseCuda('', ['PATH=/bin'])).toBeNull();
  });

  it('reads cuDNN from its header, its library, or the environment', () => {
    const header = '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 2\n';
    expect(parseCudnn(header, [])).toBe('8.9.2');
    expect(parseCudnn('/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0\n', [])).toBe('9.1.0');
    expect(parseCudnn('', ['CUDNN_VERSION=8.6.0.163'])).toBe('8.6.0.163');
    expect(parseCudnn('', [])).toBeNull();
  });

  it('reads pip, conda and dpkg lists, sorted by name', () => {
    expect(parsePip('torch==2.3.0\nnumpy==1.26.4\n-e git+https://x#egg=y\n')).toEqual([
      { name: 'numpy', version: '1.26.4' },
      { name: 'torch', version: '2.3.0' },
    ]);
    expect(
      parseConda(
        '# This file may be used to create an environment\n# platform: linux-64\nzlib=1.2.13=h5eee18b_0\npython=3.11.5=h955ad1f_0\n',
      ),
    ).toEqual([
      { name: 'python', version: '3.11.5' },
      { name: 'zlib', version: '1.2.13' },
    ]);
    expect(parseDpkg('tar\t1.34+dfsg-1.2\nbash\t5.2.15-2+b2\n\n')).toEqual([
      { name: 'bash', version: '5.2.15-2+b2' },
      { name: 'tar', version: '1.34+dfsg-1.2' },
    ]);
  });

  it('tells the packages added or changed since the base', () => {
    const base = [
      { name: 'bash', version: '5.1' },
      { name: 'tar', version: '1.34' },
    ];
    const now = [
      { name: 'bash', version: '5.2' },
      { name: 'tar', version: '1.34' },
      { name: 'vim', version: '9.0' },
    ];
    expect(addedPackages(now, base)).toEqual([
      { name: 'bash', version: '5.2' },
      { name: 'vim', version: '9.0' },
    ]);
  });

  it('takes the base digest of the repository the base is named by, else its id', () => {
    const details = {
      id: 'sha256:id',
      repoDigests: ['other/repo@sha256:other', 'nvidia/cuda@sha256:cuda'],
      config: {},
      architecture: 'amd64',
      os: 'linux',
      variant: '',
      diffIds: [],
      sizeBytes: 0,
    };
    expect(baseDigest(details, 'nvidia/cuda:12.1.1-runtime')).toBe('sha256:cuda');
    expect(baseDigest(details, 'local/x:1')).toBe('sha256:other');
    expect(baseDigest({ ...details, repoDigests: [] }, 'local/x:1')).toBe('sha256:id');
  });

  it('marks the layers past the base history as added, and parses as the control plane reads it', () => {
    const history = [
      { createdUnix: 3, createdBy: 'gpucloud save-image', comment: '', sizeBytes: 500 },
      { createdUnix: 2, createdBy: 'CMD ["bash"]', comment: '', sizeBytes: 0 },
      { createdUnix: 1, createdBy: '', comment: 'Imported from -', sizeBytes: 1000 },
    ];
    const layers = layersOf(history, 2);
    expect(layers.layers.map((l) => l.added)).toEqual([true, false, false]);
    expect(layers.added_bytes).toBe(500);
    expect(layers.layers[2]?.created_by).toBe('Imported from -');
    const contents = {
      os: null,
      python: null,
      cuda: null,
      cudnn: null,
      pip: null,
      conda: null,
      apt: null,
      apt_added: null,
      base: { image: 'x', digest: 'sha256:x' },
      ...layers,
    };
    expect(imageContents.parse(contents)).toEqual(contents);
  });
});

const container = (over: Partial<ContainerDetails> = {}): ContainerDetails => ({
  dockerId: 'd',
  name: 'gpucloud-c1',
  image: 'base:1',
  labels: { 'gpucloud.managed': 'true', 'gpucloud.containerId': 'c1', 'gpucloud.cpuShare': 'auto' },
  state: 'running',
  statusText: '',
  exitCode: 0,
  createdAtMs: 0,
  startedAtMs: 0,
  finishedAtMs: 0,
  tty: false,
  env: [
    'PATH=/usr/bin:/bin',
    'NVIDIA_VISIBLE_DEVICES=void',
    'GPUCLOUD_SSH_PORT=22',
    'GPUCLOUD_USER=jovyan',
    'JUPYTER_TOKEN=secret-pass',
    'JUPYTER_CONFIG_PATH=/etc/gpucloud/jupyter',
    'MY_VAR=mine',
  ],
  command: ['tini', '--', 'start-notebook.sh'],
  entrypoint: ['/.gpucloud/init'],
  workingDir: '/home/jovyan',
  user: '0',
  ports: [],
  binds: [],
  nvidiaDeviceIds: [],
  resources: { memoryBytes: 0, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 0 },
  health: { status: '', output: '' },
  ...over,
});

describe('the saved configuration', () => {
  it('keeps the base environment and the user variables, never the platform ones', () => {
    expect(savedEnv(['PATH=/opt/bin:/bin', 'NVIDIA_VISIBLE_DEVICES=all', 'LANG=C'], container().env)).toEqual(
      ['PATH=/usr/bin:/bin', 'NVIDIA_VISIBLE_DEVICES=all', 'LANG=C', 'MY_VAR=mine'],
    );
  });

  it('is the base image config with the description and the base named', () => {
    const base = {
      id: 'sha256:base',
      repoDigests: [],
      config: {
        Entrypoint: ['tini', '--'],
        Cmd: ['start-notebook.sh'],
        User: 'jovyan',
        Env: ['PATH=/usr/bin:/bin'],
        Labels: { maintainer: 'x' },
        Healthcheck: { Test: ['CMD', 'curl', 'localhost'] },
        Hostname: 'abc',
        Image: 'sha256:parent',
      },
      architecture: 'amd64',
      os: 'linux',
      variant: '',
      diffIds: [],
      sizeBytes: 0,
    };
    const config = savedConfig(container(), base, 'jupyter/base:1', 'notes');
    expect(config).toEqual({
      Entrypoint: ['tini', '--'],
      Cmd: ['start-notebook.sh'],
      User: 'jovyan',
      Env: ['PATH=/usr/bin:/bin', 'MY_VAR=mine'],
      Healthcheck: { Test: ['CMD', 'curl', 'localhost'] },
      Labels: {
        maintainer: 'x',
        'org.opencontainers.image.base.name': 'jupyter/base:1',
        'org.opencontainers.image.base.digest': 'sha256:base',
        'org.opencontainers.image.description': 'notes',
      },
    });
  });

  it('without the base, is the container config with the init taken out', () => {
    const config = savedConfig(container(), undefined, 'gone:1', '');
    expect(config).toMatchObject({
      User: 'jovyan',
      Entrypoint: null,
      Cmd: ['tini', '--', 'start-notebook.sh'],
      WorkingDir: '/home/jovyan',
      Env: ['PATH=/usr/bin:/bin', 'MY_VAR=mine'],
    });
  });

  it("blanks the platform's variables and labels in the commit's changes", () => {
    const config = savedConfig(container(), undefined, 'gone:1', '');
    const changes = commitChanges({ ...config, Env: [...(config.Env as string[]), 'Q=a"b$c'] }, container());
    expect(changes).toContain('ENV JUPYTER_TOKEN=""');
    expect(changes).toContain('ENV GPUCLOUD_USER=""');
    expect(changes).toContain('ENV Q="a\\"b\\$c"');
    expect(changes).toContain('LABEL gpucloud.cpuShare=""');
    expect(changes).toContain('ENTRYPOINT []');
    expect(changes).toContain('CMD ["tini","--","start-notebook.sh"]');
    expect(changes.join('\n')).not.toContain('secret-pass');
  });
});

describe('the history of the loaded image', () => {
  const step = (createdBy: string, sizeBytes: number) => ({
    createdUnix: 1_700_000_000,
    createdBy,
    comment: '',
    sizeBytes,
  });

  it('marks the steps with bytes as layers, and zero-byte steps that are not metadata when layers are missing', () => {
    // newest first, as docker history
    const history = [
      step('bash', 100),
      step('/bin/sh -c #(nop)  CMD ["bash"]', 0),
      step('RUN mkdir -p /x', 0),
      step('ADD file', 5000),
    ];
    const out = historyFor(history, 3, 'saved');
    expect(out?.map((h) => h.empty_layer ?? false)).toEqual([false, false, true, false]);
    expect(out?.at(-1)?.created_by).toBe('saved');
    expect(out?.[0]?.created).toBe('2023-11-14T22:13:20.000Z');
  });

  it('gives up where the steps cannot match the layers', () => {
    expect(historyFor([step('a', 10), step('b', 10)], 1, 'saved')).toBeUndefined();
  });
});

describe('archives', () => {
  it('writes and reads back a tar', () => {
    const tar = writeTar([fileEntry('a.txt', 'hello', 0o600), fileEntry('b/c.json', '{}')]);
    expect(tar.length % 512).toBe(0);
    const entries = readTar(tar);
    expect(entries.map((e) => [e.name, e.mode, e.data.toString()])).toEqual([
      ['a.txt', 0o600, 'hello'],
      ['b/c.json', 0o644, '{}'],
    ]);
  });

  it('makes a load archive of a config and a manifest naming the layers', () => {
    const config = { rootfs: { type: 'layers', diff_ids: ['sha256:a', 'sha256:b'] } };
    const { archive, id } = configArchive('reg:5000/u1/img1:v1', config);
    const files = new Map(readTar(archive).map((e) => [e.name, e.data.toString()]));
    const manifest = JSON.parse(files.get('manifest.json') ?? '') as Array<Record<string, unknown>>;
    expect(manifest).toEqual([
      {
        Config: `${id.slice('sha256:'.length)}.json`,
        RepoTags: ['reg:5000/u1/img1:v1'],
        Layers: ['layer0/layer.tar', 'layer1/layer.tar'],
      },
    ]);
    expect(JSON.parse(files.get(`${id.slice(7)}.json`) ?? '')).toEqual(config);
  });
});
