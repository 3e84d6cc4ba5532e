import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { run } from './cli.js';
import type { CliDeps, ProgramRun } from './context.js';
import { CliError } from './errors.js';

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs ssh/scp with this terminal. While it runs, this process stays (to pass on its exit
 * status) and passes the signals it gets on to it instead of dying before it.
 */
function runProgram({ command, args, env, quiet }: ProgramRun): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: quiet ? 'ignore' : 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const s of FORWARDED_SIGNALS) process.on(s, forward);
    const done = () => {
      for (const s of FORWARDED_SIGNALS) process.off(s, forward);
    };
    child.on('error', (err) => {
      done();
      reject(new CliError(`${command}: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      done();
      resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0));
    });
  });
}

function onInterrupt(handler: () => void): () => void {
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

const deps: CliDeps = {
  env: process.env,
  homeDir: os.homedir(),
  sshDir: path.join(os.userInfo().homedir, '.ssh'),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  runProgram,
  onInterrupt,
};

// `gpucloud ls | head -1`: the reader left, nothing more to say.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const code = await run(process.argv.slice(2), deps);
// Every answer is written: leave now, whatever keep-alive socket is still open.
process.stdout.write('', () => process.exit(code));
