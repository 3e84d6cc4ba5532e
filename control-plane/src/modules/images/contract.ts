// The images module's replies (我的镜像, 保存镜像, the purchase dialog's 自定义镜像, the admin's
// images), written once: the service is typed by them and the console imports their types
// (web/src/api.ts). Only zod here.
import { z } from 'zod';

/** A package as a package manager lists it (pip freeze, conda list, dpkg). */
export const packageVersion = z.object({ name: z.string(), version: z.string() });
export type PackageVersion = z.infer<typeof packageVersion>;

/**
 * What is inside a saved image, recorded by the agent at save time (SaveImageProgress.contents_json,
 * the same shape as node-agent/src/images/image-contents.ts). A field is null when the image has
 * no such thing (no Python, no conda, not a Debian/Ubuntu image, no CUDA).
 */
export const imageContents = z.object({
  /** /etc/os-release: ID, VERSION_ID, PRETTY_NAME. */
  os: z.object({ id: z.string(), version_id: z.string(), pretty_name: z.string() }).nullable(),
  /** `python3 --version` (else `python --version`): "3.10.12". */
  python: z.string().nullable(),
  /** CUDA toolkit version (version.json / version.txt / nvcc / CUDA_VERSION env): "12.1.1". */
  cuda: z.string().nullable(),
  /** cuDNN version (cudnn_version*.h or libcudnn.so.X.Y.Z / CUDNN_VERSION env): "8.9.2". */
  cudnn: z.string().nullable(),
  /** `pip freeze` (pip list --format=freeze), sorted by name. */
  pip: z.array(packageVersion).nullable(),
  /** `conda list` of the base environment, sorted by name. */
  conda: z.array(packageVersion).nullable(),
  /** dpkg packages installed in the image, sorted by name (the full list). */
  apt: z.array(packageVersion).nullable(),
  /** dpkg packages of the base image that the saved image adds or changes (name, version now). */
  apt_added: z.array(packageVersion).nullable(),
  /** The image the container was created from: its reference and digest (repo digest, else image id). */
  base: z.object({ image: z.string(), digest: z.string() }),
  /** The saved image's layers, newest first (docker history): size and what made it; `added` for the layers the save added on top of the base. */
  layers: z.array(z.object({ created_by: z.string(), size_bytes: z.number(), added: z.boolean() })),
  /** Bytes the save added (the `added` layers' sizes). */
  added_bytes: z.number(),
});
export type ImageContents = z.infer<typeof imageContents>;

export const imageStatus = z.enum(['saving', 'ready', 'failed']);
export type ImageStatus = z.infer<typeof imageStatus>;

/** A user's saved image (GET /api/images item, and the detail's base). */
export const imageReply = z.object({
  id: z.number(),
  name: z.string(),
  tag: z.string(),
  description: z.string(),
  status: imageStatus,
  /** 0-100 while saving. */
  progress: z.number(),
  /** Why the save failed (Chinese), when it failed. */
  error: z.string().nullable(),
  /** Bytes (the pushed layers), 0 until saved. */
  size_bytes: z.number(),
  created_at: z.string(),
  /** The container it was saved from (its name then; null once that container is gone). */
  source_container: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The image that container was created from. */
  source_image: z.string(),
  /** The pushed manifest's digest, once saved. */
  digest: z.string().nullable(),
  /** Containers (not deleted) created from it: deleting the image is refused while there are any. */
  in_use: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type ImageReply = z.infer<typeof imageReply>;

/** GET /api/images/:id: the image and what is inside (null until saved). */
export const imageDetailReply = imageReply.extend({ contents: imageContents.nullable() });
export type ImageDetailReply = z.infer<typeof imageDetailReply>;

/** A user's image quota and use (count of images, bytes). */
export const imageQuota = z.object({
  count: z.number(),
  max_count: z.number(),
  bytes: z.number(),
  max_bytes: z.number(),
});
export type ImageQuota = z.infer<typeof imageQuota>;

/** GET /api/images: the user's images, newest first, and the quota against use. */
export const imagesReply = z.object({ quota: imageQuota, images: z.array(imageReply) });
export type ImagesReply = z.infer<typeof imagesReply>;

/** Changes in one package list between two images. */
export const packageDiff = z.object({
  added: z.array(packageVersion),
  removed: z.array(packageVersion),
  changed: z.array(z.object({ name: z.string(), from: z.string(), to: z.string() })),
});
export type PackageDiff = z.infer<typeof packageDiff>;

/** GET /api/images/compare?a=&b=: what b has that a has not (null lists where either lacks one). */
export const imageCompareReply = z.object({
  a: z.object({ id: z.number(), name: z.string(), tag: z.string() }),
  b: z.object({ id: z.number(), name: z.string(), tag: z.string() }),
  /** Scalar facts that differ: os, python, cuda, cudnn, base. */
  facts: z.array(z.object({ what: z.string(), a: z.string().nullable(), b: z.string().nullable() })),
  pip: packageDiff.nullable(),
  conda: packageDiff.nullable(),
  apt: packageDiff.nullable(),
});
export type ImageCompareReply = z.infer<typeof imageCompareReply>;

/** POST /api/containers/:id/save-image: the image row made, saving in the background. */
export const saveImageReply = z.object({ image_id: z.number() });
export type SaveImageReply = z.infer<typeof saveImageReply>;

/** GET /api/admin/images item: every user's images with their owner. */
export const adminImageReply = imageReply.extend({
  user: z.object({ id: z.number(), username: z.string() }),
  /** The catalogue framework version it was published as, if any. */
  published: z.object({ framework: z.string(), version: z.string() }).nullable(),
});
export type AdminImageReply = z.infer<typeof adminImageReply>;
