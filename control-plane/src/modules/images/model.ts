import { Model } from 'objection';
import type { ImageContents, ImageStatus } from './contract.js';

// The images module's tables. Timestamps are Date objects (left out of `properties`); bigint
// columns read as numbers (db/knex.ts); jsonb columns are described so Objection writes them as
// JSON.

/** A user's saved image (我的镜像). */
export class UserImageModel extends Model {
  static override tableName = 'user_images';
  static override useLimitInFirst = true;

  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'name', 'tag'],
    properties: {
      id: { type: 'integer' },
      user_id: { type: 'integer' },
      name: { type: 'string' },
      tag: { type: 'string' },
      description: { type: 'string' },
      status: { type: 'string' },
      progress: { type: 'integer' },
      error: { type: ['string', 'null'] },
      source_container_id: { type: ['string', 'null'] },
      source_container_name: { type: 'string' },
      source_image: { type: 'string' },
      node_id: { type: ['integer', 'null'] },
      repository: { type: 'string' },
      digest: { type: ['string', 'null'] },
      size_bytes: { type: 'integer' },
      contents: { type: ['object', 'null'] },
      ports: { type: 'object' },
      extra_driver_capabilities: { type: 'array', items: { type: 'string' } },
    },
  };

  id!: number;
  user_id!: number;
  name!: string;
  tag!: string;
  description!: string;
  status!: ImageStatus;
  progress!: number;
  error!: string | null;
  source_container_id!: string | null;
  source_container_name!: string;
  source_image!: string;
  node_id!: number | null;
  repository!: string;
  digest!: string | null;
  size_bytes!: number;
  contents!: ImageContents | null;
  ports!: Record<string, number | string>;
  extra_driver_capabilities!: string[];
  save_lease_until!: Date | null;
  created_at!: Date;
  updated_at!: Date;
  deleted_at!: Date | null;
}

export type UserImageRow = Pick<
  UserImageModel,
  | 'id'
  | 'user_id'
  | 'name'
  | 'tag'
  | 'description'
  | 'status'
  | 'progress'
  | 'error'
  | 'source_container_id'
  | 'source_container_name'
  | 'source_image'
  | 'node_id'
  | 'repository'
  | 'digest'
  | 'size_bytes'
  | 'contents'
  | 'ports'
  | 'extra_driver_capabilities'
  | 'save_lease_until'
  | 'created_at'
  | 'updated_at'
  | 'deleted_at'
>;

/** A per-user override of the configured image quota. */
export class ImageQuotaModel extends Model {
  static override tableName = 'image_quotas';
  static override idColumn = 'user_id';

  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'max_count', 'max_bytes'],
    properties: {
      user_id: { type: 'integer' },
      max_count: { type: 'integer' },
      max_bytes: { type: 'integer' },
    },
  };

  user_id!: number;
  max_count!: number;
  max_bytes!: number;
}

/** A saved image an admin published to the catalogue, as the framework version made for it. */
export class UserImagePublicationModel extends Model {
  static override tableName = 'user_image_publications';
  static override idColumn = 'framework_version_id';

  static override jsonSchema = {
    type: 'object',
    required: ['image_id', 'framework_version_id'],
    properties: {
      image_id: { type: 'integer' },
      framework_version_id: { type: 'integer' },
    },
  };

  image_id!: number;
  framework_version_id!: number;
}
