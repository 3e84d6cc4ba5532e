import { describe, expect, it } from 'vitest';
import { displayWidth, formatBytes, formatYuan, renderJson, renderTable } from './output.js';
import { progressOn } from './progress.js';
import { Capture } from './test-support.js';

describe('output for people and scripts', () => {
  it('counts Chinese characters as two columns', () => {
    expect(displayWidth('running')).toBe(7);
    expect(displayWidth('运行中')).toBe(6);
    expect(displayWidth('拉取镜像中 40%')).toBe(14);
    expect(displayWidth('ＲＴＸ')).toBe(6);
  });

  it('aligns table columns by display width, the last column unpadded', () => {
    const table = renderTable(
      ['编号', '名称', '状态'],
      [
        ['c-abc123', 'box', '运行中'],
        ['c-def456', '训练机', '已停止'],
      ],
    );
    expect(table).toBe(
      ['编号      名称    状态', 'c-abc123  box     运行中', 'c-def456  训练机  已停止', ''].join('\n'),
    );
    const lines = table.trimEnd().split('\n');
    const statusColumn = lines.map((l) => displayWidth(l.slice(0, l.lastIndexOf(' ') + 1)));
    expect(new Set(statusColumn).size).toBe(1);
  });

  it('prints JSON that parses back to the same value; money and sizes for people', () => {
    const value = [{ container_id: 'c-abc123', name: '训练机', price: 1.5, ports: [] }];
    expect(JSON.parse(renderJson(value))).toEqual(value);
    expect(renderJson(value).endsWith('\n')).toBe(true);
    expect(formatYuan(3)).toBe('¥3.00');
    expect(formatYuan(12.345)).toBe('¥12.35');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536 * 1024 * 1024)).toBe('1.5 GB');
  });

  it('draws a bar in place on a terminal, one plain line per change elsewhere', () => {
    const tty = new Capture(true);
    const bar = progressOn(tty);
    bar.update('pulling image', 0);
    bar.update('pulling image', 50);
    bar.update('pulling image', 50);
    bar.done();
    expect(tty.text).toContain(`\r\x1b[2Kpulling image [${'#'.repeat(15)}${'-'.repeat(15)}] 50%`);
    expect(tty.text.endsWith('\n')).toBe(true);

    const log = new Capture(false);
    const plain = progressOn(log);
    plain.update('pulling image', 10);
    plain.update('pulling image', 10);
    plain.update('pulling image', 100);
    plain.update('starting', null);
    plain.done();
    expect(log.text).toBe('pulling image 10%\npulling image 100%\nstarting\n');
  });
});
