import { describe, expect, it } from 'vitest';
import { compareImages, diffPackages } from './compare.js';
import { contents } from './contents-fixture.js';

describe('comparing two images', () => {
  it('lists what b adds, removes and changes, by name, whatever the case or separator pip uses', () => {
    const diff = diffPackages(
      [
        { name: 'numpy', version: '1.26.4' },
        { name: 'Pillow', version: '10.0.0' },
        { name: 'typing_extensions', version: '4.8.0' },
        { name: 'six', version: '1.16.0' },
      ],
      [
        { name: 'torch', version: '2.4.0' },
        { name: 'numpy', version: '2.0.1' },
        { name: 'pillow', version: '10.0.0' },
        { name: 'typing-extensions', version: '4.12.2' },
        { name: 'attrs', version: '23.1.0' },
      ],
    );
    expect(diff).toEqual({
      added: [
        { name: 'attrs', version: '23.1.0' },
        { name: 'torch', version: '2.4.0' },
      ],
      removed: [{ name: 'six', version: '1.16.0' }],
      changed: [
        { name: 'numpy', from: '1.26.4', to: '2.0.1' },
        { name: 'typing-extensions', from: '4.8.0', to: '4.12.2' },
      ],
    });
  });

  it('has no list diff where either image has no such list (no pip, no conda, not Debian)', () => {
    expect(diffPackages(null, [{ name: 'x', version: '1' }])).toBeNull();
    expect(diffPackages([], null)).toBeNull();
    expect(diffPackages([], [])).toEqual({ added: [], removed: [], changed: [] });
  });

  it('names the facts that differ and only those, and compares every list', () => {
    const a = { id: 1, name: 'env', tag: 'v1', contents: contents() };
    const b = {
      id: 2,
      name: 'env',
      tag: 'v2',
      contents: contents({
        python: '3.12.1',
        cuda: '12.4.1',
        pip: [
          { name: 'numpy', version: '2.0.1' },
          { name: 'requests', version: '2.31.0' },
        ],
        apt: [
          { name: 'bash', version: '5.2.15-2+b2' },
          { name: 'curl', version: '7.88.1-10' },
          { name: 'git', version: '1:2.39.2-1.1' },
        ],
      }),
    };
    const reply = compareImages(a, b);
    expect(reply.a).toEqual({ id: 1, name: 'env', tag: 'v1' });
    expect(reply.facts).toEqual([
      { what: 'python', a: '3.11.2', b: '3.12.1' },
      { what: 'cuda', a: null, b: '12.4.1' },
    ]);
    expect(reply.pip?.changed).toEqual([{ name: 'numpy', from: '1.26.4', to: '2.0.1' }]);
    expect(reply.apt?.added).toEqual([{ name: 'git', version: '1:2.39.2-1.1' }]);
    expect(reply.conda).toBeNull();
  });

  it('compares an image still saving (no contents) as having nothing', () => {
    const reply = compareImages(
      { id: 1, name: 'a', tag: 'latest', contents: null },
      { id: 2, name: 'b', tag: 'latest', contents: contents() },
    );
    expect(reply.pip).toBeNull();
    expect(reply.facts.map((f) => f.what)).toEqual(['os', 'python', 'base']);
  });
});
