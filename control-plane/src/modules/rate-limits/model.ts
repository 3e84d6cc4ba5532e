import { Model } from 'objection';

/** One fixed-window counter of a rate limit, shared by every replica. */
export class RateLimitCounterModel extends Model {
  static override tableName = 'rate_limit_counters';
  static override idColumn = ['key', 'window_start'];
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // window_start and expires_at are Date objects: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['key'],
    properties: {
      key: { type: 'string' },
      count: { type: 'integer' },
    },
  };

  key!: string;
  window_start!: Date;
  count!: number;
  expires_at!: Date;
}
