// Admin-set values (the settings table: key → JSON value). Prices live in products, not here.
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { fromJson, toJson } from '../json.ts';

/** Known keys: free_queue_weeks (number of weeks a free listing waits), billboard_min_cents, vat_rates_bp ({country: basis points}). */
export async function getSetting<T>(db: Kysely<DB>, key: string, fallback: T): Promise<T> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? fromJson<T>(row.value, fallback) : fallback;
}

export async function setSetting(db: Kysely<DB>, key: string, value: unknown, now = new Date()): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: toJson(value), updated_at: now.toISOString() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: toJson(value), updated_at: now.toISOString() }))
    .execute();
}

/** Free-queue setting: a submitted free listing goes into the launch week this many weeks ahead (default 4). */
export async function freeQueueWeeks(db: Kysely<DB>): Promise<number> {
  const n = Number(await getSetting<number>(db, 'free_queue_weeks', 4));
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 4;
}
