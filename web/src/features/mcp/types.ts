/** The MCP dashboard's container statuses (spec: MCP container status). */
export type McpStatus = 'running' | 'stopped' | 'creating' | 'failed' | 'deleted';

/** A container as GET /api/mcp/containers answers. */
export interface McpContainer {
  container_id: string;
  name: string;
  image_name: string;
  gpu_count: number;
  status: McpStatus | string;
  created_at: string;
  gpu_type?: string;
  ssh_server?: string;
  ssh_port?: number | null;
  start_error?: string | null;
}

export interface McpCreatePayload {
  name: string;
  image_name: string;
  product_id: number;
  gpu_count: number;
  password: string;
}

export interface McpCreated extends McpContainer {
  password_set: boolean;
  password_error?: string;
}

/** Cloud product fields the create form uses (GET /api/cloud-products?status=available). */
export interface McpServerOption {
  id: number;
  name: string;
  status: string;
  gpu_type?: string;
  gpu_available?: number;
  gpu_total?: number;
  price?: number;
}

/** The images the dashboard offers (spec: MCP dashboard). */
export const MCP_IMAGES = ['Ubuntu 22.04 + CUDA 12.4 Jupyter', 'Windows 10 + CUDA 12.6'] as const;

export const GPU_COUNT_MIN = 1;
export const GPU_COUNT_MAX = 8;

export const MSG_REQUIRED = '请填写所有必填字段';
export const MSG_NEW_PASSWORD = '请输入新密码';
export const MSG_PASSWORD_MISMATCH = '两次输入的密码不一致';
export const MSG_NO_LOGS = '暂无日志';
export const MSG_LOGS_FAILED = '获取日志失败';
