// Listings with real text for search and profile tests (search, get_listing, alternatives, compare).
import type { Kysely } from 'kysely';
import type { DB } from '../../src/store/types.ts';
import { toJson } from '../../src/store/json.ts';
import type { ListingStatus } from '../../src/domain/vocabulary.ts';

export async function category(
  db: Kysely<DB>,
  slug: string,
  opts: { name?: string; parent?: string; attributes?: unknown[] } = {},
): Promise<number> {
  const parentId = opts.parent
    ? (await db.selectFrom('categories').select('id').where('slug', '=', opts.parent).executeTakeFirstOrThrow()).id
    : null;
  const row = await db
    .insertInto('categories')
    .values({
      slug,
      name: opts.name ?? slug.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase()),
      parent_id: parentId,
      description: `Products for ${slug}.`,
      faqs: '[]',
      attributes: toJson(opts.attributes ?? []),
      position: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface TextListing {
  slug: string;
  name: string;
  tagline?: string | null;
  description?: string | null;
  keywords?: string[];
  category: string;
  extraCategories?: string[];
  status?: ListingStatus;
  domain?: string;
  url?: string;
  stage?: string | null;
  country?: string | null;
  pricing_model?: string | null;
  pricing_summary?: string | null;
  founded_year?: number | null;
  city?: string | null;
  launch_week?: string | null;
  launched_at?: string | null;
  votes?: number;
  views?: number;
  followers?: number;
  facts?: Record<string, unknown>;
  unlocked?: string[];
  media?: unknown[];
  not_found?: string[];
  features?: string[];
  socials?: Record<string, string>;
  faqs?: Array<{ question: string; answer: string }>;
  domain_rating?: number | null;
  demo_video_url?: string | null;
}

export async function listing(db: Kysely<DB>, f: TextListing): Promise<number> {
  const now = new Date().toISOString();
  const cat = (await db.selectFrom('categories').select('id').where('slug', '=', f.category).executeTakeFirstOrThrow())
    .id;
  const status = f.status ?? 'live';
  const domain = f.domain ?? `${f.slug}.example`;
  const row = await db
    .insertInto('listings')
    .values({
      slug: f.slug,
      owner_id: null,
      draft_id: null,
      name: f.name,
      url: f.url ?? `https://${domain}/`,
      domain,
      tagline: f.tagline ?? null,
      short_description: null,
      description: f.description ?? null,
      stage: f.stage ?? 'launched',
      pricing_model: f.pricing_model ?? 'Freemium',
      pricing_summary: f.pricing_summary ?? null,
      country: f.country ?? 'US',
      city: f.city ?? null,
      founded_year: f.founded_year === undefined ? 2021 : f.founded_year,
      contact_email: null,
      demo_video_url: f.demo_video_url ?? null,
      logo_url: null,
      features: toJson(f.features ?? []),
      usps: '[]',
      keywords: toJson(f.keywords ?? []),
      tags: '[]',
      socials: toJson(f.socials ?? {}),
      faqs: toJson(f.faqs ?? []),
      not_found: toJson(f.not_found ?? []),
      facts: toJson(f.facts ?? {}),
      media: toJson(f.media ?? []),
      headline: null,
      summary: null,
      seo_title: null,
      seo_description: null,
      status,
      plan: f.unlocked?.length ? ('paid' as const) : ('free' as const),
      launch_week: f.launch_week ?? null,
      launched_at: f.launched_at === undefined ? (status === 'live' ? now : null) : f.launched_at,
      primary_category_id: cat,
      unlocked: toJson(f.unlocked ?? []),
      verified_at: null,
      badge_seen_at: null,
      domain_rating: f.domain_rating ?? null,
      revenue_cents: null,
      votes_count: f.votes ?? 0,
      followers_count: f.followers ?? 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (f.views)
    await db.updateTable('listing_view_totals').set({ views: f.views }).where('listing_id', '=', row.id).execute();
  await db
    .insertInto('listing_categories')
    .values({ listing_id: row.id, category_id: cat, is_primary: true })
    .execute();
  for (const extra of f.extraCategories ?? []) {
    const id = (await db.selectFrom('categories').select('id').where('slug', '=', extra).executeTakeFirstOrThrow()).id;
    await db
      .insertInto('listing_categories')
      .values({ listing_id: row.id, category_id: id, is_primary: false })
      .execute();
  }
  return row.id;
}

/** The text corpus shared by the search tests (engine-independent expectations). */
export async function searchCorpus(db: Kysely<DB>): Promise<void> {
  await category(db, 'finance');
  await category(db, 'productivity');
  await category(db, 'food');
  await category(db, 'creative');
  const L = (f: Omit<TextListing, 'category'> & { category?: string }) =>
    listing(db, { category: 'productivity', ...f });
  await L({
    slug: 'invoicely',
    name: 'Invoicely',
    tagline: 'Simple invoicing for freelancers',
    description: 'Send invoices and get paid faster. Reminders chase late payments for you.',
    keywords: ['billing', 'finance'],
    category: 'finance',
    votes: 40,
  });
  await L({
    slug: 'taskpilot',
    name: 'Taskpilot',
    tagline: 'Project management for remote teams',
    description: 'Plan sprints, track tasks and ship on time.',
    keywords: ['productivity', 'agile'],
    votes: 25,
  });
  await L({
    slug: 'cafe-creme',
    name: 'Café Crème',
    tagline: 'Coffee shop loyalty cards',
    description: 'Reward regulars with digital stamps at your café.',
    keywords: ['loyalty', 'restaurants'],
    category: 'food',
    votes: 12,
  });
  await L({
    slug: 'photon-studio',
    name: 'Photon Studio',
    tagline: 'Photo editing in the browser',
    description: 'Retouch photos with AI filters and export for print.',
    keywords: ['photography', 'ai'],
    category: 'creative',
    votes: 31,
  });
  await L({
    slug: 'mailbird-pro',
    name: 'Mailbird Pro',
    tagline: 'Email marketing for newsletters',
    description: 'Design newsletters, grow subscribers and track opens. Works with e-mail providers.',
    keywords: ['email', 'marketing'],
    votes: 18,
  });
  await L({
    slug: 'ledgerline',
    name: 'Ledgerline',
    tagline: 'Bookkeeping for small businesses',
    description: 'Automatic bank feeds reconcile expenses. Export reports for your accountant; invoices included.',
    keywords: ['accounting', 'finance'],
    category: 'finance',
    votes: 22,
  });
  await L({
    slug: 'tram-planner',
    name: 'Straßenbahn Planner',
    tagline: 'Tram timetables for Zürich commuters',
    description: 'Live departures and delays for every stop.',
    keywords: ['transit'],
    votes: 3,
  });
  await L({
    slug: 'hidden-draft',
    name: 'Secretword Draft',
    tagline: 'Not public yet',
    description: 'A draft that search must never show: zanzibarian.',
    status: 'draft',
  });
}
