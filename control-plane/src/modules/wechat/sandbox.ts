import { createHash, randomBytes } from 'node:crypto';
import { WechatCodeUsedError, type WechatIdentity, type WechatIdentityProvider } from './provider.js';
import type { WechatSandboxRepository } from './repository.js';

// The repository moved to repository.ts; kept importable from here.
export { WechatSandboxRepository } from './repository.js';

const CODE_TTL_MS = 5 * 60_000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * WeChat's part without credentials: the console's /wechat-sandbox page plays the QR scan. The
 * tester names a WeChat identity (the same nickname is the same identity), the page gets a
 * one-time code here and goes to /wechat-callback like WeChat would.
 */
export class SandboxWechatProvider implements WechatIdentityProvider {
  readonly kind = 'sandbox';

  constructor(
    private readonly repo: WechatSandboxRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  authorizeUrl(p: { state: string; redirectUri: string; consoleOrigin: string }): string {
    const query = new URLSearchParams({ redirect_uri: p.redirectUri, state: p.state });
    return `${p.consoleOrigin}/wechat-sandbox?${query}`;
  }

  static openidFor(nickname: string): string {
    return `sandbox_${sha256(`wechat-sandbox:${nickname}`).slice(0, 24)}`;
  }

  async issueCode(nickname: string): Promise<string> {
    const code = `sbx_${randomBytes(18).toString('base64url')}`;
    await this.repo.insert({
      code_hash: sha256(code),
      openid: SandboxWechatProvider.openidFor(nickname),
      nickname,
      expires_at: new Date(this.now().getTime() + CODE_TTL_MS),
    });
    return code;
  }

  async exchange(code: string): Promise<WechatIdentity> {
    const hash = sha256(code);
    const row = await this.repo.use(hash, this.now());
    if (row) return { openid: row.openid, nickname: row.nickname };
    if (await this.repo.isUsed(hash)) throw new WechatCodeUsedError();
    throw new Error('wechat sandbox: invalid code');
  }
}
