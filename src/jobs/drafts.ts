// The draft.build job: a draft's site crawled and drafted (the work: services/drafting.ts runDraftBuild).
// Enqueued with the draft (submit_listing); three attempts; a draft whose job gave up is marked failed
// with the reason, so the maker sees it and can start again.
import { REASON_TEXT, runDraftBuild } from '../services/drafting.ts';
import type { JobHandler } from './queue.ts';

export const draftBuildHandler: JobHandler<{ draftId: string }> = {
  maxAttempts: 3,
  run: runDraftBuild,
  async onFailed(trx, job, error) {
    const id = job.payload?.draftId;
    if (!id) return;
    await trx
      .updateTable('drafts')
      .set({
        status: 'failed',
        stage: 'failed',
        updated_at: new Date().toISOString(),
        error: JSON.stringify({
          reason: 'internal',
          message: `${REASON_TEXT.internal} Start a new draft to try again. (${error.slice(0, 200)})`,
        }),
      })
      .where('id', '=', id)
      .where('status', 'in', ['crawling', 'drafting'])
      .execute();
  },
};
