// Outgoing mail. Every message is written to the mail_outbox table first (so nothing is silently
// dropped and tests/operators can read it); when SMTP_URL is set it is then sent with nodemailer and
// marked sent (or its error recorded, to be retried by unsentMail()).
// nodemailer is loaded only when SMTP is configured.
import type { Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Config } from '../config.ts';
import { nowIso } from '../store/json.ts';

export interface MailDeps {
  db: Kysely<DB>;
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>;
  log?: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
export interface MailResult {
  id: number;
  sent: boolean;
  error?: string;
}

const transports = new Map<string, Transporter>();
async function transportFor(url: string): Promise<Transporter> {
  let t = transports.get(url);
  if (!t) {
    const { default: nodemailer } = await import('nodemailer');
    t = nodemailer.createTransport(url, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as never);
    transports.set(url, t);
  }
  return t;
}

function outboxRow(msg: MailMessage, createdAt: string) {
  const to = msg.to.trim();
  if (!to || /[\r\n]/.test(to) || /[\r\n]/.test(msg.subject)) throw new Error('mail: invalid recipient or subject');
  return {
    to_address: to,
    subject: msg.subject,
    text: msg.text,
    html: msg.html ?? null,
    created_at: createdAt,
    sent_at: null,
    error: null,
  };
}

/** Writes the message to the outbox and, when SMTP is configured, sends it. Never throws for a send failure. */
export async function sendMail(deps: MailDeps, msg: MailMessage): Promise<MailResult> {
  const values = outboxRow(msg, nowIso());
  const to = values.to_address;
  const row = await deps.db.insertInto('mail_outbox').values(values).returning('id').executeTakeFirstOrThrow();
  deps.log?.info({ mail_id: row.id, to, subject: msg.subject, smtp: Boolean(deps.config.SMTP_URL) }, 'mail queued');
  if (!deps.config.SMTP_URL) return { id: row.id, sent: false };
  return deliver(deps, row.id, { ...msg, to });
}

async function deliver(deps: MailDeps, id: number, msg: MailMessage): Promise<MailResult> {
  try {
    await (await transportFor(deps.config.SMTP_URL!)).sendMail({
      from: deps.config.MAIL_FROM,
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
    });
    await deps.db.updateTable('mail_outbox').set({ sent_at: nowIso(), error: null }).where('id', '=', id).execute();
    return { id, sent: true };
  } catch (e) {
    const error = String((e as Error)?.message ?? e).slice(0, 500);
    await deps.db.updateTable('mail_outbox').set({ error }).where('id', '=', id).execute();
    deps.log?.error({ mail_id: id, err: error }, 'mail send failed');
    return { id, sent: false, error };
  }
}

/** Rows per INSERT when queueing many messages (well under SQLite's 32,766 bound parameters at 7 a row). */
const QUEUE_CHUNK = 500;

/**
 * Writes many messages to the outbox, inside the caller's transaction when given one, WITHOUT sending
 * them: for fan-outs (a listing's followers), whose sending is the mail.deliver job's (jobs/mail.ts), so
 * a request never waits on SMTP once per recipient. Returns the outbox ids, in the order given.
 */
export async function queueMails(db: Kysely<DB>, msgs: readonly MailMessage[]): Promise<number[]> {
  const createdAt = nowIso();
  const rows = msgs.map((m) => outboxRow(m, createdAt));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += QUEUE_CHUNK) {
    const inserted = await db
      .insertInto('mail_outbox')
      .values(rows.slice(i, i + QUEUE_CHUNK))
      .returning('id')
      .execute();
    for (const r of inserted) ids.push(Number(r.id));
  }
  return ids;
}

/**
 * Sends those of these outbox messages not sent yet (re-runnable: a message already sent is skipped).
 * Returns how many are still unsent afterwards (their errors are recorded on their rows). No-op
 * without SMTP_URL: the outbox is then where mail ends.
 */
export async function deliverQueued(
  deps: MailDeps,
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<{ sent: number; unsent: number }> {
  if (!deps.config.SMTP_URL || !ids.length) return { sent: 0, unsent: 0 };
  const rows = await deps.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('id', 'in', [...ids])
    .where('sent_at', 'is', null)
    .orderBy('id')
    .execute();
  return deliverRows(deps, rows, signal);
}

/** Sends these unsent outbox rows one by one (a stopped worker leaves the rest unsent). */
async function deliverRows(
  deps: MailDeps,
  rows: ReadonlyArray<{ id: number; to_address: string; subject: string; text: string; html: string | null }>,
  signal?: AbortSignal,
): Promise<{ sent: number; unsent: number }> {
  let sent = 0;
  let unsent = 0;
  for (const r of rows) {
    if (signal?.aborted) {
      unsent++;
      continue;
    }
    if (
      (await deliver(deps, r.id, { to: r.to_address, subject: r.subject, text: r.text, html: r.html ?? undefined }))
        .sent
    )
      sent++;
    else unsent++;
  }
  return { sent, unsent };
}

/** The newest messages to an address (for tests and the operator CLI). */
export async function outboxFor(db: Kysely<DB>, to: string, limit = 20) {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to.trim())
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
