import type { AuthUser } from '../../framework/auth.js';
import { conflict } from '../../framework/errors.js';
import type { AdminUserDetailReply, AdminUserListReply, UserContainerSummaryReply } from './contract.js';
import type { AdminUserView, UsersService } from './service.js';

/** What the admin user view shows of a container, no passwords (the shape lives in contract.ts). */
export type UserContainerSummary = UserContainerSummaryReply;

export interface AdminUsersDeps {
  users: UsersService;
  /** The user's containers, from the containers module. */
  containersOf(userId: number): Promise<UserContainerSummary[]>;
  /** The user's container orders, newest first (the billing module). */
  ordersOf?(userId: number): Promise<unknown[]>;
  revokeSessions(userId: number): Promise<void>;
}

export type AdminUserDetail = AdminUserDetailReply;

/** The admin users screen: search, view, disable / enable, grant / revoke admin. */
export class AdminUsersService {
  constructor(private readonly d: AdminUsersDeps) {}

  list(filter: { page: number; size: number; keyword?: string | undefined }): Promise<AdminUserListReply> {
    return this.d.users.search(filter);
  }

  async detail(id: number): Promise<AdminUserDetail> {
    const user = await this.d.users.require(id);
    return {
      ...(await this.d.users.adminView(user)),
      containers: await this.d.containersOf(user.id),
      orders: (await this.d.ordersOf?.(user.id)) ?? [],
    };
  }

  /** A disabled account loses its sessions at once; its API keys stop working too (checked per call). */
  async setDisabled(actor: AuthUser, id: number, disabled: boolean): Promise<AdminUserView> {
    if (actor.id === id && disabled) throw conflict('不能禁用自己的账号', 'SELF_DISABLE');
    await this.d.users.require(id);
    const user = await this.d.users.setDisabled(id, disabled);
    if (disabled) await this.d.revokeSessions(id);
    return this.d.users.adminView(user);
  }

  async setAdmin(actor: AuthUser, id: number, isAdmin: boolean): Promise<AdminUserView> {
    if (actor.id === id && !isAdmin) throw conflict('不能撤销自己的管理员权限', 'SELF_REVOKE');
    await this.d.users.require(id);
    return this.d.users.adminView(await this.d.users.setAdmin(id, isAdmin));
  }
}
