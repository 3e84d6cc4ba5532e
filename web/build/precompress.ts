import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and fonts in the build are compressed already. */
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|xml|map|webmanifest|wasm)$/i;
/** Below this a compressed copy saves less than one packet's worth of bytes. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

export interface PrecompressedFile {
  file: string;
  raw: number;
  br: number | null;
  gz: number | null;
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside every compressible
 * file of at least 1 KB under `dir`, each only when it is smaller than the file itself. The
 * control plane's static handler sends them to browsers that accept the encoding, so nothing is
 * compressed per request.
 */
export async function precompressDir(dir: string): Promise<PrecompressedFile[]> {
  const files = (await filesUnder(dir)).filter(
    (file) => COMPRESSIBLE.test(file) && !file.includes(`${path.sep}.vite${path.sep}`),
  );
  return Promise.all(
    files.map(async (file): Promise<PrecompressedFile> => {
      const size = (await stat(file)).size;
      if (size < MIN_BYTES) return { file, raw: size, br: null, gz: null };
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: 9 }),
      ]);
      const keep = async (copy: Buffer, suffix: string) => {
        if (copy.length >= content.length) return null;
        await writeFile(`${file}${suffix}`, copy);
        return copy.length;
      };
      return { file, raw: content.length, br: await keep(br, '.br'), gz: await keep(gz, '.gz') };
    }),
  );
}

/** Vite plugin: precompresses the build output once it is written (`vite build` only). */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'gpucloud:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const done = await precompressDir(outDir);
      const written = done.filter((file) => file.br !== null || file.gz !== null);
      config.logger.info(`precompressed ${written.length} of ${done.length} text files (.br, .gz)`);
    },
  };
}
