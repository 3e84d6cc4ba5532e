// `gpucloud-agent join`: a host joins the platform with a one-time token (issue 19). The agent
// makes its own key (it never leaves the host) and a certificate signing request, presents the
// token to the control plane (POST /api/agent/join), and writes what comes back: the signed
// certificate and the platform CA under <config-dir>/tls, the node token in agent.env, and the
// settings that make the agent serve mutual TLS from those files in agent.json.
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, DEFAULTS } from '../config.js';
import { checkCertificate, newKeyAndRequest, writeAtomic } from './certificates.js';

export const JOIN_USAGE = `gpucloud-agent join: register this host with the control plane (one-time join token)

Usage: gpucloud-agent join --control-plane <url> --token <gcj_...> [options]

  --control-plane <url>   the control plane's address, https://console.example.com (http is
                          allowed: the token is single-use, but the node token comes back in clear)
  --token <gcj_...>       the join token from 管理后台 → 节点 → 添加节点
  --public-host <host>    address users reach published ports on (default agent.json's, else the hostname)
  --listen <host:port>    the agent's gRPC address (default agent.json's, else ${DEFAULTS.listen})
  --address <host:port>   the address the control plane dials (default: the address the join
                          request comes from, with the --listen port)
  --node-name <name>      the node's name (default agent.json's, else the hostname)
  --config-dir <dir>      where agent.json, agent.env and tls/ are written (default /etc/gpucloud)
  --ca-file <file>        CA that signed the control plane's https certificate, when the system
                          does not trust it (GPUCLOUD_CA)
`;

export interface JoinOptions {
  controlPlane: string;
  token: string;
  publicHost?: string;
  listen?: string;
  address?: string;
  nodeName?: string;
  configDir: string;
  caFile?: string;
  /**
   * Files are written under this root instead of / while their contents name the final paths
   * (GPUCLOUD_INSTALL_ROOT, as deploy/agent/install.sh: packaging and tests).
   */
  installRoot?: string;
}

export interface JoinResult {
  nodeId: number;
  serverName: string;
  /** Where the files went (under the install root when one is given). */
  files: { config: string; env: string; key: string; certificate: string; ca: string };
}

/** The body the control plane answers a join with (201). */
interface JoinReply {
  node_id: number;
  node_token: string;
  certificate_pem: string;
  ca_certificate_pem: string;
  server_name: string;
}

export class JoinError extends Error {}

/** Parses `gpucloud-agent join …` (argv without the `join`); 'help' for --help. */
export function joinOptionsFromCli(argv: string[], env: NodeJS.ProcessEnv): JoinOptions | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'control-plane': { type: 'string' },
        token: { type: 'string' },
        'public-host': { type: 'string' },
        listen: { type: 'string' },
        address: { type: 'string' },
        'node-name': { type: 'string' },
        'config-dir': { type: 'string' },
        'ca-file': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new ConfigError(`${err instanceof Error ? err.message : String(err)}\n\n${JOIN_USAGE}`);
  }
  if (values.help) return 'help';
  const str = (name: string): string | undefined => {
    const v = values[name];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  const controlPlane = str('control-plane');
  const token = str('token');
  if (!controlPlane) throw new ConfigError(`join needs --control-plane <url>\n\n${JOIN_USAGE}`);
  if (!token) throw new ConfigError(`join needs --token <join token>\n\n${JOIN_USAGE}`);
  let url: URL;
  try {
    url = new URL(controlPlane);
  } catch {
    throw new ConfigError(
      `--control-plane must be a URL such as https://console.example.com, got "${controlPlane}"`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`--control-plane must be an http(s) URL, got "${controlPlane}"`);
  }
  if (!/^gcj_[A-Za-z0-9_-]{20,100}$/.test(token)) {
    throw new ConfigError('--token must be a join token (gcj_…) from 管理后台 → 节点 → 添加节点');
  }
  const listen = str('listen');
  if (listen !== undefined && !/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/.test(listen)) {
    throw new ConfigError(`--listen must be host:port (for example 0.0.0.0:50051), got "${listen}"`);
  }
  const address = str('address');
  if (address !== undefined && !/^(\[[0-9a-fA-F:.]+\]|[^:\s/]+):\d{1,5}$/.test(address)) {
    throw new ConfigError(`--address must be host:port, got "${address}"`);
  }
  const caFile = str('ca-file') ?? (env.GPUCLOUD_CA?.trim() || undefined);
  const installRoot = env.GPUCLOUD_INSTALL_ROOT?.trim() || undefined;
  const optional = {
    publicHost: str('public-host'),
    listen,
    address,
    nodeName: str('node-name'),
    caFile,
    installRoot,
  };
  return {
    controlPlane: url.origin + url.pathname.replace(/\/+$/, ''),
    token,
    configDir: str('config-dir') ?? '/etc/gpucloud',
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

function readJsonObject(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new JoinError(`${file} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The value of a setting in an agent.json (kebab-case or camelCase key). */
function setting(config: Record<string, unknown>, name: string): string | undefined {
  for (const [key, value] of Object.entries(config)) {
    if (kebab(key) === name && (typeof value === 'string' || typeof value === 'number')) return String(value);
  }
  return undefined;
}

/** `config` with `updates` set (kebab-case keys), dropping any other spelling of the same setting. */
function merged(config: Record<string, unknown>, updates: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const name = kebab(key);
    if (name in updates && key !== name) continue;
    out[key] = value;
  }
  return { ...out, ...updates };
}

/** agent.env with AGENT_TOKEN replaced (other lines kept). */
function envWithToken(old: string, token: string): string {
  const lines = old.split('\n').filter((line) => line !== '' && !/^\s*AGENT_TOKEN=/.test(line));
  return `${[...lines, `AGENT_TOKEN=${token}`].join('\n')}\n`;
}

function postJson(
  url: URL,
  body: unknown,
  ca: Buffer | undefined,
): Promise<{ status: number; body: unknown; text: string }> {
  const payload = Buffer.from(JSON.stringify(body));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          accept: 'application/json',
        },
        timeout: 30_000,
        ...(ca && url.protocol === 'https:' ? { ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 1024 * 1024) {
            req.destroy(new JoinError('the control plane answered more than 1 MiB'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new JoinError(`no answer from ${url.origin} within 30 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

function isJoinReply(body: unknown): body is JoinReply {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    Number.isSafeInteger(b.node_id) &&
    typeof b.node_token === 'string' &&
    /^[A-Za-z0-9_.~+/=-]{16,200}$/.test(b.node_token) &&
    typeof b.certificate_pem === 'string' &&
    typeof b.ca_certificate_pem === 'string' &&
    typeof b.server_name === 'string'
  );
}

/**
 * Joins the control plane and writes the node's files. `warn` gets what the operator should know
 * (plain http). Nothing is written unless the control plane accepted the token and its answer
 * checks out (the certificate is for our key and signed by the CA it sent).
 */
export async function joinControlPlane(
  options: JoinOptions,
  warn: (line: string) => void = (line) => console.error(line),
): Promise<JoinResult> {
  const root = options.installRoot ?? '';
  const configDir = path.resolve(options.configDir);
  const onDisk = (file: string) => (root ? path.join(root, file) : file);
  const configFile = path.join(configDir, 'agent.json');
  const old = readJsonObject(onDisk(configFile));
  const listen = options.listen ?? setting(old, 'listen') ?? DEFAULTS.listen;
  const publicHost = options.publicHost ?? setting(old, 'public-host') ?? os.hostname();
  const nodeName = options.nodeName ?? setting(old, 'node-name') ?? os.hostname();
  const grpcPort = Number(listen.split(':').pop());
  if (!Number.isInteger(grpcPort) || grpcPort < 1 || grpcPort > 65535) {
    throw new JoinError(`the agent's listen address ${listen} has no fixed port; give --listen host:port`);
  }
  const url = new URL(`${options.controlPlane}/api/agent/join`);
  if (url.protocol === 'http:') {
    warn(
      `warning: ${options.controlPlane} is plain http: the node token the control plane answers travels unencrypted. Use https where the network is not trusted.`,
    );
  }
  const ca = options.caFile ? readFileSync(options.caFile) : undefined;

  const { keyPem, spki, csrPem } = await newKeyAndRequest(nodeName);
  let answer: Awaited<ReturnType<typeof postJson>>;
  try {
    answer = await postJson(
      url,
      {
        token: options.token,
        csr_pem: csrPem,
        node_name: nodeName,
        public_host: publicHost,
        grpc_port: grpcPort,
        ...(options.address ? { address: options.address } : {}),
      },
      ca,
    );
  } catch (err) {
    throw new JoinError(
      `cannot reach the control plane at ${options.controlPlane}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (answer.status !== 201 && answer.status !== 200) {
    const detail =
      typeof answer.body === 'object' && answer.body !== null && 'detail' in answer.body
        ? String((answer.body as { detail: unknown }).detail)
        : answer.text.slice(0, 200);
    throw new JoinError(`the control plane refused the join (HTTP ${answer.status}): ${detail}`);
  }
  if (!isJoinReply(answer.body))
    throw new JoinError('the control plane answered the join with an unexpected body');
  const reply = answer.body;
  try {
    await checkCertificate(reply.certificate_pem, reply.ca_certificate_pem, spki);
  } catch (err) {
    throw new JoinError(`the certificate from the control plane is not usable: ${(err as Error).message}`);
  }

  const tlsDir = path.join(configDir, 'tls');
  const files = {
    config: configFile,
    env: path.join(configDir, 'agent.env'),
    key: path.join(tlsDir, 'agent.key'),
    certificate: path.join(tlsDir, 'agent.crt'),
    ca: path.join(tlsDir, 'ca.crt'),
  };
  await fs.mkdir(onDisk(tlsDir), { recursive: true, mode: 0o700 });
  await fs.chmod(onDisk(configDir), 0o700);
  await fs.chmod(onDisk(tlsDir), 0o700);
  // The CA first, then the key before its certificate: a reader never pairs the new certificate
  // with a CA it does not chain to.
  await writeAtomic(onDisk(files.ca), reply.ca_certificate_pem, 0o644);
  await writeAtomic(onDisk(files.key), keyPem, 0o600);
  await writeAtomic(onDisk(files.certificate), reply.certificate_pem, 0o644);
  const oldEnv = existsSync(onDisk(files.env)) ? readFileSync(onDisk(files.env), 'utf8') : '';
  await writeAtomic(onDisk(files.env), envWithToken(oldEnv, reply.node_token), 0o600);
  const config = merged(old, {
    listen,
    'public-host': publicHost,
    'node-name': nodeName,
    'tls-cert': files.certificate,
    'tls-key': files.key,
    'tls-ca': files.ca,
    'tls-mode': 'platform',
    'control-plane-url': options.controlPlane,
  });
  await writeAtomic(onDisk(configFile), `${JSON.stringify(config, null, 2)}\n`, 0o600);
  return {
    nodeId: reply.node_id,
    serverName: reply.server_name,
    files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, onDisk(v)])) as JoinResult['files'],
  };
}

/** The `join` subcommand: exit status 0 joined, 1 refused or failed, 2 bad arguments. */
export async function joinMain(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let options: JoinOptions | 'help';
  try {
    options = joinOptionsFromCli(argv, env);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(JOIN_USAGE);
    return 0;
  }
  try {
    const result = await joinControlPlane(options);
    console.log(`joined ${options.controlPlane} as node ${result.nodeId} (${result.serverName})`);
    console.log(`node_id=${result.nodeId}`);
    return 0;
  } catch (err) {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
