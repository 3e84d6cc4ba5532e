// The users themselves are the control plane's `AdminUser` / `AdminUserDetail`
// (@gpucloud/control-plane/api); what the list page keeps of its own is here.

export interface UserListQuery {
  page: number;
  size: number;
  keyword: string;
}

export const USER_PAGE_SIZES = [10, 20, 50, 100];
