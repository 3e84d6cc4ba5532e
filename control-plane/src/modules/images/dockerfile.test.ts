import { describe, expect, it } from 'vitest';
import { contents } from './contents-fixture.js';
import { dockerfile } from './dockerfile.js';

const image = { name: 'my-env', tag: 'latest', digest: `sha256:${'b'.repeat(64)}` };

describe('the generated Dockerfile', () => {
  it('starts from the base pinned by digest, installs the added apt packages and the pip packages pinned', () => {
    const text = dockerfile(image, contents());
    const lines = text.split('\n');
    expect(lines.find((l) => l.startsWith('FROM '))).toBe(`FROM debian@sha256:${'a'.repeat(64)}`);
    expect(text).toContain('apt-get install -y --no-install-recommends');
    expect(text).toContain('curl=7.88.1-10');
    // Only what the save added: the base's own packages are the base's.
    expect(text).not.toContain('bash=');
    expect(text).toContain('numpy==1.26.4');
    expect(text).toContain('requests==2.31.0');
    expect(text).toContain('# Not reproduced by this file:');
    expect(text).toMatch(/files written outside the package managers \(1 saved layer\(s\), 1000 bytes/);
    expect(text.endsWith('\n')).toBe(true);
    // Every RUN continues cleanly: no line ends in a backslash followed by nothing.
    const last = lines.filter((l) => l.trim() !== '').at(-1) ?? '';
    expect(last.endsWith('\\')).toBe(false);
  });

  it('pins a base recorded by its bare digest to its repository, and skips what a Dockerfile cannot carry', () => {
    const text = dockerfile(
      image,
      contents({
        base: { image: '127.0.0.1:5000/u1/img2:v1', digest: `sha256:${'c'.repeat(64)}` },
        apt_added: [],
        pip: [
          { name: 'ok-pkg', version: '1.0' },
          { name: 'evil', version: '1.0\nRUN rm -rf /' },
        ],
        conda: [{ name: 'python', version: '3.11.5' }],
      }),
    );
    expect(text).toContain(`FROM 127.0.0.1:5000/u1/img2@sha256:${'c'.repeat(64)}\n`);
    expect(text).toContain('write FROM 127.0.0.1:5000/u1/img2:v1 instead');
    expect(text).not.toContain('apt-get');
    expect(text).toContain('ok-pkg==1.0');
    expect(text).not.toMatch(/^RUN rm/m);
    expect(text).toContain('1 conda packages');
    expect(text).toContain('pip evil');
  });

  it('installs nothing for an image without pip or dpkg (busybox), and says so', () => {
    const text = dockerfile(image, contents({ pip: null, apt: null, apt_added: null, python: null }));
    expect(text).not.toContain('RUN ');
    expect(text).toContain('Debian/Ubuntu packages (not a dpkg image');
    expect(text).toContain('pip packages (no pip in the image)');
  });
});
