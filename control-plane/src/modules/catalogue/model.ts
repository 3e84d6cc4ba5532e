import { Model, type Modifiers, type QueryBuilder, type RelationMappingsThunk } from 'objection';

/** A framework of the catalogue (PyTorch, TensorFlow…) with the ports its images expose. */
export class FrameworkModel extends Model {
  static override tableName = 'frameworks';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  static override jsonSchema = {
    type: 'object',
    required: ['name'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      ports: { type: 'object' },
      sort: { type: 'integer' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    versions: {
      relation: Model.HasManyRelation,
      modelClass: FrameworkVersionModel,
      join: { from: 'frameworks.id', to: 'framework_versions.framework_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<FrameworkModel>> = {
    /** The catalogue's order: `sort`, then creation. */
    ordered(query) {
      query.orderBy([{ column: 'frameworks.sort' }, { column: 'frameworks.id' }]);
    },
  };

  id!: number;
  name!: string;
  ports!: Record<string, number | string>;
  sort!: number;

  versions?: FrameworkVersionModel[];
}

/** A version of a framework: the image that runs it, its ports and mounts. */
export class FrameworkVersionModel extends Model {
  static override tableName = 'framework_versions';
  static override useLimitInFirst = true;

  static override jsonSchema = {
    type: 'object',
    required: ['framework_id', 'version', 'image'],
    properties: {
      id: { type: 'integer' },
      framework_id: { type: 'integer' },
      version: { type: 'string' },
      image: { type: 'string' },
      cuda_version: { type: 'string' },
      system_type: { type: 'string', enum: ['ubuntu', 'windows'] },
      ports: { type: 'object' },
      mounts: { type: 'array' },
      extra_driver_capabilities: { type: 'array', items: { type: 'string' } },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    framework: {
      relation: Model.BelongsToOneRelation,
      modelClass: FrameworkModel,
      join: { from: 'framework_versions.framework_id', to: 'frameworks.id' },
    },
    images: {
      relation: Model.HasManyRelation,
      modelClass: ImageModel,
      join: { from: 'framework_versions.id', to: 'images.framework_version_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<FrameworkVersionModel>> = {
    ordered(query) {
      query.orderBy('framework_versions.id');
    },
  };

  id!: number;
  framework_id!: number;
  version!: string;
  image!: string;
  cuda_version!: string;
  system_type!: 'ubuntu' | 'windows';
  ports!: Record<string, number | string>;
  mounts!: { source: string; target: string }[];
  /** NVIDIA driver capabilities its image needs beyond compute,utility (video, graphics...). */
  extra_driver_capabilities!: string[];

  framework?: FrameworkModel;
  images?: ImageModel[];
}

/** An app image of the market: a framework version presented with a name and a category. */
export class ImageModel extends Model {
  static override tableName = 'images';
  static override useLimitInFirst = true;

  // created_at is a Date: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['name', 'framework_version_id'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      icon: { type: 'string' },
      description: { type: 'string' },
      category: { type: 'string' },
      framework_version_id: { type: 'integer' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    // Not `version`: a joined query selects the version's `version` column under that name.
    frameworkVersion: {
      relation: Model.BelongsToOneRelation,
      modelClass: FrameworkVersionModel,
      join: { from: 'images.framework_version_id', to: 'framework_versions.id' },
    },
  });

  id!: number;
  name!: string;
  icon!: string;
  description!: string;
  category!: string;
  framework_version_id!: number;
  created_at!: Date;

  frameworkVersion?: FrameworkVersionModel;
}

export type FrameworkRow = Pick<FrameworkModel, 'id' | 'name' | 'ports' | 'sort'>;

export type FrameworkVersionRow = Pick<
  FrameworkVersionModel,
  | 'id'
  | 'framework_id'
  | 'version'
  | 'image'
  | 'cuda_version'
  | 'system_type'
  | 'ports'
  | 'mounts'
  | 'extra_driver_capabilities'
>;

export type ImageRow = Pick<
  ImageModel,
  'id' | 'name' | 'icon' | 'description' | 'category' | 'framework_version_id' | 'created_at'
>;
