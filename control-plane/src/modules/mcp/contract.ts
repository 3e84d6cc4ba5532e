// The MCP container API's replies (/api/mcp/containers: the MCP dashboard and API-key clients),
// written once: the views are typed by them and the console imports their types (src/api.ts).
// Only zod here (and the statuses of schema.ts, zod too).
import { z } from 'zod';
import { MCP_STATUSES } from './schema.js';

/** A container as the MCP API shows it: the spec's fields plus what a client needs to connect. */
export const mcpContainerReply = z.object({
  container_id: z.string(),
  name: z.string(),
  /** The catalogue image's name when one runs this image, else the image reference. */
  image_name: z.string(),
  /** The image reference the container runs. */
  image: z.string(),
  gpu_count: z.number(),
  gpu_type: z.string(),
  /** The five statuses of the MCP dashboard. */
  status: z.enum(MCP_STATUSES),
  /** The platform's finer status (starting, error, not_found, …). */
  platform_status: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  stopped_at: z.string().nullable(),
  region: z.string(),
  node_name: z.string(),
  ssh_server: z.string(),
  ssh_port: z.number().nullable(),
  ports: z.array(z.object({ name: z.string(), container_port: z.number(), host_port: z.number() })),
  /** Price per GPU hour, in yuan. */
  price: z.number(),
  total_cost: z.number(),
  no_gpu: z.boolean(),
  start_error: z.string().nullable(),
  /** While the node pulls the image: 0-100 (platform_status pulling); null otherwise. */
  pull_progress: z.number().nullable(),
});
export type McpContainerReply = z.infer<typeof mcpContainerReply>;

export const mcpContainerListReply = z.object({ items: z.array(mcpContainerReply), total: z.number() });
export type McpContainerListReply = z.infer<typeof mcpContainerListReply>;

/** POST /api/mcp/containers (201): the container, and whether the root password is in place. */
export const mcpCreatedReply = mcpContainerReply.extend({
  password_set: z.boolean(),
  password_error: z.string().optional(),
});
export type McpCreatedReply = z.infer<typeof mcpCreatedReply>;

/** GET /api/mcp/containers/{id}/logs. */
export const mcpLogsReply = z.object({ logs: z.string() });
export type McpLogsReply = z.infer<typeof mcpLogsReply>;
