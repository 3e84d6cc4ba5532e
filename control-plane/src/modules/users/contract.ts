// The users module's replies (个人中心 and admin 用户管理), written once: the views are typed by
// them and the console imports their types (src/api.ts). Only zod here.
import { z } from 'zod';

/** GET /api/user/info, and the answer of every profile change. */
export const profileReply = z.object({
  id: z.number(),
  username: z.string(),
  nickname: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  ssh_key: z.string().nullable(),
  is_admin: z.boolean(),
  is_phone_verified: z.boolean(),
  is_email_verified: z.boolean(),
  is_wechat_bound: z.boolean(),
  wechat_nickname: z.string().nullable(),
  /** Yuan. */
  balance: z.number(),
});
export type ProfileReply = z.infer<typeof profileReply>;

/** GET /api/admin/users item, and the answer of disable / enable / grant / revoke. */
export const adminUserReply = profileReply.extend({
  disabled: z.boolean(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type AdminUserReply = z.infer<typeof adminUserReply>;

export const adminUserListReply = z.object({ items: z.array(adminUserReply), total: z.number() });
export type AdminUserListReply = z.infer<typeof adminUserListReply>;

/** What the admin user view shows of a container (no passwords). */
export const userContainerSummaryReply = z.object({
  container_id: z.string(),
  name: z.string(),
  status: z.string(),
  gpu_type: z.string(),
  gpu_count: z.number(),
  node_name: z.string(),
  billing_type: z.string(),
  create_time: z.string(),
});
export type UserContainerSummaryReply = z.infer<typeof userContainerSummaryReply>;

/** GET /api/admin/users/{id}: the user with their containers and latest orders. */
export const adminUserDetailReply = adminUserReply.extend({
  containers: z.array(userContainerSummaryReply),
  /** The billing module's orders (its own contract), newest first. */
  orders: z.array(z.unknown()),
});
export type AdminUserDetailReply = z.infer<typeof adminUserDetailReply>;
