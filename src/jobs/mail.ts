// The mail.deliver job: sends outbox messages that a request queued for many recipients at once
// (mail/index.ts, queueMails: a listing's followers when it posts an update). The request writes the
// messages to the outbox in its own transaction and enqueues this job there too, so the update, its
// mails and their delivery are one commit; the job then sends each message over SMTP. A run that
// leaves any unsent (the SMTP server refused or was down) fails and is retried with backoff; a
// message already sent is never sent again. Without SMTP_URL there is nothing to send: the outbox
// is where mail ends, and no job is queued.
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Config } from '../config.ts';
import { deliverQueued, queueMails, type MailMessage } from '../mail/index.ts';
import { enqueue, type JobHandler } from './queue.ts';

export const MAIL_DELIVER = 'mail.deliver';

/** Messages per job: a failing SMTP server holds back at most this many, and each run stays short. */
export const MAILS_PER_JOB = 200;

export const mailDeliverHandler: JobHandler<{ ids: number[] }> = {
  maxAttempts: 6, // 2 s, 4 s … 32 s of backoff: an SMTP server restarting is waited for
  async run(ctx) {
    const { unsent } = await deliverQueued(
      { db: ctx.deps.store.db, config: ctx.deps.config, log: ctx.deps.log },
      ctx.job.payload.ids ?? [],
      ctx.signal,
    );
    if (unsent)
      throw new Error(
        `${unsent} of ${ctx.job.payload.ids.length} messages are not sent yet (their errors are on their outbox rows)`,
      );
  },
};

/**
 * Queues these messages (in `db`, the caller's transaction when given one) and, when SMTP is
 * configured, the mail.deliver jobs that send them. Returns how many were queued.
 */
export async function queueFanOut(
  db: Kysely<DB>,
  config: Pick<Config, 'SMTP_URL'>,
  msgs: readonly MailMessage[],
): Promise<number> {
  const ids = await queueMails(db, msgs);
  if (config.SMTP_URL)
    for (let i = 0; i < ids.length; i += MAILS_PER_JOB)
      await enqueue(db, MAIL_DELIVER, { ids: ids.slice(i, i + MAILS_PER_JOB) });
  return ids.length;
}
