import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutputStream } from '../src/docker/container-client.js';
import {
  fixedTimestamp,
  type JsonFileLog,
  JsonLineParser,
  openJsonFileLog,
} from '../src/logs/json-file-log.js';
import type { LogOutput } from '../src/logs/log-stream.js';

const T0 = Date.parse('2026-01-02T03:04:05Z');

/** A json-file line as moby's MarshalJSONBuf writes it (Go's RFC3339Nano: trailing zeros trimmed). */
function jsonLine(log: string, stream: OutputStream, ns: number, attrs?: Record<string, string>): string {
  const frac = String(ns % 1e9)
    .padStart(9, '0')
    .replace(/0+$/, '');
  const time = `${new Date(T0 + Math.floor(ns / 1e9) * 1000).toISOString().slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
  const attrPart = attrs ? `,"attrs":${JSON.stringify(attrs)}` : '';
  return `{"log":${JSON.stringify(log)},"stream":"${stream}"${attrPart},"time":"${time}"}\n`;
}

/** Writes json-file lines into `<dir>/c-json.log`, rotating like Docker's LogFile (rename chain). */
class FakeDockerLog {
  readonly path: string;
  private size = 0;
  rotations = 0;

  constructor(
    dir: string,
    private readonly maxSize: number,
    private readonly maxFiles: number,
  ) {
    this.path = path.join(dir, 'c-json.log');
    writeFileSync(this.path, '');
  }

  write(line: string): void {
    if (this.size + line.length >= this.maxSize && this.size > 0) this.rotate();
    appendFileSync(this.path, line);
    this.size += line.length;
  }

  private rotate(): void {
    this.rotations += 1;
    if (this.maxFiles < 2) {
      writeFileSync(this.path, '');
    } else {
      for (let i = this.maxFiles - 1; i > 1; i -= 1) {
        try {
          renameSync(`${this.path}.${i - 1}`, `${this.path}.${i}`);
        } catch {
          // not there yet
        }
      }
      renameSync(this.path, `${this.path}.1`);
      writeFileSync(this.path, '');
    }
    this.size = 0;
  }
}

function collect() {
  const outputs: LogOutput[] = [];
  return {
    outputs,
    onOutput: (o: LogOutput) => outputs.push({ stream: o.stream, data: Buffer.from(o.data) }),
    text: (stream?: OutputStream) =>
      outputs
        .filter((o) => !stream || o.stream === stream)
        .map((o) => o.data.toString())
        .join(''),
  };
}

describe('JsonLineParser', () => {
  it('copies messages out, keeps runs of one stream together and in order', () => {
    const { outputs, onOutput, text } = collect();
    const parser = new JsonLineParser({ timestamps: false, sinceNs: 0n }, onOutput);
    const input = Buffer.from(
      jsonLine('one\n', 'stdout', 1) +
        jsonLine('two\n', 'stdout', 2) +
        jsonLine('oops\n', 'stderr', 3) +
        jsonLine('three\n', 'stdout', 4) +
        jsonLine('partial, no newline', 'stdout', 5) +
        jsonLine('tab\tquote" lt< ünï €\n', 'stdout', 6) +
        jsonLine('with attrs\n', 'stderr', 7, { tag: 'x' }) +
        '{"log":"cut off',
    );
    const used = parser.parse(input, input.length);
    expect(used).toBe(input.lastIndexOf('\n') + 1);
    expect(outputs.map((o) => o.stream)).toEqual(['stdout', 'stderr', 'stdout', 'stderr']);
    expect(text()).toBe('one\ntwo\noops\nthree\npartial, no newlinetab\tquote" lt< ünï €\nwith attrs\n');
  });

  it('reads escapes Docker writes (\\u003c, \\ufffd, control characters) like JSON does', () => {
    const { onOutput, text } = collect();
    const parser = new JsonLineParser({ timestamps: false, sinceNs: 0n }, onOutput);
    const line = Buffer.from(
      '{"log":"\\u003cb\\u003e \\ufffd \\u0001 \\\\n back\\\\slash\\r\\n","stream":"stdout","time":"2026-01-02T03:04:05.5Z"}\n',
    );
    parser.parse(line, line.length);
    expect(text()).toBe('<b> \ufffd \u0001 \\n back\\slash\r\n');
  });

  it('prefixes Docker’s fixed-width timestamps and leaves out lines before `since`', () => {
    const { onOutput, text } = collect();
    const parser = new JsonLineParser({ timestamps: true, sinceNs: BigInt(T0) * 1_000_000n + 2n }, onOutput);
    const input = Buffer.from(
      jsonLine('old\n', 'stdout', 1) +
        jsonLine('new\n', 'stdout', 120_000_000) +
        jsonLine('err\\x\n', 'stderr', 3e9),
    );
    parser.parse(input, input.length);
    expect(text()).toBe('2026-01-02T03:04:05.120000000Z new\n2026-01-02T03:04:08.000000000Z err\\x\n');
  });

  it('skips a line that is not JSON and goes on', () => {
    const { onOutput, text } = collect();
    const parser = new JsonLineParser({ timestamps: false, sinceNs: 0n }, onOutput);
    const input = Buffer.from(`garbage\n${jsonLine('ok\n', 'stdout', 1)}`);
    parser.parse(input, input.length);
    expect(text()).toBe('ok\n');
  });
});

describe('fixedTimestamp', () => {
  it.each([
    ['2026-01-02T03:04:05.5Z', '2026-01-02T03:04:05.500000000Z'],
    ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.000000000Z'],
    ['2026-01-02T03:04:05.123456789Z', '2026-01-02T03:04:05.123456789Z'],
    ['2026-01-02T05:04:05.25+02:00', '2026-01-02T03:04:05.250000000Z'],
  ])('%s → %s', (time, fixed) => {
    expect(fixedTimestamp(time)).toBe(fixed);
  });
});

describe('openJsonFileLog', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'json-file-log-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const lineOf = (i: number) => jsonLine(`${i}\n`, i % 7 === 0 ? 'stderr' : 'stdout', i * 1000);
  const numbers = (text: string) => text.split('\n').filter(Boolean).map(Number);

  it('reads the last lines across rotated files, everything, or nothing, and ends without follow', async () => {
    const writer = new FakeDockerLog(dir, 2000, 4);
    for (let i = 1; i <= 200; i += 1) writer.write(lineOf(i));
    expect(writer.rotations).toBeGreaterThan(3);
    const log: JsonFileLog = { path: writer.path, maxFiles: 4 };
    const read = async (tail: number | 'all') => {
      const { onOutput, text } = collect();
      const handle = openJsonFileLog(
        log,
        { follow: false, tail, sinceNs: 0n, timestamps: false, stillWriting: async () => true },
        onOutput,
      );
      await handle.done;
      return numbers(text());
    };
    const all = await read('all');
    const first = all[0] as number;
    expect(all).toEqual(Array.from({ length: 201 - first }, (_, i) => first + i));
    expect(first).toBeGreaterThan(1); // the oldest files were deleted
    expect(await read(50)).toEqual(Array.from({ length: 50 }, (_, i) => 151 + i));
    expect(await read(all.length + 10)).toEqual(all);
    expect(await read(0)).toEqual([]);
  });

  it('follows a fast writer across many rotations, also while paused: every line once, in order', async () => {
    const maxFiles = 3;
    const writer = new FakeDockerLog(dir, 4096, maxFiles);
    const log: JsonFileLog = { path: writer.path, maxFiles };
    let writing = true;
    const { onOutput, text } = collect();
    const handle = openJsonFileLog(
      log,
      {
        follow: true,
        tail: 'all',
        sinceNs: 0n,
        timestamps: false,
        stillWriting: async () => writing,
        // The writer shares this process: on a loaded machine the reader may fall far behind.
        maxHeldFiles: 1000,
      },
      onOutput,
    );
    const total = 6000;
    let rotationsWhilePaused = 0;
    for (let i = 1; i <= total; i += 1) {
      writer.write(lineOf(i));
      // A file (~4 KB) every ~70 lines: the reader gets a turn a few times per file.
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      if (i === 2000) handle.pause();
      if (i === 2000) rotationsWhilePaused = writer.rotations;
      if (i === 2400) {
        // Docker rotated more often than it keeps files while the reader stood still.
        rotationsWhilePaused = writer.rotations - rotationsWhilePaused;
        await new Promise((resolve) => setTimeout(resolve, 50));
        handle.resume();
      }
    }
    writing = false;
    await handle.done;
    expect(rotationsWhilePaused).toBeGreaterThan(maxFiles);
    expect(numbers(text())).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(numbers(text('stderr')).every((n) => n % 7 === 0)).toBe(true);
  });

  it('follows a log that Docker truncates to rotate (max-file 1) and one that appears later', async () => {
    const file = path.join(dir, 'c-json.log');
    const log: JsonFileLog = { path: file, maxFiles: 1 };
    let writing = true;
    const { onOutput, text } = collect();
    const handle = openJsonFileLog(
      log,
      { follow: true, tail: 200, sinceNs: 0n, timestamps: false, stillWriting: async () => writing },
      onOutput,
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const writer = new FakeDockerLog(dir, 1_000_000, 1);
    for (let i = 1; i <= 100; i += 1) writer.write(lineOf(i));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(numbers(text())).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    writeFileSync(file, ''); // the truncation of a rotation
    appendFileSync(file, lineOf(101));
    await new Promise((resolve) => setTimeout(resolve, 200));
    writing = false;
    await handle.done;
    expect(numbers(text()).at(-1)).toBe(101);
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('leaves no file or watch open after 200 followers came and went', async () => {
    const writer = new FakeDockerLog(dir, 2000, 3);
    for (let i = 1; i <= 100; i += 1) writer.write(lineOf(i));
    const openFds = () => readdirSync('/proc/self/fd').length;
    const before = openFds();
    const handles = Array.from({ length: 200 }, () =>
      openJsonFileLog(
        { path: writer.path, maxFiles: 3 },
        { follow: true, tail: 5, sinceNs: 0n, timestamps: false, stillWriting: async () => true },
        () => {},
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openFds()).toBeGreaterThanOrEqual(before + 200); // each holds its files open
    for (const handle of handles) handle.close();
    await Promise.all(handles.map((h) => h.done));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openFds()).toBeLessThanOrEqual(before + 2);
  });

  it('stops reading on close', async () => {
    const writer = new FakeDockerLog(dir, 1_000_000, 2);
    for (let i = 1; i <= 10; i += 1) writer.write(lineOf(i));
    const { onOutput, text } = collect();
    const handle = openJsonFileLog(
      { path: writer.path, maxFiles: 2 },
      { follow: true, tail: 'all', sinceNs: 0n, timestamps: false, stillWriting: async () => true },
      onOutput,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    handle.close();
    await handle.done;
    writer.write(lineOf(11));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(numbers(text())).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });
});
