// The agent bundle (issue 19): everything a GPU host needs to run the node agent, in one
// archive, so a host joins without a checkout, a registry or a Node.js install:
//
//   gpucloud-agent/bin/node            the Node.js runtime (this control plane's own process.execPath:
//                                      every deployment we make runs the control plane on the same
//                                      platform and architecture as its GPU hosts, linux-x64 or -arm64)
//   gpucloud-agent/bin/gpucloud-agent  sh: exec the bundled node on lib/agent.mjs
//   gpucloud-agent/lib/agent.mjs       node-agent/src/main.ts and its dependencies, bundled by esbuild
//   gpucloud-agent/agent/v1/agent.proto  the contract, where @gpucloud/proto looks for it (../agent/v1
//                                      from lib/)
//   gpucloud-agent/toolbox/            the container toolbox (when this control plane has one built;
//                                      else the install script builds it on the host)
//   gpucloud-agent/toolbox-build/      its recipe (node-agent/toolbox: build.mjs and the scripts)
//   gpucloud-agent/VERSION             {"version","build","protocol"}
//
// build = the first 12 hex digits of the SHA-256 over the bundle's contents (names, kinds,
// executable bits, bytes; VERSION left out), so the same sources give the same build. The
// archive itself is written deterministically too (sorted names, mtime 0, owner root, gzip
// without a name or time). Built lazily, once per control-plane process, under
// <data dir>/agent-bundle/ (GPUCLOUD_DATA_DIR, else .data at the repository root; AGENT_BUNDLE_DIR
// overrides the folder).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { AGENT_PROTOCOL_VERSION, protoPath } from '@gpucloud/proto';
import { platformDataDir } from '../../data-dir.js';

export interface AgentBundle {
  /** Absolute path of the .tar.gz. */
  path: string;
  /** `gpucloud-agent-<version>-<build>-linux-<arch>.tar.gz` */
  fileName: string;
  version: string;
  build: string;
  /** Hex SHA-256 of the .tar.gz. */
  sha256: string;
  size: number;
}

export interface BuildOptions {
  /** Where the archive (and its .sha256) is written. */
  outDir: string;
  /** The container toolbox to ship (a build.mjs folder with `current`, or a toolbox itself); none = left out. */
  toolboxDir?: string | undefined;
  /** The Node.js binary to ship (default process.execPath). */
  nodeBinary?: string;
  log?: (line: string) => void;
}

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const AGENT_ENTRY = path.join(REPO_ROOT, 'node-agent/src/main.ts');
const TOOLBOX_RECIPE = path.join(REPO_ROOT, 'node-agent/toolbox');
const TOP = 'gpucloud-agent';

const LAUNCHER = `#!/bin/sh
# gpucloud node agent (bundle): the bundled Node.js runs the bundled agent.
here="$(dirname "$(readlink -f "$0")")"
exec "$here/node" "$here/../lib/agent.mjs" "$@"
`;

// The bundle is ESM; its CommonJS dependencies (grpc-js, dockerode, …) call require() and read
// __dirname, which an ES module does not have: they get Node's own.
const ESM_BANNER = [
  "import { createRequire as __gpucloudCreateRequire } from 'node:module';",
  "import { fileURLToPath as __gpucloudFileURLToPath } from 'node:url';",
  "import { dirname as __gpucloudDirname } from 'node:path';",
  'const require = __gpucloudCreateRequire(import.meta.url);',
  'const __filename = __gpucloudFileURLToPath(import.meta.url);',
  'const __dirname = __gpucloudDirname(__filename);',
].join('\n');

function agentSourceVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node-agent/package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

/** The toolbox folder to ship: `<dir>/current` resolved, or `dir` when it holds a toolbox. */
function toolboxSource(dir: string | undefined): string | undefined {
  if (!dir) return undefined;
  for (const candidate of [path.join(dir, 'current'), dir]) {
    if (existsSync(path.join(candidate, 'init')) && existsSync(path.join(candidate, 'bin/dropbear'))) {
      return realpathSync(candidate);
    }
  }
  return undefined;
}

/** Every entry under `root`, sorted by path: what the build id is computed over. */
async function walk(root: string, rel = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    out.push(child);
    if (entry.isDirectory()) out.push(...(await walk(root, child)));
  }
  return out;
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** SHA-256 over names, kinds, executable bits and contents of `root` (VERSION left out). */
export async function contentHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  for (const rel of await walk(root)) {
    if (rel === `${TOP}/VERSION`) continue;
    const full = path.join(root, rel);
    const st = await fs.lstat(full);
    if (st.isSymbolicLink()) {
      hash.update(`l ${rel} ${await fs.readlink(full)}\n`);
    } else if (st.isDirectory()) {
      hash.update(`d ${rel}\n`);
    } else if (st.isFile()) {
      hash.update(`f ${rel} ${st.mode & 0o111 ? 'x' : '-'} ${await sha256File(full)}\n`);
    } else {
      throw new Error(`the agent bundle holds ${rel}, which is neither a file, a folder nor a link`);
    }
  }
  return hash.digest('hex');
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

/** Deterministic tar.gz of `root/<top>`: sorted names, mtime 0, owner root, no gzip name/time. */
async function writeArchive(root: string, file: string): Promise<void> {
  const tarFile = `${file}.tar`;
  await run('tar', [
    '--sort=name',
    '--mtime=@0',
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '--mode=u+rwX,go+rX,go-w',
    '--format=gnu',
    '-C',
    root,
    '-cf',
    tarFile,
    TOP,
  ]);
  // Node's gzip header carries no file name and mtime 0: the same tar gives the same bytes.
  await pipeline(
    createReadStream(tarFile),
    createGzip({ level: 6 }),
    createWriteStream(file, { mode: 0o644 }),
  );
  await fs.rm(tarFile, { force: true });
}

/** Builds the bundle into `options.outDir` (or reuses the archive of the same build there). */
export async function buildAgentBundle(options: BuildOptions): Promise<AgentBundle> {
  const log = options.log ?? (() => undefined);
  await fs.mkdir(options.outDir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(options.outDir, '.staging-'));
  try {
    const top = path.join(staging, TOP);
    await fs.mkdir(path.join(top, 'bin'), { recursive: true });
    await fs.mkdir(path.join(top, 'lib'));
    await fs.mkdir(path.join(top, 'agent/v1'), { recursive: true });
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [AGENT_ENTRY],
      outfile: path.join(top, 'lib/agent.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      banner: { js: ESM_BANNER },
      legalComments: 'none',
      logLevel: 'silent',
      // Optional native add-ons of ssh2 (dockerode's ssh transport), built nowhere here: their
      // require() is in a try block and falls back to JavaScript.
      external: ['cpu-features', '*.node'],
    });
    await fs.copyFile(protoPath, path.join(top, 'agent/v1/agent.proto'));
    await fs.copyFile(options.nodeBinary ?? process.execPath, path.join(top, 'bin/node'));
    await fs.chmod(path.join(top, 'bin/node'), 0o755);
    await fs.writeFile(path.join(top, 'bin/gpucloud-agent'), LAUNCHER, { mode: 0o755 });
    await fs.mkdir(path.join(top, 'toolbox-build'));
    for (const name of (await fs.readdir(TOOLBOX_RECIPE)).sort()) {
      if (name.endsWith('.mjs') || name.endsWith('.sh')) {
        await fs.copyFile(path.join(TOOLBOX_RECIPE, name), path.join(top, 'toolbox-build', name));
      }
    }
    const toolbox = toolboxSource(options.toolboxDir);
    if (toolbox) {
      await fs.cp(toolbox, path.join(top, 'toolbox'), { recursive: true, verbatimSymlinks: true });
    } else {
      log('agent bundle: no container toolbox built here; the install script builds it on the host');
    }
    const version = agentSourceVersion();
    const build = (await contentHash(staging)).slice(0, 12);
    await fs.writeFile(
      path.join(top, 'VERSION'),
      `${JSON.stringify({ version, build, protocol: AGENT_PROTOCOL_VERSION })}\n`,
    );
    const fileName = `${TOP}-${version}-${build}-linux-${process.arch}.tar.gz`;
    const file = path.join(options.outDir, fileName);
    if (!existsSync(file) || !existsSync(`${file}.sha256`)) {
      const tmp = path.join(staging, 'archive.tar.gz');
      await writeArchive(staging, tmp);
      const sha256 = await sha256File(tmp);
      await fs.rename(tmp, file);
      await fs.writeFile(`${file}.sha256`, `${sha256}  ${fileName}\n`);
      log(`agent bundle ${fileName} built`);
    }
    const sha256 = (await fs.readFile(`${file}.sha256`, 'utf8')).split(/\s+/)[0] ?? '';
    const { size } = await fs.stat(file);
    return { path: file, fileName, version, build, sha256, size };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** Where this control plane keeps its bundle, and which toolbox it ships. */
export function bundleSettings(env: NodeJS.ProcessEnv = process.env): { outDir: string; toolboxDir: string } {
  return {
    outDir: env.AGENT_BUNDLE_DIR
      ? path.resolve(env.AGENT_BUNDLE_DIR)
      : path.join(platformDataDir(env), 'agent-bundle'),
    toolboxDir: env.AGENT_TOOLBOX_DIR
      ? path.resolve(env.AGENT_TOOLBOX_DIR)
      : path.join(platformDataDir(env), 'toolbox'),
  };
}

/** Keeps the newest `keep` archives of the folder (older builds of earlier starts go). */
async function prune(outDir: string, current: string, keep = 3): Promise<void> {
  const names = (await fs.readdir(outDir)).filter((n) => n.startsWith(`${TOP}-`) && n.endsWith('.tar.gz'));
  const dated = await Promise.all(
    names.map(async (name) => ({ name, mtime: (await fs.stat(path.join(outDir, name))).mtimeMs })),
  );
  dated.sort((a, b) => b.mtime - a.mtime);
  for (const { name } of dated.slice(keep)) {
    if (name === current) continue;
    await fs.rm(path.join(outDir, name), { force: true });
    await fs.rm(path.join(outDir, `${name}.sha256`), { force: true });
  }
}

let building: Promise<AgentBundle> | undefined;

/**
 * This control plane's agent bundle: built on first use (once per process; a failed build is
 * tried again on the next call) and cached under the data folder.
 */
export function agentBundle(): Promise<AgentBundle> {
  building ??= (async () => {
    const settings = bundleSettings();
    const bundle = await buildAgentBundle({ ...settings, log: (line) => console.log(line) });
    await prune(settings.outDir, bundle.fileName).catch(() => undefined);
    return bundle;
  })();
  building.catch(() => {
    building = undefined;
  });
  return building;
}
