/**
 * The classifier's training data, read from the directory: the category tree the admin maintains
 * and the text of the live listings filed under each category (primary and extra categories).
 * Rebuilt at most every `ttlMs` (default 5 min) per database, so a new category or a listing that
 * went live is learnt without a restart.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { buildCategoryModel, type CategoryInput, type CategoryModel, type ListingInput } from './classify.ts';

const cache = new WeakMap<object, { at: number; model: Promise<CategoryModel> }>();

function featuresText(v: unknown): string {
  let x = v;
  if (typeof x === 'string') {
    try {
      x = JSON.parse(x);
    } catch {
      return x as string;
    }
  }
  return Array.isArray(x) ? x.filter((s) => typeof s === 'string').join('. ') : '';
}

/** The questions and answers of a category's FAQ (part of the tree the admin writes). */
function faqText(v: unknown): string {
  let x = v;
  if (typeof x === 'string') {
    try {
      x = JSON.parse(x);
    } catch {
      return '';
    }
  }
  if (!Array.isArray(x)) return '';
  return x
    .map((q) =>
      q && typeof q === 'object'
        ? `${(q as { question?: string }).question ?? ''} ${(q as { answer?: string }).answer ?? ''}`
        : '',
    )
    .join(' ');
}

async function load(db: Kysely<DB>): Promise<CategoryModel> {
  const cats = await db
    .selectFrom('categories')
    .select(['id', 'slug', 'name', 'description', 'parent_id', 'faqs'])
    .execute();
  const slugOf = new Map(cats.map((c) => [Number(c.id), c.slug]));
  const categories: CategoryInput[] = cats.map((c) => ({
    slug: c.slug,
    name: c.name,
    description: `${c.description ?? ''} ${faqText(c.faqs)}`,
    parent: c.parent_id === null ? null : (slugOf.get(Number(c.parent_id)) ?? null),
  }));
  const rows = await db
    .selectFrom('listings')
    .select(['id', 'name', 'tagline', 'short_description', 'description', 'features', 'primary_category_id'])
    .where('status', '=', 'live')
    .limit(20_000)
    .execute();
  const extra = await db
    .selectFrom('listing_categories')
    .innerJoin('listings', 'listings.id', 'listing_categories.listing_id')
    .select(['listing_categories.listing_id as lid', 'listing_categories.category_id as cid'])
    .where('listings.status', '=', 'live')
    .execute();
  const extraOf = new Map<number, string[]>();
  for (const e of extra) {
    const s = slugOf.get(Number(e.cid));
    if (s) extraOf.set(Number(e.lid), [...(extraOf.get(Number(e.lid)) ?? []), s]);
  }
  const listings: ListingInput[] = rows.map((r) => ({
    categories: [
      ...(r.primary_category_id === null ? [] : [slugOf.get(Number(r.primary_category_id)) ?? '']),
      ...(extraOf.get(Number(r.id)) ?? []),
    ].filter(Boolean),
    text: [
      r.name,
      r.tagline ?? '',
      r.short_description ?? '',
      (r.description ?? '').slice(0, 600),
      featuresText(r.features),
    ].join('. '),
  }));
  return buildCategoryModel(categories, listings);
}

/** The category model of a directory database (cached for `ttlMs`). */
export function categoryModelOf(db: Kysely<DB>, now = Date.now(), ttlMs = 5 * 60_000): Promise<CategoryModel> {
  const hit = cache.get(db);
  if (hit && now - hit.at < ttlMs) return hit.model;
  const model = load(db);
  cache.set(db, { at: now, model });
  model.catch(() => cache.delete(db));
  return model;
}
