import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type CommandRunner,
  DEFAULT_MIN_TOOLKIT_VERSION,
  parsePartVersion,
  parseToolkitMode,
  ToolkitProbe,
  toolkitPartsUnsafeReason,
} from './toolkit.js';

const fixture = (dir: string, name: string) =>
  readFileSync(new URL(`../../test/fixtures/${dir}/${name}`, import.meta.url), 'utf8');
const defaultConfig = fixture('nvidia-container-toolkit', 'config.toml__v1.20.0-default.toml');

/** A host whose toolkit programs print `outputs[program]`; a program without one is not installed. */
function host(outputs: Record<string, string>): { run: CommandRunner; calls: string[] } {
  const calls: string[] = [];
  const run: CommandRunner = async (file) => {
    calls.push(file);
    const out = outputs[file];
    if (out === undefined) throw Object.assign(new Error(`spawn ${file} ENOENT`), { code: 'ENOENT' });
    return { stdout: out, stderr: '' };
  };
  return { run, calls };
}

const allAt = (v: string) => ({
  'nvidia-ctk': `NVIDIA Container Toolkit CLI version ${v}\ncommit: abc\n`,
  'nvidia-container-cli': `cli-version: ${v}\nlib-version: ${v}\n`,
  'nvidia-container-runtime-hook': `NVIDIA Container Runtime Hook version ${v}\ncommit: abc\n`,
  'nvidia-cdi-hook': `NVIDIA CDI Hook version ${v}\ncommit: abc\n`,
});

describe('the toolkit parts and mode', () => {
  it('reads each part version from what the real programs print', () => {
    expect(parsePartVersion(fixture('nvidia-smi', 'nvidia-ctk__1.17.8__version.txt'))).toBe('1.17.8');
    expect(parsePartVersion(fixture('nvidia-smi', 'nvidia-ctk__1.16.1__version.txt'))).toBe('1.16.1');
    expect(
      parsePartVersion(fixture('nvidia-container-toolkit', 'nvidia-container-cli__1.17.5__version.txt')),
    ).toBe('1.17.5');
    expect(
      parsePartVersion(fixture('nvidia-container-toolkit', 'nvidia-container-cli__1.16.1__version.txt')),
    ).toBe('1.16.1');
    // The hook's own format (cmd/nvidia-container-runtime-hook/main.go: "%v version %v").
    expect(parsePartVersion('NVIDIA Container Runtime Hook version 1.20.0\ncommit: d34b3046\n')).toBe(
      '1.20.0',
    );
    expect(parsePartVersion('garbage')).toBe('');
  });

  it('reads the runtime mode from config.toml, auto when unset or commented out', () => {
    expect(parseToolkitMode(defaultConfig)).toBe('auto');
    // What `nvidia-ctk config --in-place --set nvidia-container-runtime.mode=cdi` leaves.
    expect(parseToolkitMode(defaultConfig.replace('mode = "auto"', 'mode = "cdi"'))).toBe('cdi');
    expect(parseToolkitMode(defaultConfig.replace('mode = "auto"', '#mode = "cdi"'))).toBe('auto');
    // Only the [nvidia-container-runtime] table's mode counts.
    expect(parseToolkitMode('[other]\nmode = "cdi"\n[nvidia-container-runtime]\nlog-level = "info"\n')).toBe(
      'auto',
    );
  });
});

describe('the toolkit floor', () => {
  it('defaults to 1.19.1, the first release with the hardened hooks', () => {
    expect(DEFAULT_MIN_TOOLKIT_VERSION).toBe('1.19.1');
    const parts = {
      ctkVersion: '1.20.0',
      cliVersion: '1.20.0',
      runtimeHookVersion: '1.20.0',
      cdiHookVersion: '1.20.0',
    };
    expect(toolkitPartsUnsafeReason(parts, '1.19.1')).toBe('');
    expect(
      toolkitPartsUnsafeReason(
        {
          ...parts,
          ctkVersion: '1.19.1',
          cliVersion: '1.19.1',
          runtimeHookVersion: '1.19.1',
          cdiHookVersion: '1.19.1',
        },
        '1.19.1',
      ),
    ).toBe('');
  });

  it('names every part below the floor, in Chinese with the detail', () => {
    const reason = toolkitPartsUnsafeReason(
      { ctkVersion: '1.17.8', cliVersion: '1.17.8', runtimeHookVersion: '1.17.8', cdiHookVersion: '' },
      '1.19.1',
    );
    expect(reason).toMatch(/^NVIDIA Container Toolkit 1\.17\.8 存在容器逃逸漏洞 \(/);
    expect(reason).toContain('nvidia-container-cli 1.17.8');
    expect(reason).toContain('nvidia-container-runtime-hook 1.17.8');
    expect(reason).toMatch(/需升级到 1\.19\.1 或更高$/);
  });

  it('refuses parts that disagree (an upgrade half done), and a host without the toolkit', () => {
    const reason = toolkitPartsUnsafeReason(
      { ctkVersion: '1.20.0', cliVersion: '1.19.1', runtimeHookVersion: '1.20.0', cdiHookVersion: '1.20.0' },
      '1.19.1',
    );
    expect(reason).toMatch(/各组件版本不一致/);
    expect(reason).toContain('nvidia-container-cli 1.19.1');
    expect(
      toolkitPartsUnsafeReason(
        { ctkVersion: '', cliVersion: '', runtimeHookVersion: '', cdiHookVersion: '' },
        '1.19.1',
      ),
    ).toMatch(/未检测到 NVIDIA Container Toolkit/);
  });
});

describe('ToolkitProbe', () => {
  it('reads the four parts and the mode, and applies the configured floor', async () => {
    const { run } = host(allAt('1.17.8'));
    const probe = new ToolkitProbe({ run, readFile: async () => defaultConfig });
    const info = await probe.info();
    expect(info).toMatchObject({
      ctkVersion: '1.17.8',
      cliVersion: '1.17.8',
      runtimeHookVersion: '1.17.8',
      cdiHookVersion: '1.17.8',
      mode: 'auto',
    });
    expect(info.unsafeReason).toMatch(/1\.17\.8 存在容器逃逸漏洞/);
    const lowered = new ToolkitProbe({ run, readFile: async () => defaultConfig, minVersion: '1.17.8' });
    expect((await lowered.info()).unsafeReason).toBe('');
  });

  it('reports a missing config file as no mode, and a missing part as empty', async () => {
    const { 'nvidia-cdi-hook': _, ...rest } = allAt('1.20.0');
    const probe = new ToolkitProbe({
      run: host(rest).run,
      readFile: async () => {
        throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      },
    });
    const info = await probe.info();
    expect(info.mode).toBe('');
    expect(info.cdiHookVersion).toBe('');
    expect(info.unsafeReason).toBe('');
  });

  it('keeps what it read for 5 minutes', async () => {
    let now = 0;
    const { run, calls } = host(allAt('1.20.0'));
    const probe = new ToolkitProbe({ run, readFile: async () => defaultConfig, now: () => now });
    await probe.info();
    now += 4 * 60_000;
    await probe.info();
    expect(calls).toHaveLength(4);
    now += 2 * 60_000;
    await probe.info();
    expect(calls).toHaveLength(8);
  });
});
