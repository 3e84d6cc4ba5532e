/** Custom-port rules of the purchase dialog (spec §5 "Custom ports at purchase"). */
export const PURCHASE_PORT_MIN = 10000;
export const PURCHASE_PORT_MAX = 65535;
export const MAX_CUSTOM_PORTS = 5;

export const MSG_PORT_EMPTY = '请输入端口号';
export const MSG_NO_SERVER = '请先选择服务器';
export const MSG_PORT_RANGE = '端口号必须在10000-65535之间';
export const MSG_PORT_FRAMEWORK = '该端口与框架默认端口重复';
export const MSG_PORT_ADDED = '该端口已添加';
export const MSG_PORTS_MAX = '最多只能添加5个自定义端口';
export const MSG_RANGE_FORMAT = '端口范围格式不正确，请输入10000-65535之间的端口';
export const MSG_RANGE_ALL_SKIPPED = '所有端口都已被占用或重复';

export function occupiedMessage(port: number): string {
  return `${port}端口已被占用`;
}

export interface PortContext {
  serverSelected: boolean;
  added: readonly number[];
  frameworkPorts: readonly number[];
  occupied: readonly number[];
}

export type PortAddResult =
  | { ok: true; ports: number[]; skippedOccupied: number; skippedDuplicate: number }
  | { ok: false; error: string };

function inRange(port: number): boolean {
  return Number.isInteger(port) && port >= PURCHASE_PORT_MIN && port <= PURCHASE_PORT_MAX;
}

function fail(error: string): PortAddResult {
  return { ok: false, error };
}

/** Checks what the user typed ("12000" or "12000-12003") and returns the ports to add. */
export function addCustomPorts(input: string, ctx: PortContext): PortAddResult {
  const text = input.trim();
  if (!text) return fail(MSG_PORT_EMPTY);
  if (!ctx.serverSelected) return fail(MSG_NO_SERVER);

  const range = /^(\d+)\s*-\s*(\d+)$/.exec(text);
  if (range) return addRange(Number(range[1]), Number(range[2]), ctx);

  if (!/^\d+$/.test(text)) return fail(MSG_PORT_RANGE);
  const port = Number(text);
  if (!inRange(port)) return fail(MSG_PORT_RANGE);
  if (ctx.frameworkPorts.includes(port)) return fail(MSG_PORT_FRAMEWORK);
  if (ctx.added.includes(port)) return fail(MSG_PORT_ADDED);
  if (ctx.added.length >= MAX_CUSTOM_PORTS) return fail(MSG_PORTS_MAX);
  if (ctx.occupied.includes(port)) return fail(occupiedMessage(port));
  return { ok: true, ports: [port], skippedOccupied: 0, skippedDuplicate: 0 };
}

function addRange(start: number, end: number, ctx: PortContext): PortAddResult {
  if (!inRange(start) || !inRange(end) || start >= end) return fail(MSG_RANGE_FORMAT);
  const occupied = new Set(ctx.occupied);
  const taken = new Set([...ctx.added, ...ctx.frameworkPorts]);
  const ports: number[] = [];
  let skippedOccupied = 0;
  let skippedDuplicate = 0;
  for (let port = start; port <= end; port += 1) {
    if (taken.has(port)) skippedDuplicate += 1;
    else if (occupied.has(port)) skippedOccupied += 1;
    else ports.push(port);
    // Stop counting once the result is certainly too long; a range of 50 000 ports must not hang the page.
    if (ctx.added.length + ports.length > MAX_CUSTOM_PORTS) return fail(MSG_PORTS_MAX);
  }
  if (ports.length === 0) return fail(MSG_RANGE_ALL_SKIPPED);
  return { ok: true, ports, skippedOccupied, skippedDuplicate };
}

/** A short report for a range where ports were skipped, or null when nothing was skipped. */
export function skippedReport(result: {
  ports: number[];
  skippedOccupied: number;
  skippedDuplicate: number;
}) {
  if (result.skippedOccupied === 0 && result.skippedDuplicate === 0) return null;
  return `已添加${result.ports.length}个端口，跳过${result.skippedOccupied}个已占用端口、${result.skippedDuplicate}个重复端口`;
}
