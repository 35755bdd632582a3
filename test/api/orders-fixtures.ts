// A shop for the order tests: products with their own prices (not the demo's), settings, categories,
// and listings in every state an order cares about, owned by given users.
import type { Kysely } from 'kysely';
import type { DB } from '../../src/store/types.ts';
import { toJson } from '../../src/store/json.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import type { ListingPlan, ListingStatus } from '../../src/domain/vocabulary.ts';

export const PRICE = {
  launch: 4500,
  skip_queue: 1500,
  featured: 8000,
  done_for_you: 12000,
  launch_bundle: 20000,
  extra_categories: 700,
  relaunch: 2500,
  ai_review: 3100,
  billboard_min: 600,
  gift_card: 1000,
  tier_pack: 1100,
} as const;

export async function seedShop(db: Kysely<DB>): Promise<void> {
  const now = new Date().toISOString();
  const p = (
    code: string,
    position: number,
    extra: { options?: unknown; active?: boolean; needs_listing?: boolean; price?: number } = {},
  ) => ({
    code,
    name: `The ${code.replace(/_/g, ' ')}`,
    description: `What ${code} does.`,
    price_cents: extra.price ?? (PRICE as Record<string, number>)[code],
    needs_listing: extra.needs_listing ?? true,
    options: toJson(extra.options ?? {}),
    active: extra.active ?? true,
    position,
    updated_at: now,
  });
  await db
    .insertInto('products')
    .values([
      p('launch', 1),
      p('skip_queue', 2),
      p('featured', 3, { options: { days: 7 } }),
      p('done_for_you', 4),
      p('launch_bundle', 5),
      p('extra_categories', 6, { options: { max: 3, unit: 'category', priced_per: 'category' } }),
      p('relaunch', 7),
      p('ai_review', 8),
      p('billboard_min', 9, { options: { min_amount_cents: PRICE.billboard_min } }),
      p('retired', 10, { active: false, price: 100 }),
      p('gift_card', 11, { needs_listing: false }),
      p('tier_pack', 12, { options: { tier: ['basic', 'pro'], seats: 5 } }),
    ])
    .execute();
  await db
    .insertInto('settings')
    .values([
      { key: 'free_queue_weeks', value: toJson(4), updated_at: now },
      { key: 'billboard_min_cents', value: toJson(PRICE.billboard_min), updated_at: now },
      { key: 'vat_rates_bp', value: toJson({ DE: 1600, NL: 2100 }), updated_at: now },
    ])
    .execute();
  for (const slug of ['productivity', 'note-taking', 'developer-tools', 'design', 'marketing', 'finance'])
    await category(db, slug);
}

export interface OwnListing {
  slug: string;
  name?: string;
  status: ListingStatus;
  plan: ListingPlan;
  launch_week?: string | null;
  launched_at?: string | null;
  unlocked?: string[];
  extraCategories?: string[];
  description?: string;
}

export async function ownListing(db: Kysely<DB>, ownerId: number, f: OwnListing): Promise<number> {
  const id = await listing(db, {
    slug: f.slug,
    name: f.name ?? f.slug.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()),
    category: 'productivity',
    status: f.status,
    launch_week: f.launch_week ?? null,
    launched_at: f.launched_at === undefined ? (f.status === 'live' ? new Date().toISOString() : null) : f.launched_at,
    unlocked: f.unlocked,
    extraCategories: f.extraCategories,
    tagline: `${f.slug} tagline`,
    description: f.description ?? `The ${f.slug} product.`,
  });
  await db
    .updateTable('listings')
    .set({ owner_id: ownerId, plan: f.plan, unlocked: toJson(f.unlocked ?? []) })
    .where('id', '=', id)
    .execute();
  return id;
}

export async function addPromo(
  db: Kysely<DB>,
  code: string,
  p: {
    percent_off?: number;
    amount_off_cents?: number;
    product_codes?: string[];
    max_redemptions?: number;
    redemptions?: number;
    expires_at?: string | null;
    active?: boolean;
  },
): Promise<void> {
  await db
    .insertInto('promo_codes')
    .values({
      code,
      percent_off: p.percent_off ?? null,
      amount_off_cents: p.amount_off_cents ?? null,
      product_codes: toJson(p.product_codes ?? []),
      max_redemptions: p.max_redemptions ?? null,
      redemptions: p.redemptions ?? 0,
      expires_at: p.expires_at ?? null,
      active: p.active ?? true,
      created_at: new Date().toISOString(),
    })
    .execute();
}
