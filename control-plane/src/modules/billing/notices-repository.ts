import type { Knex } from 'knex';
import { ContainerNoticeModel, type NoticeKind } from './model.js';

export type { NoticeKind } from './model.js';

/** Owns container_notices: the notices sent, one per container, kind and moment. */
export class NoticesRepository {
  constructor(private readonly knex: Knex) {}

  /** Records the notice; false when it was recorded before (by this or another replica). */
  async claim(containerId: string, kind: NoticeKind, refAt: Date): Promise<boolean> {
    const claimed = await ContainerNoticeModel.query(this.knex)
      .insert({ container_id: containerId, kind, ref_at: refAt })
      .onConflict(['container_id', 'kind', 'ref_at'])
      .ignore()
      // A column the insert does not name: Objection hands back the model it was given when
      // nothing is returned (recorded before), so only a new row has it.
      .returning('created_at');
    return claimed.created_at !== undefined;
  }
}
