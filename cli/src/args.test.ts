import { describe, expect, it } from 'vitest';
import { choiceOption, intOption, parseCommand, requirePositionals } from './args.js';
import { UsageError } from './errors.js';
import { MESSAGES } from './i18n.js';

const msg = MESSAGES.en;

describe('command arguments', () => {
  it('reads options, repeated options and positionals; --json and -h are everyone’s', () => {
    const { values, positionals, rest } = parseCommand(
      'create',
      ['--product', '3', '--port', '12000', '--port', '12001', '--json', 'extra'],
      { product: { type: 'string' }, port: { type: 'string', multiple: true } },
      msg,
    );
    expect(values).toEqual({ product: '3', port: ['12000', '12001'], json: true });
    expect(positionals).toEqual(['extra']);
    expect(rest).toEqual([]);
  });

  it('keeps everything after -- apart and untouched (ssh’s own options and the remote command)', () => {
    const { values, positionals, rest } = parseCommand(
      'ssh',
      ['box', '-v', '--', '-L', '8888:localhost:8888', 'echo', '--json'],
      { verbose: { type: 'boolean', short: 'v' } },
      msg,
    );
    expect(values.verbose).toBe(true);
    expect(values.json).toBeUndefined();
    expect(positionals).toEqual(['box']);
    expect(rest).toEqual(['-L', '8888:localhost:8888', 'echo', '--json']);
  });

  it('an unknown option or a missing value is a usage error naming the command', () => {
    const unknown = () => parseCommand('ls', ['--colour'], {}, msg);
    expect(unknown).toThrow(UsageError);
    expect(unknown).toThrow(/--colour/);
    try {
      parseCommand('logs', ['box', '--tail'], { tail: { type: 'string' } }, msg);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).command).toBe('logs');
    }
  });

  it('numbers are whole and in range, choices are from the list, positionals are counted', () => {
    expect(intOption('c', '--gpus', undefined, 1, { min: 1, max: 8 }, msg)).toBe(1);
    expect(intOption('c', '--gpus', '8', 1, { min: 1, max: 8 }, msg)).toBe(8);
    for (const bad of ['0', '9', '1.5', '-1', 'two', '', '1e3'])
      expect(() => intOption('c', '--gpus', bad, 1, { min: 1, max: 8 }, msg), bad).toThrow(
        '--gpus must be a whole number from 1 to 8',
      );
    expect(choiceOption('p', '--system', 'ubuntu', ['ubuntu', 'windows'], msg)).toBe('ubuntu');
    expect(() => choiceOption('p', '--system', 'mac', ['ubuntu', 'windows'], msg)).toThrow(
      '--system must be one of ubuntu, windows',
    );
    expect(requirePositionals('logs', ['box'], ['<name>'], msg)).toEqual(['box']);
    expect(() => requirePositionals('logs', [], ['<name>'], msg)).toThrow('missing <name>');
    expect(() => requirePositionals('logs', ['a', 'b'], ['<name>'], msg)).toThrow('too many arguments');
  });
});
