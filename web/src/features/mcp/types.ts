import type { CloudProduct } from '@gpucloud/control-plane/api';

// MCP containers (and what creating one sends) are the control plane's types
// (@gpucloud/control-plane/api).

/** What the create form shows of a server (GET /api/cloud-products?status=available). */
export type McpServerOption = Pick<
  CloudProduct,
  'id' | 'name' | 'status' | 'gpu_type' | 'gpu_available' | 'gpu_total' | 'price'
>;

/** The images the dashboard offers (spec: MCP dashboard). */
export const MCP_IMAGES = ['Ubuntu 22.04 + CUDA 12.4 Jupyter', 'Windows 10 + CUDA 12.6'] as const;

export const GPU_COUNT_MIN = 1;
export const GPU_COUNT_MAX = 8;

export const MSG_REQUIRED = '请填写所有必填字段';
export const MSG_NEW_PASSWORD = '请输入新密码';
export const MSG_PASSWORD_MISMATCH = '两次输入的密码不一致';
export const MSG_NO_LOGS = '暂无日志';
export const MSG_LOGS_FAILED = '获取日志失败';
