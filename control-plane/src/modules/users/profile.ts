import type { AuthUser } from '../../framework/auth.js';
import type { VerificationService } from '../verification/service.js';
import type { Profile, UsersService } from './service.js';
import { normaliseSshKeys } from './ssh-keys.js';

/** The profile screen's use cases: phone and e-mail verification, SSH keys. */
export class ProfileService {
  constructor(
    private readonly users: UsersService,
    private readonly verification: VerificationService,
  ) {}

  async info(actor: AuthUser): Promise<Profile> {
    return this.users.profile(await this.users.require(actor.id));
  }

  sendPhoneCode(actor: AuthUser, phone: string, ip: string) {
    return this.verification.issue({
      purpose: 'verify_phone',
      channel: 'sms',
      target: phone,
      userId: actor.id,
      ip,
    });
  }

  async verifyPhone(actor: AuthUser, phone: string, code: string): Promise<Profile> {
    await this.verification.consume({ purpose: 'verify_phone', userId: actor.id, target: phone, code });
    return this.users.profile(await this.users.setPhoneVerified(actor.id, phone));
  }

  async resetPhone(actor: AuthUser): Promise<Profile> {
    return this.users.profile(await this.users.resetPhone(actor.id));
  }

  sendEmailCode(actor: AuthUser, email: string, ip: string) {
    return this.verification.issue({
      purpose: 'verify_email',
      channel: 'email',
      target: email,
      userId: actor.id,
      ip,
    });
  }

  /** The code names the address: the one it was sent to becomes the verified e-mail. */
  async verifyEmail(actor: AuthUser, code: string): Promise<Profile> {
    const row = await this.verification.consume({ purpose: 'verify_email', userId: actor.id, code });
    return this.users.profile(await this.users.setEmailVerified(actor.id, row.target));
  }

  async setSshKey(actor: AuthUser, text: string): Promise<Profile> {
    return this.users.profile(await this.users.setSshKey(actor.id, normaliseSshKeys(text)));
  }
}
