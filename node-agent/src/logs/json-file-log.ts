// A container's json-file log read by the agent itself, from the files under its LogPath, instead
// of through Docker's API: Docker's follower skips a file when the log rotates twice while it still
// reads one, and the API costs a JSON decode in dockerd, a frame per message and a demux here.
//
// Rotation (moby's LogFile): under its write lock Docker closes `<path>`, renames `<path>.N-1` →
// `<path>.N` … `<path>` → `<path>.1` (the oldest is overwritten) and creates a new `<path>`; with
// one file it truncates `<path>` instead. A line never spans two files. So the reader, like
// `tail -F`, follows files by inode: it holds open every file from the one it reads to the newest
// (a file Docker deletes stays readable through the descriptor), reads a file to its end once a
// newer one exists, and then goes on with the next. A newer file is looked for on every read and
// on every change of the log's directory (inotify), also while the viewer is behind, so a file is
// missed only when Docker deleted it before the reader could open it (more than `max-file`
// rotations within one look), as with Docker's own reader.
//
// Lines are parsed at the Buffer level: `{"log":"…","stream":"stdout","time":"…"}` (moby's
// MarshalJSONBuf writes the keys in that order, `attrs` between stream and time) is framed by
// newlines and copied out without a per-line object; a line whose message holds escapes other
// than the final `\n`, or that does not have this shape, goes through JSON.parse.
import { closeSync, type FSWatcher, fstatSync, openSync, read, readSync, statSync, watch } from 'node:fs';
import path from 'node:path';
import type { ContainerDetails, OutputStream } from '../docker/container-client.js';
import { timestampNs } from '../docker/log-frames.js';
import type { LogOutput, LogStreamHandle } from './log-stream.js';

/** Bytes read from a file at a time (the buffer grows for a longer line). */
const READ_BYTES = 256 * 1024;
/** Output handed on at a time, at most (about; one line more). */
const OUTPUT_BYTES = 64 * 1024;
/**
 * A read that found less than this (the reader caught up with the writer) is followed by the next
 * one only after CATCH_UP_MS, and a change notice is acted on after CHANGE_DELAY_MS: what is
 * written meanwhile comes in one read (the gRPC batch waits ~15 ms anyway), not one per write.
 */
const SHORT_READ_BYTES = 64 * 1024;
const CATCH_UP_MS = 10;
const CHANGE_DELAY_MS = 5;
/** While nothing new comes: how often the files are looked at without a change notice, … */
const IDLE_POLL_MS = 1000;
/** … how often the container's state is asked (a follow ends when the container stopped), … */
const STATE_CHECK_MS = 2000;
/** … and how long after a stop the reader looks once more before it ends. */
const STOP_GRACE_MS = 100;
/** Without inotify (the watch failed): the poll interval. */
const FALLBACK_POLL_MS = 100;
/** Files held open beyond the ones Docker keeps, at most, while the viewer is behind. */
const EXTRA_HELD_FILES = 8;
const SNAPSHOT_ATTEMPTS = 50;

/** The container's json-file log, when the agent can read it itself. */
export interface JsonFileLog {
  path: string;
  /** `max-file`: `<path>` and `<path>.1` … `<path>.<maxFiles-1>`. */
  maxFiles: number;
}

/**
 * The json-file log of a container when the agent can read it: the json-file driver (Docker's
 * default) without compression of rotated files, and a LogPath this process can read (the agent
 * on the engine's host, with the right to read it). Undefined otherwise: the Docker API then.
 */
export function jsonFileLog(
  details: ContainerDetails,
  canRead: (file: string) => boolean,
): JsonFileLog | undefined {
  const log = details.log;
  if (log?.driver !== 'json-file' || !path.isAbsolute(log.path)) return undefined;
  if (log.options.compress === 'true') return undefined;
  const maxFiles = Number(log.options['max-file'] ?? 1);
  if (!Number.isInteger(maxFiles) || maxFiles < 1 || maxFiles > 1000) return undefined;
  if (!canRead(log.path)) return undefined;
  return { path: log.path, maxFiles };
}

export interface JsonFileLogOptions {
  follow: boolean;
  /** The last this many lines, or every line ('all'). */
  tail: number | 'all';
  /** Lines written before this time (nanoseconds since the epoch) are left out; 0n = none. */
  sinceNs: bigint;
  /** Each line starts with its RFC 3339 time (nanoseconds, fixed width) and a space. */
  timestamps: boolean;
  /** Whether the container may still write (a follow ends once it does not). */
  stillWriting: () => Promise<boolean>;
  /**
   * Files held open at most (default: Docker's `max-file` + EXTRA_HELD_FILES): a viewer further
   * behind loses the files Docker deletes, as with Docker's reader, instead of keeping deleted
   * files on disk without bound.
   */
  maxHeldFiles?: number;
}

interface HeldFile {
  fd: number;
  ino: number;
}

const statIno = (file: string): number | undefined => statSync(file, { throwIfNoEntry: false })?.ino;

/**
 * Opens the log's files that are newer than the file `afterIno` (all of them when it is undefined
 * or gone), oldest first. The names are looked at before and after the files are opened: a list
 * that changed in between (a rotation) is taken again, so the files are in Docker's order.
 */
export function openNewerFiles(log: JsonFileLog, afterIno: number | undefined): HeldFile[] {
  const names = [log.path];
  for (let k = 1; k < log.maxFiles; k += 1) names.unshift(`${log.path}.${k}`);
  for (let attempt = 0; attempt < SNAPSHOT_ATTEMPTS; attempt += 1) {
    const before = names.map(statIno);
    const at = afterIno === undefined ? -1 : before.indexOf(afterIno);
    const opened: HeldFile[] = [];
    let consistent = true;
    for (let i = at + 1; i < names.length && consistent; i += 1) {
      if (before[i] === undefined) continue;
      let fd: number;
      try {
        fd = openSync(names[i] as string, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        consistent = false; // renamed away meanwhile
        break;
      }
      const ino = fstatSync(fd).ino;
      opened.push({ fd, ino });
      consistent = ino === before[i];
    }
    if (consistent && names.every((name, i) => statIno(name) === before[i])) return opened;
    for (const file of opened) closeSync(file.fd);
  }
  throw new Error(`the log files of ${log.path} kept changing while they were opened`);
}

/** Docker's fixed-width timestamp (`…T10:00:00.120000000Z`) of a json-file `time` (trailing zeros trimmed). */
export function fixedTimestamp(time: string): string {
  if (time.endsWith('Z') && time.length >= 20) {
    const dot = time.indexOf('.', 19);
    if (dot < 0) return `${time.slice(0, -1)}.000000000Z`;
    const fraction = time.slice(dot + 1, -1);
    if (fraction.length <= 9) return `${time.slice(0, dot + 1)}${fraction.padEnd(9, '0')}Z`;
  }
  // An offset other than Z (Docker writes UTC): by way of the time in nanoseconds.
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([+-]\d{2}:\d{2})$/.exec(time);
  if (!m) return time;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return time;
  const iso = new Date(ms).toISOString(); // …T10:00:00.000Z
  return `${iso.slice(0, 19)}.${(m[2] ?? '').padEnd(9, '0')}Z`;
}

/** Nanoseconds of a json-file `time`, 0n when it is not one. */
function timeNsOf(time: string): bigint {
  if (time.endsWith('Z')) return timestampNs(time) ?? 0n;
  return timestampNs(fixedTimestamp(time)) ?? 0n;
}

const STREAM_KEY = Buffer.from('","stream":"');
const TIME_KEY = Buffer.from('"time":"');
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/**
 * Turns json-file lines into output: `parse(buffer, end)` handles the complete lines of
 * buffer[0, end) and returns how many bytes they took; the output goes to `emit` in runs of one
 * stream of up to ~OUTPUT_BYTES, in the order of the lines.
 */
export class JsonLineParser {
  private out: Buffer = Buffer.alloc(0);
  private outLength = 0;
  private runStart = 0;
  private runStream: OutputStream = 'stdout';

  constructor(
    private readonly options: { timestamps: boolean; sinceNs: bigint },
    private readonly emit: (output: LogOutput) => void,
  ) {}

  parse(buffer: Buffer, end: number): number {
    const view = end === buffer.length ? buffer : buffer.subarray(0, end);
    // The output of a line is never longer than the line (a timestamp of 31 bytes replaces
    // `","stream":"stdout","time":"…"}` of more), so one buffer of the input's size holds it all.
    this.out = Buffer.allocUnsafe(end);
    this.outLength = 0;
    this.runStart = 0;
    let start = 0;
    for (let nl = view.indexOf(NEWLINE, 0); nl >= 0; nl = view.indexOf(NEWLINE, start)) {
      if (nl > start) this.line(view, start, nl);
      start = nl + 1;
      if (this.outLength - this.runStart >= OUTPUT_BYTES) this.flushRun();
    }
    this.flushRun();
    this.out = Buffer.alloc(0);
    return start;
  }

  /** One line: view[start, end) without its newline. */
  private line(view: Buffer, start: number, end: number): void {
    const { timestamps, sinceNs } = this.options;
    let sep = -1;
    if (
      view[start] === 0x7b && // {"log":"
      view[start + 1] === 0x22 &&
      view[start + 2] === 0x6c &&
      view[start + 3] === 0x6f &&
      view[start + 4] === 0x67 &&
      view[start + 5] === 0x22 &&
      view[start + 6] === 0x3a &&
      view[start + 7] === 0x22 &&
      view[end - 1] === 0x7d // }
    ) {
      sep = view.indexOf(STREAM_KEY, start + 8);
      if (sep > end) sep = -1;
    }
    const messageStart = start + 8;
    const firstEscape = sep < 0 ? -1 : view.indexOf(BACKSLASH, messageStart);
    // The fast shape: the message has no escape, or only its final `\n`.
    const plain =
      sep >= 0 &&
      (firstEscape < 0 || firstEscape >= sep || (firstEscape === sep - 2 && view[sep - 1] === 0x6e));
    if (!plain) {
      this.slowLine(view.toString('utf8', start, end));
      return;
    }
    const stream: OutputStream = view[sep + 15] === 0x65 ? 'stderr' : 'stdout'; // std(e)rr / std(o)ut
    let time = '';
    if (timestamps || sinceNs > 0n) {
      const at = view.lastIndexOf(TIME_KEY, end);
      if (at > sep) time = view.toString('latin1', at + TIME_KEY.length, end - 2);
      if (sinceNs > 0n && time && timeNsOf(time) < sinceNs) return;
    }
    this.startLine(stream);
    if (timestamps && time) {
      this.outLength += this.out.write(`${fixedTimestamp(time)} `, this.outLength, 'latin1');
    }
    if (firstEscape === sep - 2) {
      this.outLength += view.copy(this.out, this.outLength, messageStart, sep - 2);
      this.out[this.outLength++] = NEWLINE;
    } else {
      this.outLength += view.copy(this.out, this.outLength, messageStart, sep);
    }
  }

  /** A line of another shape (escapes in the message): parsed as JSON. */
  private slowLine(text: string): void {
    let entry: { log?: unknown; stream?: unknown; time?: unknown };
    try {
      entry = JSON.parse(text) as typeof entry;
    } catch {
      return; // not a json-file line (a line cut off by a crash): Docker's reader skips it too
    }
    if (typeof entry !== 'object' || entry === null || typeof entry.log !== 'string') return;
    const time = typeof entry.time === 'string' ? entry.time : '';
    if (this.options.sinceNs > 0n && time && timeNsOf(time) < this.options.sinceNs) return;
    this.startLine(entry.stream === 'stderr' ? 'stderr' : 'stdout');
    if (this.options.timestamps && time) {
      this.outLength += this.out.write(`${fixedTimestamp(time)} `, this.outLength, 'latin1');
    }
    this.outLength += this.out.write(entry.log, this.outLength, 'utf8');
  }

  private startLine(stream: OutputStream): void {
    if (stream !== this.runStream) {
      this.flushRun();
      this.runStream = stream;
    }
  }

  private flushRun(): void {
    if (this.outLength > this.runStart) {
      this.emit({ stream: this.runStream, data: this.out.subarray(this.runStart, this.outLength) });
    }
    this.runStart = this.outLength;
  }
}

/** Where the last `tail` lines of the files begin: [index of the file, offset]; closes nothing. */
function tailStart(files: HeldFile[], tail: number): [number, number] {
  const block = Buffer.allocUnsafe(64 * 1024);
  let newlines = 0;
  for (let f = files.length - 1; f >= 0; f -= 1) {
    const { fd } = files[f] as HeldFile;
    let end = fstatSync(fd).size;
    while (end > 0) {
      const from = Math.max(0, end - block.length);
      const length = readFully(fd, block, end - from, from);
      for (let i = length - 1; i >= 0; i -= 1) {
        if (block[i] !== NEWLINE) continue;
        newlines += 1;
        // The (tail+1)-th newline from the end closes the line before the ones wanted.
        if (newlines === tail + 1) return [f, from + i + 1];
      }
      end = from;
    }
  }
  return [0, 0];
}

/** A synchronous read of one block, for the tail only (just written: the page cache holds it). */
function readFully(fd: number, buffer: Buffer, length: number, position: number): number {
  return readSync(fd, buffer, 0, length, position);
}

/**
 * Reads the log from the tail (or everything, or nothing but what comes) and, with `follow`,
 * what the container writes until it stopped. The handle's `pause` stops reading (the viewer is
 * behind) but not the look-out for newer files.
 */
export function openJsonFileLog(
  log: JsonFileLog,
  options: JsonFileLogOptions,
  onOutput: (output: LogOutput) => void,
): LogStreamHandle {
  const parser = new JsonLineParser({ timestamps: options.timestamps, sinceNs: options.sinceNs }, onOutput);
  let files = openNewerFiles(log, undefined);
  let offset = 0;
  if (options.tail !== 'all' && files.length > 0) {
    const [index, at] =
      options.tail <= 0
        ? [files.length - 1, completeLength(files.at(-1) as HeldFile)]
        : tailStart(files, options.tail);
    for (const file of files.slice(0, index)) closeSync(file.fd);
    files = files.slice(index);
    offset = at;
  }
  let buffer = Buffer.allocUnsafe(READ_BYTES);
  /** Bytes at the start of `buffer` (a line not complete yet) read from the file before `offset`. */
  let carried = 0;
  /** A look (newer files, then a read) scheduled soon. */
  let soon: NodeJS.Timeout | undefined;
  let reading = false;
  let again = false;
  let paused = false;
  let closed = false;
  let stopping = false;
  let lastStateCheck = 0;
  let checkingState = false;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let finish: (err?: unknown) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    finish = (err) => {
      if (closed) return; // settled already
      release();
      if (err) reject(err);
      else resolve();
    };
  });

  const release = () => {
    closed = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (soon) clearTimeout(soon);
    soon = undefined;
    watcher?.close();
    watcher = undefined;
    for (const file of files) closeSync(file.fd);
    files = [];
  };

  /** Opens the files Docker created since the newest one held (at most EXTRA_HELD_FILES beyond its own). */
  const holdNewer = () => {
    const newest = files.at(-1);
    if (newest && statIno(log.path) === newest.ino) return;
    if (files.length >= (options.maxHeldFiles ?? log.maxFiles + EXTRA_HELD_FILES)) return;
    const newer = openNewerFiles(log, newest?.ino);
    if (files.length === 0) offset = 0;
    files.push(...newer);
  };

  const pump = () => {
    if (closed || paused) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    again = false;
    step();
  };

  const step = () => {
    if (closed) return;
    if (paused) {
      reading = false;
      return;
    }
    const current = files[0];
    if (!current) {
      try {
        holdNewer();
      } catch (err) {
        return finish(err);
      }
      if (files.length > 0) return step();
      return idle();
    }
    if (carried === buffer.length) {
      // A line longer than the buffer: a bigger one.
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, carried);
      buffer = bigger;
    }
    read(current.fd, buffer, carried, buffer.length - carried, offset, (err, bytes) => {
      if (closed) return;
      if (err) return finish(err);
      if (bytes > 0) {
        offset += bytes;
        const end = carried + bytes;
        const used = parser.parse(buffer, end);
        carried = end - used;
        if (carried > 0) buffer.copy(buffer, 0, used, end);
        try {
          holdNewer(); // one stat while nothing rotated
        } catch (checkErr) {
          return finish(checkErr);
        }
        if (bytes >= SHORT_READ_BYTES || files.length > 1) return step();
        // Caught up with the writer: the next read a little later gets more at once.
        reading = false;
        again = false;
        return lookSoon(CATCH_UP_MS);
      }
      // The end of this file. Once a newer file exists this one is complete (Docker rotates after
      // a whole line, under its lock): go on with the next.
      try {
        if (files.length === 1) holdNewer();
      } catch (checkErr) {
        return finish(checkErr);
      }
      if (files.length > 1) {
        if (stillUnread(current, offset)) return step(); // written before the rotation
        carried = 0; // a cut-off last line (Docker's reader drops it too)
        closeSync(current.fd);
        files.shift();
        offset = 0;
        return step();
      }
      // One file: Docker truncates it to rotate (max-file 1).
      if (fstatSync(current.fd).size < offset) {
        offset = 0;
        carried = 0;
        return step();
      }
      idle();
    });
  };

  /** Newer files and what was written, after `ms` (one look for every notice in between). */
  const lookSoon = (ms: number) => {
    if (soon || closed) return;
    soon = setTimeout(() => {
      soon = undefined;
      try {
        holdNewer();
      } catch (err) {
        return finish(err);
      }
      pump();
    }, ms);
  };

  /** Nothing more to read now. */
  const idle = () => {
    reading = false;
    if (again) return pump();
    if (!options.follow || stopping) return finish();
    const now = Date.now();
    if (!checkingState && now - lastStateCheck >= (lastStateCheck === 0 ? 0 : STATE_CHECK_MS)) {
      lastStateCheck = now;
      checkingState = true;
      options.stillWriting().then(
        (writing) => {
          checkingState = false;
          if (closed || writing) return;
          // Stopped: what it wrote last may still be on its way to the file.
          setTimeout(() => {
            stopping = true;
            pump();
          }, STOP_GRACE_MS);
        },
        (err: unknown) => {
          checkingState = false;
          finish(err);
        },
      );
    }
    if (timer) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = undefined;
        pump();
      },
      watcher ? IDLE_POLL_MS : FALLBACK_POLL_MS,
    );
  };

  if (options.follow) {
    const base = path.basename(log.path);
    try {
      watcher = watch(path.dirname(log.path), { persistent: false }, (event, name) => {
        if (closed) return;
        if (name === null || String(name).startsWith(base)) {
          // A file created or renamed (a rotation): the files Docker created are opened at once,
          // also while behind (paused, or still reading an older file), so that none is deleted
          // unread. A write: read soon.
          if (event === 'rename') {
            try {
              holdNewer();
            } catch (err) {
              return finish(err);
            }
          }
          lookSoon(CHANGE_DELAY_MS);
        } else if (String(name).includes('config.v2.json')) {
          lastStateCheck = 0; // the container's state may have changed
          lookSoon(CHANGE_DELAY_MS);
        }
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined; // polled from now on
      });
    } catch {
      watcher = undefined; // no inotify here (or too many watches): polled
    }
  }
  pump();

  return {
    done,
    close: () => finish(),
    pause: () => {
      paused = true;
    },
    resume: () => {
      if (!paused) return;
      paused = false;
      pump();
    },
  };
}

/** The file's length up to its last newline (a line being written is not part of the tail). */
function completeLength(file: HeldFile): number {
  return tailStart([file], 0)[1];
}

/** Whether the file has grown past `offset` (bytes written after the last read). */
function stillUnread(file: HeldFile, offset: number): boolean {
  return fstatSync(file.fd).size > offset;
}
