import { createInterface } from 'node:readline';
import type { CliContext } from './context.js';
import { CliError, UsageError } from './errors.js';

/**
 * Asks before spending or deleting: at a terminal y/yes (是) goes ahead; elsewhere only --yes does,
 * so a script never buys or deletes because a prompt read something unexpected.
 */
export async function confirm(ctx: CliContext, question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!ctx.stdin.isTTY) throw new UsageError(ctx.msg.needYes);
  const answer = await askLine(ctx, `${question}${ctx.msg.confirmSuffix}`);
  if (!/^(y|yes|是)$/i.test(answer.trim())) throw new CliError(ctx.msg.cancelled);
}

/** One line from the terminal, or from standard input when it is not one. */
export function askLine(ctx: CliContext, question: string): Promise<string> {
  if (ctx.stdin.isTTY) ctx.stderr.write(question);
  return new Promise((resolve) => {
    // No output stream: the terminal's own line discipline echoes and edits the line.
    const rl = createInterface({ input: ctx.stdin, terminal: false });
    let answered = false;
    rl.question('', (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    rl.on('close', () => {
      if (!answered) resolve('');
    });
  });
}

/** A secret typed at the terminal without echo (raw mode); Ctrl-C cancels. */
export function askSecret(ctx: CliContext, question: string): Promise<string> {
  const { stdin, stderr } = ctx;
  if (!stdin.isTTY || !stdin.setRawMode) return askLine(ctx, question);
  const setRawMode = stdin.setRawMode.bind(stdin);
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let secret = '';
    const finish = (error?: Error) => {
      setRawMode(false);
      stdin.off('data', onData);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(secret);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new CliError(ctx.msg.cancelled));
        if (ch === '\u007f' || ch === '\b') secret = secret.slice(0, -1);
        else if (ch >= ' ') secret += ch;
      }
    };
    setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
