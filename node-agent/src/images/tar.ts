// The few tar operations a save needs (ustar, as Docker's archive and load endpoints speak it):
// read the entries of a small archive, write one. Only regular files, folders and links; a PAX
// header's path replaces the next entry's name.

export interface TarEntry {
  name: string;
  /** '0' file, '5' folder, '2' symlink, ... */
  type: string;
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
  linkname: string;
  data: Buffer;
}

const BLOCK = 512;

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function octal(header: Buffer, offset: number, length: number): number {
  const text = field(header, offset, length).trim();
  return text ? Number.parseInt(text, 8) : 0;
}

function paxPath(data: Buffer): string | undefined {
  // Records: "<len> key=value\n"
  let rest = data.toString('utf8');
  while (rest.length > 0) {
    const space = rest.indexOf(' ');
    const length = Number(rest.slice(0, space));
    if (!Number.isFinite(length) || length <= 0) return undefined;
    const record = rest.slice(space + 1, length - 1);
    if (record.startsWith('path=')) return record.slice('path='.length);
    rest = rest.slice(length);
  }
  return undefined;
}

export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let nextName: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = field(header, 156, 1) || '0';
    const data = Buffer.from(archive.subarray(offset + BLOCK, offset + BLOCK + size));
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      nextName = paxPath(data);
      continue;
    }
    if (type === 'g') continue;
    const prefix = field(header, 345, 155);
    const base = field(header, 0, 100);
    entries.push({
      name: nextName ?? (prefix ? `${prefix}/${base}` : base),
      type,
      mode: octal(header, 100, 8),
      uid: octal(header, 108, 8),
      gid: octal(header, 116, 8),
      mtime: octal(header, 136, 12),
      linkname: field(header, 157, 100),
      data,
    });
    nextName = undefined;
  }
  return entries;
}

function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK);
  const name = Buffer.from(entry.name, 'utf8');
  if (name.length > 100) throw new Error(`tar entry name too long: ${entry.name}`);
  name.copy(block, 0);
  const put = (value: number, offset: number, length: number) =>
    block.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
  put(entry.mode & 0o7777, 100, 8);
  put(entry.uid, 108, 8);
  put(entry.gid, 116, 8);
  put(entry.type === '0' ? entry.data.length : 0, 124, 12);
  put(entry.mtime, 136, 12);
  block.write('        ', 148, 8, 'ascii');
  block.write(entry.type, 156, 1, 'ascii');
  block.write(entry.linkname, 157, 100, 'utf8');
  block.write('ustar\0', 257, 6, 'ascii');
  block.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return block;
}

export function writeTar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry));
    if (entry.type === '0' && entry.data.length > 0) {
      parts.push(entry.data, Buffer.alloc((BLOCK - (entry.data.length % BLOCK)) % BLOCK));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/** A regular file entry. */
export function fileEntry(name: string, data: Buffer | string, mode = 0o644): TarEntry {
  return {
    name,
    type: '0',
    mode,
    uid: 0,
    gid: 0,
    mtime: Math.floor(Date.now() / 1000),
    linkname: '',
    data: Buffer.isBuffer(data) ? data : Buffer.from(data),
  };
}
