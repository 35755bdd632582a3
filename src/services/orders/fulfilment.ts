// What a paid order line does. Runs inside the payment's transaction (payment.ts payOrder),
// so an order is paid and fulfilled together or not at all; a line already fulfilled is skipped, so
// nothing is applied twice.
//
//   launch            plan paid; story, milestones and media unlocked; live at once (this week) or
//                     scheduled for the chosen week
//   skip_queue        the free listing's launch week moves to the chosen (earlier) week; still free
//   featured          'featured' unlocked (the Featured badge) and a placement on the home page and the
//                     listing's category pages for the product's days (store/repos/featured.ts)
//   extra_categories  the categories are added as extra (non-primary) categories
//   billboard_min     a billboard contribution of the line's amount (the PAID billboard ranking)
//   relaunch          launch week = the chosen week, status scheduled (goes live when the week starts)
//   launch_bundle     its parts (launch, featured, …) as above; a part done by staff leaves the line open
//   done_for_you, ai_review and any other product: work for the site team; the line stays unfulfilled
//                     (fulfilled_at null) until they mark it done with markLineFulfilled().
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../store/types.ts';
import { fromJson, toJson } from '../../store/json.ts';
import type { OrderLineRow, OrderRow, ProductRecord } from '../../store/repos/orders.ts';
import { mondayOf } from '../../domain/weeks.ts';
import { addPlacement, featuredDays } from '../../store/repos/featured.ts';

/** Sections a paid launch unlocks. */
export const LAUNCH_SECTIONS = ['story', 'milestones', 'media'] as const;
/** Products fulfilled at payment without anyone's help. */
export const AUTOMATIC = new Set(['launch', 'skip_queue', 'featured', 'extra_categories', 'billboard_min', 'relaunch']);
/** What launch_bundle contains when its product options do not say (`options.includes`: product codes). */
export const DEFAULT_BUNDLE: readonly string[] = ['launch', 'featured', 'done_for_you'];

/** The product codes a bundle stands for. */
export function bundleParts(options: Record<string, unknown>): string[] {
  const inc = options.includes;
  return Array.isArray(inc) && inc.length && inc.every((x) => typeof x === 'string')
    ? (inc as string[])
    : [...DEFAULT_BUNDLE];
}

/** How an order's line is carried out, as the order shows it: at payment, or by the site team. */
export const LINE_FULFILMENTS = ['automatic', 'by_staff'] as const;
export type LineFulfilment = (typeof LINE_FULFILMENTS)[number];

/** automatic: done at payment; staff: done by the site team; partly: a bundle with both kinds. */
export function fulfilmentKind(product: Pick<ProductRecord, 'code' | 'options'>): 'automatic' | 'staff' | 'partly' {
  if (product.code !== 'launch_bundle') return AUTOMATIC.has(product.code) ? 'automatic' : 'staff';
  const parts = bundleParts(product.options);
  const auto = parts.filter((p) => AUTOMATIC.has(p)).length;
  return auto === parts.length ? 'automatic' : auto === 0 ? 'staff' : 'partly';
}

type Trx = Transaction<DB> | Kysely<DB>;

async function addUnlocked(trx: Trx, listingId: number, sections: readonly string[], at: string): Promise<void> {
  const row = await trx.selectFrom('listings').select('unlocked').where('id', '=', listingId).executeTakeFirstOrThrow();
  const current = fromJson<string[]>(row.unlocked, []);
  const next = [...current, ...sections.filter((s) => !current.includes(s))];
  await trx
    .updateTable('listings')
    .set({ unlocked: toJson(next), updated_at: at })
    .where('id', '=', listingId)
    .execute();
}

async function applyLaunch(trx: Trx, listingId: number, week: string | null, now: Date): Promise<void> {
  const at = now.toISOString();
  await addUnlocked(trx, listingId, LAUNCH_SECTIONS, at);
  if (week && week > mondayOf(now)) {
    await trx
      .updateTable('listings')
      .set({ plan: 'paid', status: 'scheduled', launch_week: week, launched_at: null, updated_at: at })
      .where('id', '=', listingId)
      .execute();
  } else {
    await trx
      .updateTable('listings')
      .set({ plan: 'paid', status: 'live', launch_week: mondayOf(now), launched_at: at, updated_at: at })
      .where('id', '=', listingId)
      .execute();
  }
}

/** Applies one product (or bundle part) to its listing. Returns false when it is staff work. */
async function applyPart(
  trx: Trx,
  code: string,
  order: Pick<OrderRow, 'id'>,
  line: OrderLineRow,
  now: Date,
  products: ReadonlyMap<string, Record<string, unknown>>,
): Promise<boolean> {
  const at = now.toISOString();
  const listingId = line.listing_id;
  switch (code) {
    case 'launch':
      if (listingId === null) return false;
      await applyLaunch(trx, listingId, line.week, now);
      return true;
    case 'skip_queue':
      if (listingId === null || !line.week) return false;
      await trx
        .updateTable('listings')
        .set({ launch_week: line.week, updated_at: at })
        .where('id', '=', listingId)
        .execute();
      return true;
    case 'featured':
      if (listingId === null) return false;
      await addUnlocked(trx, listingId, ['featured'], at);
      await addPlacement(trx, listingId, order.id, featuredDays(line.options, products.get('featured') ?? {}), now);
      return true;
    case 'extra_categories': {
      if (listingId === null) return false;
      const cats = await trx
        .selectFrom('categories')
        .select('id')
        .where('slug', 'in', line.categories.length ? line.categories : ['\u0000'])
        .execute();
      for (const c of cats) {
        await trx
          .insertInto('listing_categories')
          .values({ listing_id: listingId, category_id: c.id, is_primary: false })
          .onConflict((oc) => oc.columns(['listing_id', 'category_id']).doNothing())
          .execute();
      }
      await addUnlocked(trx, listingId, ['extra_categories'], at);
      return true;
    }
    case 'billboard_min':
      if (listingId === null) return false;
      await trx
        .insertInto('billboard_contributions')
        .values({ listing_id: listingId, amount_cents: line.amount_cents, order_id: order.id, created_at: at })
        .execute();
      return true;
    case 'relaunch':
      if (listingId === null || !line.week) return false;
      await trx
        .updateTable('listings')
        .set({ status: 'scheduled', launch_week: line.week, updated_at: at })
        .where('id', '=', listingId)
        .execute();
      return true;
    default:
      return false;
  }
}

/** Fulfils the lines of a paid order (inside the payment's transaction). Lines already fulfilled are skipped. */
export async function fulfilOrderLines(
  trx: Trx,
  order: Pick<OrderRow, 'id' | 'status'>,
  lines: readonly OrderLineRow[],
  now: Date,
): Promise<void> {
  if (order.status !== 'paid') throw new Error('only a paid order is fulfilled');
  const products = new Map(
    (await trx.selectFrom('products').select(['code', 'options']).execute()).map((p) => [
      p.code,
      fromJson<Record<string, unknown>>(p.options, {}),
    ]),
  );
  const at = now.toISOString();
  for (const line of lines) {
    if (line.fulfilled_at !== null) continue;
    const parts =
      line.product_code === 'launch_bundle' ? bundleParts(products.get('launch_bundle') ?? {}) : [line.product_code];
    let done = true;
    for (const part of parts) done = (await applyPart(trx, part, order, line, now, products)) && done;
    if (done)
      await trx
        .updateTable('order_lines')
        .set({ fulfilled_at: at })
        .where('id', '=', line.id)
        .where('fulfilled_at', 'is', null)
        .execute();
  }
}

/** The site team marks a staff line (done_for_you, ai_review, …) as done. False when it was not a line of a paid order or already done. */
export async function markLineFulfilled(db: Kysely<DB>, lineId: number, now = new Date()): Promise<boolean> {
  const paid = db.selectFrom('orders').select('id').where('status', '=', 'paid');
  const r = await db
    .updateTable('order_lines')
    .set({ fulfilled_at: now.toISOString() })
    .where('id', '=', lineId)
    .where('fulfilled_at', 'is', null)
    .where('order_id', 'in', paid)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
