// The catalogue's replies (frameworks, versions, app images; public and admin), written once: the
// service is typed by them and the console imports their types (src/api.ts). Only zod here.
import { z } from 'zod';

/** Port name → container port; a Windows version may add `custom: "rdp:3389,vnc:5900"`. */
const portsReply = z.record(z.string(), z.union([z.number(), z.string()]));

/** GET /api/frameworks item. */
export const frameworkReply = z.object({ id: z.number(), name: z.string(), ports: portsReply });
export type FrameworkReply = z.infer<typeof frameworkReply>;

/** GET /api/frameworks/{id}/versions item, and the answer of saving a version. */
export const frameworkVersionReply = z.object({
  id: z.number(),
  framework_id: z.number(),
  version: z.string(),
  image: z.string(),
  cuda_version: z.string(),
  system_type: z.enum(['ubuntu', 'windows']),
  ports: portsReply,
  mounts: z.array(z.object({ source: z.string(), target: z.string() })),
  /** NVIDIA driver capabilities the image needs beyond compute,utility (video for ffmpeg, ...). */
  extra_driver_capabilities: z.array(z.string()),
});
export type FrameworkVersionReply = z.infer<typeof frameworkVersionReply>;

/** The answer of creating or renaming a framework. */
export const savedFrameworkReply = frameworkReply.extend({ sort: z.number() });
export type SavedFrameworkReply = z.infer<typeof savedFrameworkReply>;

/** GET /api/admin/frameworks item: the framework with all its versions. */
export const adminFrameworkReply = savedFrameworkReply.extend({ versions: z.array(frameworkVersionReply) });
export type AdminFrameworkReply = z.infer<typeof adminFrameworkReply>;

export const adminFrameworkListReply = z.object({ items: z.array(adminFrameworkReply), total: z.number() });
export type AdminFrameworkListReply = z.infer<typeof adminFrameworkListReply>;

/** An app image of the market (GET /api/images item, GET /api/admin/images item). */
export const appImageReply = z.object({
  id: z.number(),
  name: z.string(),
  icon: z.string(),
  description: z.string(),
  category: z.string(),
  created_at: z.string(),
  framework_version_id: z.number(),
  framework: z.object({
    id: z.number(),
    name: z.string(),
    version: z.object({ id: z.number(), name: z.string(), cuda_version: z.string() }),
  }),
});
export type AppImageReply = z.infer<typeof appImageReply>;

export const appImageListReply = z.object({ items: z.array(appImageReply), total: z.number() });
export type AppImageListReply = z.infer<typeof appImageListReply>;

/** The answer of creating or editing an app image (POST / PUT /api/admin/images). */
export const savedImageReply = appImageReply.omit({ framework: true });
export type SavedImageReply = z.infer<typeof savedImageReply>;
