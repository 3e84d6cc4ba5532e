import { describe, expect, it } from 'vitest';
import { chooseLanguage, MESSAGES, statusLabel } from './i18n.js';

/** Every key path of a message table (functions and strings are leaves). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
}

describe('the language of the CLI’s own messages', () => {
  it('is Chinese when LC_ALL, else LC_MESSAGES, else LANG starts with zh', () => {
    expect(chooseLanguage({ LANG: 'zh_CN.UTF-8' })).toBe('zh');
    expect(chooseLanguage({ LANG: 'zh_TW.UTF-8' })).toBe('zh');
    expect(chooseLanguage({ LC_ALL: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' })).toBe('zh');
    expect(chooseLanguage({ LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(chooseLanguage({ LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'C' })).toBe('zh');
    expect(chooseLanguage({ LC_ALL: '', LANG: 'zh_CN' })).toBe('zh');
    expect(chooseLanguage({ LANG: 'C.UTF-8' })).toBe('en');
    expect(chooseLanguage({})).toBe('en');
  });

  it('says everything in both languages, and they differ', () => {
    expect(keyPaths(MESSAGES.zh).sort()).toEqual(keyPaths(MESSAGES.en).sort());
    expect(Object.keys(MESSAGES.zh.commandHelp).sort()).toEqual(Object.keys(MESSAGES.en.commandHelp).sort());
    expect(MESSAGES.zh.noSuchContainer('box')).toBe('没有名为 box 的容器');
    expect(MESSAGES.en.noSuchContainer('box')).toBe('no container named box');
  });

  it('names statuses as the console does, with the pull’s percentage', () => {
    expect(statusLabel(MESSAGES.zh, 'running')).toBe('运行中');
    expect(statusLabel(MESSAGES.zh, 'pulling', 40)).toBe('拉取镜像中 40%');
    expect(statusLabel(MESSAGES.en, 'pulling', 40)).toBe('pulling image 40%');
    expect(statusLabel(MESSAGES.en, 'stopped', null)).toBe('stopped');
    expect(statusLabel(MESSAGES.en, 'something-new')).toBe('something-new');
  });
});
