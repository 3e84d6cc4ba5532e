import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './errors.js';
import type { Messages } from './i18n.js';

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes. */
export const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpecs;

export interface ParsedCommand<T extends OptionSpecs> {
  values: ReturnType<typeof parseArgs<{ options: T & typeof COMMON_OPTIONS; strict: true }>>['values'];
  /** Positionals before a `--`. */
  positionals: string[];
  /** Everything after a `--`, as written (for ssh). */
  rest: string[];
}

/**
 * A command's arguments (node:util parseArgs, strict): unknown options and missing values are
 * usage errors. What follows `--` is kept apart, untouched.
 */
export function parseCommand<T extends OptionSpecs>(
  command: string,
  args: string[],
  options: T,
  msg: Messages,
): ParsedCommand<T> {
  const end = args.indexOf('--');
  const own = end === -1 ? args : args.slice(0, end);
  const rest = end === -1 ? [] : args.slice(end + 1);
  try {
    const parsed = parseArgs({
      args: own,
      options: { ...options, ...COMMON_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as ParsedCommand<T>['values'], positionals: parsed.positionals, rest };
  } catch (err) {
    throw new UsageError(msg.badArguments((err as Error).message), command);
  }
}

/** Exactly `count` positionals (each named for the message when missing). */
export function requirePositionals(command: string, positionals: string[], names: string[], msg: Messages) {
  if (positionals.length < names.length)
    throw new UsageError(msg.missingArgument(names[positionals.length] as string), command);
  if (positionals.length > names.length) throw new UsageError(msg.tooManyArguments, command);
  return positionals;
}

/** An integer option within [min, max]; `fallback` when absent. */
export function intOption(
  command: string,
  name: string,
  value: string | undefined,
  fallback: number,
  range: { min: number; max: number },
  msg: Messages,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < range.min || n > range.max)
    throw new UsageError(msg.badInteger(name, range.min, range.max), command);
  return n;
}

/** An option that must be one of `choices`. */
export function choiceOption<C extends string>(
  command: string,
  name: string,
  value: string | undefined,
  choices: readonly C[],
  msg: Messages,
): C | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value))
    throw new UsageError(msg.badChoice(name, choices), command);
  return value as C;
}
