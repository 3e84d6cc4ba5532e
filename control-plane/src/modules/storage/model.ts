import { Model, type Modifiers, type QueryBuilder } from 'objection';

/** A user's storage volume: a directory on one node, mounted into the user's containers there. */
export class VolumeModel extends Model {
  static override tableName = 'volumes';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // measured_at, created_at and the delete's timestamps are Date objects: left out of
  // `properties`. size_bytes is a bigint, read as a number (db/knex.ts).
  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'node_id', 'name', 'path'],
    properties: {
      id: { type: 'integer' },
      user_id: { type: 'integer' },
      node_id: { type: 'integer' },
      name: { type: 'string' },
      path: { type: 'string' },
      size_bytes: { type: 'integer' },
      delete_progress: { type: ['integer', 'null'] },
      delete_error: { type: ['string', 'null'] },
    },
  };

  static override modifiers: Modifiers<QueryBuilder<VolumeModel>> = {
    ofUser(query, userId: number) {
      query.where('volumes.user_id', userId);
    },
  };

  id!: number;
  user_id!: number;
  node_id!: number;
  name!: string;
  path!: string;
  size_bytes!: number;
  measured_at!: Date | null;
  created_at!: Date;
  /** Set while the node deletes it (删除中): the row goes when the directory is gone. */
  deleting_since!: Date | null;
  /** 0-100 while deleting. */
  delete_progress!: number | null;
  /** Until when the process running the delete holds it (it renews this; a replica takes over after). */
  delete_lease_until!: Date | null;
  /** Why the last delete failed (the volume was put back); null otherwise. */
  delete_error!: string | null;
}

export type VolumeRow = Pick<
  VolumeModel,
  | 'id'
  | 'user_id'
  | 'node_id'
  | 'name'
  | 'path'
  | 'size_bytes'
  | 'measured_at'
  | 'created_at'
  | 'deleting_since'
  | 'delete_progress'
  | 'delete_lease_until'
  | 'delete_error'
>;
