export interface AdminUser {
  id: number;
  username: string;
  nickname: string | null;
  email: string | null;
  phone: string | null;
  is_admin: boolean;
  disabled: boolean;
  is_phone_verified: boolean;
  is_email_verified: boolean;
  is_wechat_bound: boolean;
  wechat_nickname: string | null;
  balance: number;
  created_at: string;
  last_login_at: string | null;
}

export interface UserContainerSummary {
  container_id: string;
  name: string;
  status: string;
  gpu_type: string;
  gpu_count: number;
  node_name: string;
  billing_type: string;
  create_time: string;
}

export interface AdminUserDetail extends AdminUser {
  containers: UserContainerSummary[];
  orders: unknown[];
}

export interface UserListQuery {
  page: number;
  size: number;
  keyword: string;
}

export const USER_PAGE_SIZES = [10, 20, 50, 100];
