// Demo content: a deterministic, realistic directory (seeded PRNG; dates relative to "now", so the
// demo always has a current launch week). Everything is written in one transaction.
//
//   seedIfEmpty(store)        seeds only when the categories table is empty (start-up)
//   seedDemo(store, opts?)    writes the demo content (opts.now, opts.seed, opts.publicUrl)
import { refreshProfiles } from '../repos/profile-cache.ts';
import { sql, type Kysely } from 'kysely';
import type { Store } from '../connect.ts';
import { fromJson, toJson } from '../json.ts';
import { createRng, slugify } from './prng.ts';
import { TREE, type ChildCategory, type Concept, type ParentCategory } from './catalog-tree.ts';
import { BACKGROUNDS, FIRST_NAMES, FOUNDER_TITLES, INTERESTS, LAST_NAMES, MOTIVATIONS, PLACES } from './people.ts';
import { POSTS } from './blog.ts';
import { INTERVIEW_QUESTIONS, PRODUCTS, SETTINGS, SISTER_SITES } from './site-data.ts';
import {
  INTERVIEW_ANSWERS,
  describe,
  listJoin,
  lowerFirst,
  pricingSummary,
  reviewBody,
  storyFor,
  updateFor,
  usps,
  type PricingModel,
} from './text.ts';
import { DAY_MS, WEEK_MS, addWeeks, dayStart, mondayOf, toDateString } from '../../domain/weeks.ts';
import { computeAwards } from '../repos/awards.ts';
import { seedProgrammes } from './programmes.ts';
import { recountAllVotes } from '../repos/votes.ts';
import { seedVoteBurst } from './vote-burst.ts';
import { directoryIsEmpty } from './empty.ts';

export interface SeedOptions {
  /** The moment the demo is built around (default: now). */
  now?: Date;
  /** PRNG seed (default: a fixed value, so every run is the same for the same `now`). */
  seed?: number;
  /** URL of this site, stored as the `launchlist` row of the sites table. */
  publicUrl?: string;
}

export interface SeedReport {
  categories: number;
  listings: number;
  live: number;
  scheduled: number;
  awaiting_badge: number;
  drafts: number;
  users: number;
  founders: number;
  votes: number;
  awards: number;
  programme_entries: number;
  blog_posts: number;
  ms: number;
}

const DEFAULT_SEED = 0x1a11c4;
const VOTERS = 640;
const HOUR = 3_600_000;

/** Seeds the demo content when the categories table is empty. Returns true when it seeded. */
export async function seedIfEmpty(store: Store, opts: SeedOptions = {}): Promise<boolean> {
  if (!(await directoryIsEmpty(store.db))) return false;
  try {
    await seedDemo(store, opts);
    return true;
  } catch (e) {
    // Another process may have seeded at the same moment (unique slugs): then there is nothing to do.
    if (!(await directoryIsEmpty(store.db))) return false;
    throw e;
  }
}

type Row = Record<string, unknown>;

interface PlannedListing {
  row: Row;
  concept: Concept;
  parent: ParentCategory;
  child: ChildCategory;
  extraCategories: string[];
  founders: number[]; // indexes into plan.founders
  voteTimes: number[]; // ms
  followers: number;
  views: Array<[string, number]>; // day, count
}

interface PlannedFounder {
  slug: string;
  name: string;
  email: string;
  title: string;
  bio: string;
  country: string;
  socials: Row;
  listings: number;
  createdAt: number;
}

/** Writes the demo content in one transaction. */
export async function seedDemo(store: Store, opts: SeedOptions = {}): Promise<SeedReport> {
  const started = performance.now();
  const now = opts.now ?? new Date();
  const rng = createRng(opts.seed ?? DEFAULT_SEED);
  const nowMs = now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const thisMonday = mondayOf(now);
  const _thisMondayMs = dayStart(thisMonday).getTime();
  const todayMs = dayStart(now).getTime();

  // ------------------------------------------------------------ listings: statuses and weeks
  const concepts: Array<{ concept: Concept; parent: ParentCategory; child: ChildCategory }> = [];
  for (const parent of TREE)
    for (const child of parent.children)
      for (const concept of child.products) concepts.push({ concept, parent, child });
  const forced = concepts.filter((c) => c.child.slug === 'smart-home');
  const rest = rng.shuffle(concepts.filter((c) => c.child.slug !== 'smart-home'));
  type Slot = { status: string; week: string | null };
  const plan: Array<{ c: (typeof concepts)[number]; slot: Slot }> = [];
  forced.forEach((c, i) =>
    plan.push({
      c,
      slot:
        i === 0
          ? { status: 'scheduled', week: addWeeks(thisMonday, 2) }
          : { status: 'awaiting_badge', week: addWeeks(thisMonday, 3) },
    }),
  );
  rest.forEach((c, i) => {
    let slot: Slot;
    if (i < 4) slot = { status: 'draft', week: null };
    else if (i < 8) slot = { status: 'awaiting_badge', week: addWeeks(thisMonday, 2 + (i % 2)) };
    else if (i < 20) slot = { status: 'scheduled', week: addWeeks(thisMonday, 1 + (i % 3)) };
    else slot = { status: 'live', week: addWeeks(thisMonday, -((i - 20) % 13)) };
    plan.push({ c, slot });
  });

  // ------------------------------------------------------------ people
  const usedNames = new Set<string>();
  const newPerson = () => {
    for (;;) {
      const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
      if (!usedNames.has(name)) {
        usedNames.add(name);
        return name;
      }
    }
  };
  const founders: PlannedFounder[] = [];
  const usedEmails = new Set<string>();
  const emailFor = (name: string, domain: string) => {
    const [first, last] = name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .split(' ');
    for (const cand of [
      `${first}@${domain}`,
      `${first}.${last}@${domain}`,
      `${first}.${last}.${usedEmails.size}@${domain}`,
    ]) {
      if (!usedEmails.has(cand)) {
        usedEmails.add(cand);
        return cand;
      }
    }
    throw new Error('unreachable');
  };

  // ------------------------------------------------------------ build listings
  const listings: PlannedListing[] = [];
  const currentWeekLive: PlannedListing[] = [];
  for (const { c, slot } of plan) {
    const [name, tagline, features] = c.concept;
    const slug = slugify(name);
    const domain = `${slug.replace(/-/g, '')}.example`;
    const url = `https://${domain}`;
    const [country, city] = rng.pick(PLACES);
    const model = rng.pick<PricingModel>([
      'Freemium',
      'Freemium',
      'Freemium',
      'Freemium',
      'Subscription',
      'Subscription',
      'Subscription',
      'Open source',
      'Open source',
      'Free',
      'One-time',
    ]);
    const cityKnown = rng.chance(0.82);
    const founded = rng.chance(0.88)
      ? rng.pick(
          [2016, 2018, 2019, 2020, 2021, 2022, 2022, 2023, 2023, 2024, 2024, 2025, 2025, 2026].filter(
            (y) => y <= now.getUTCFullYear(),
          ),
        )
      : null;

    const facts: Row = {};
    const openSource = model === 'Open source' || rng.chance(0.12);
    for (const key of c.parent.attributes) {
      if (!rng.chance(0.78)) continue;
      switch (key) {
        case 'open_source':
          facts.open_source = openSource;
          break;
        case 'self_hostable':
          facts.self_hostable = openSource ? rng.chance(0.8) : rng.chance(0.1);
          break;
        case 'free_tier':
          facts.free_tier = ['Free', 'Freemium', 'Open source'].includes(model);
          break;
        case 'platforms':
          facts.platforms = [
            'web',
            ...rng.sample(['macos', 'windows', 'linux', 'ios', 'android'], rng.int(0, 4)),
          ].sort();
          break;
        case 'api':
          facts.api = rng.chance(0.6);
          break;
        case 'cli':
          facts.cli = rng.chance(0.45);
          break;
        case 'offline_mode':
          facts.offline_mode = rng.chance(0.35);
          break;
        case 'end_to_end_encryption':
          facts.end_to_end_encryption = rng.chance(0.3);
          break;
        case 'gdpr_compliant':
          facts.gdpr_compliant = rng.chance(0.75);
          break;
        case 'white_label':
          facts.white_label = rng.chance(0.2);
          break;
        case 'real_time_collaboration':
          facts.real_time_collaboration = rng.chance(0.6);
          break;
        case 'multi_currency':
          facts.multi_currency = rng.chance(0.55);
          break;
        case 'sso':
          facts.sso = rng.chance(0.4);
          break;
        case 'headless':
          facts.headless = rng.chance(0.3);
          break;
        case 'bring_your_own_model':
          facts.bring_your_own_model = rng.chance(0.35);
          break;
      }
    }

    // launch time
    let launchedAt: number | null = null;
    if (slot.status === 'live') {
      const weekStart = dayStart(slot.week as string).getTime();
      const room = Math.max(0, Math.min(7 * DAY_MS, nowMs - weekStart) - 60_000);
      const offset = rng.chance(0.65)
        ? Math.min(room, rng.int(0, 9 * 60) * 60_000)
        : Math.floor(rng.next() * Math.min(room, 5 * DAY_MS));
      launchedAt = weekStart + offset;
    }
    const paid = slot.status === 'scheduled' || (slot.status === 'live' && rng.chance(0.36));
    const plan_ = slot.status === 'draft' ? 'none' : paid ? 'paid' : 'free';
    const unlocked = paid ? ['story', 'milestones', 'media', ...(rng.chance(0.22) ? ['featured'] : [])] : [];
    const createdAt =
      launchedAt !== null
        ? launchedAt - rng.int(3, 40) * DAY_MS
        : nowMs - rng.int(1, 20) * DAY_MS - rng.int(0, 23) * HOUR;
    const notFound = ['demo_video_url', ...(cityKnown ? [] : ['city']), ...(founded ? [] : ['founded_year'])];
    const handle = slug.replace(/-/g, '');
    const socials: Row = {
      website: url,
      x: `https://x.com/${handle}`,
      linkedin: `https://www.linkedin.com/company/${slug}`,
    };
    if (openSource) socials.github = `https://github.com/${handle}/${handle}`;
    const pricing = pricingSummary(model, rng); // one summary, so the FAQ and the pricing section agree
    const listingFaqs = [
      {
        question: `Is there a free plan for ${name}?`,
        answer:
          model === 'Subscription'
            ? `No free plan, but every plan starts with a 14-day free trial.`
            : model === 'One-time'
              ? `No, ${name} is a one-time purchase; a free trial is available on the website.`
              : `Yes. ${pricing}.`,
      },
    ];
    if (typeof facts.self_hostable === 'boolean')
      listingFaqs.push({
        question: `Can I self-host ${name}?`,
        answer: facts.self_hostable
          ? `Yes, ${name} can run on your own servers; the documentation covers Docker and Kubernetes set-ups.`
          : `No, ${name} is offered as a hosted service only.`,
      });
    if (Array.isArray(facts.platforms))
      listingFaqs.push({
        question: `Which platforms does ${name} support?`,
        answer: `${name} runs on ${listJoin((facts.platforms as string[]).map((p) => ({ web: 'the web', macos: 'macOS', windows: 'Windows', linux: 'Linux', ios: 'iOS', android: 'Android' })[p] ?? p))}.`,
      });

    const row: Row = {
      slug,
      owner_id: null,
      draft_id: null,
      name,
      url,
      domain,
      tagline,
      short_description:
        `${tagline}. ${name} helps ${c.child.audience} with ${lowerFirst(features[0])} and ${lowerFirst(features[1])}.`.slice(
          0,
          300,
        ),
      description: describe(
        {
          name,
          tagline,
          features,
          audience: c.child.audience,
          problem: c.child.problem,
          model,
          city: cityKnown ? city : null,
          founded,
        },
        rng,
      ),
      stage:
        slot.status === 'draft'
          ? rng.pick(['idea', 'mvp'])
          : slot.status === 'live'
            ? rng.pick(['launched', 'launched', 'growing', 'growing', 'mvp'])
            : rng.pick(['mvp', 'launched']),
      pricing_model: model,
      pricing_summary: pricing,
      country,
      city: cityKnown ? city : null,
      founded_year: founded,
      contact_email: `hello@${domain}`,
      demo_video_url: null,
      logo_url: null,
      features: toJson(features),
      usps: toJson(usps(facts, rng)),
      keywords: toJson([
        c.child.name.toLowerCase(),
        ...features.slice(0, 3).map((f) => lowerFirst(f).split(' ').slice(0, 3).join(' ')),
      ]),
      tags: toJson([c.child.slug, c.parent.slug]),
      socials: toJson(socials),
      faqs: toJson(listingFaqs),
      not_found: toJson(notFound),
      facts: toJson(facts),
      media: toJson(
        paid
          ? [
              { type: 'image', url: `${url}/media/dashboard.png`, alt: `${name} dashboard` },
              { type: 'image', url: `${url}/media/${slugify(features[0])}.png`, alt: `${features[0]} in ${name}` },
            ]
          : [],
      ),
      headline: null,
      summary: null,
      seo_title: `${name} — ${tagline}`.slice(0, 200),
      seo_description: `${tagline}. ${c.child.name} for ${c.child.audience}.`.slice(0, 320),
      status: slot.status,
      plan: plan_,
      launch_week: slot.week,
      launched_at: launchedAt !== null ? iso(launchedAt) : null,
      primary_category_id: null,
      unlocked: toJson(unlocked),
      verified_at:
        slot.status !== 'draft' && rng.chance(0.35)
          ? iso(Math.min(nowMs - HOUR, createdAt + rng.int(1, 10) * DAY_MS))
          : null,
      badge_seen_at:
        plan_ === 'free' && slot.status === 'live' && launchedAt !== null
          ? iso(launchedAt - rng.int(2, 72) * HOUR)
          : null,
      domain_rating: null,
      revenue_cents: null,
      votes_count: 0,
      followers_count: 0,
      created_at: iso(createdAt),
      updated_at: iso(Math.min(nowMs, Math.max(createdAt, launchedAt ?? createdAt) + rng.int(0, 5) * DAY_MS)),
    };
    const pl: PlannedListing = {
      row,
      concept: c.concept,
      parent: c.parent,
      child: c.child,
      extraCategories: [],
      founders: [],
      voteTimes: [],
      followers: 0,
      views: [],
    };

    // extra categories (paid listings)
    if (paid && rng.chance(0.4)) {
      const siblings = c.parent.children.filter((ch) => ch.slug !== c.child.slug && ch.products.length);
      pl.extraCategories = rng.sample(siblings, rng.int(1, 2)).map((ch) => ch.slug);
    }

    // founders
    const count = rng.chance(0.6) ? 1 : rng.chance(0.88) ? 2 : 3;
    for (let k = 0; k < count; k++) {
      const serial =
        k === 0 && founders.length > 10 && rng.chance(0.08)
          ? founders.find((f) => f.listings === 1 && rng.chance(0.3))
          : undefined;
      if (serial) {
        serial.listings++;
        pl.founders.push(founders.indexOf(serial));
        continue;
      }
      const fname = newPerson();
      const first = fname.split(' ')[0];
      const title =
        k === 0
          ? rng.pick(count === 1 ? ['Founder & CEO', 'Founder', 'Solo founder'] : ['Co-founder & CEO', 'Founder & CEO'])
          : rng.pick(FOUNDER_TITLES.filter((t) => t.startsWith('Co-founder')));
      const place = k === 0 || rng.chance(0.75) ? [country, city] : rng.pick(PLACES);
      const fslug = slugify(fname);
      const bio = `${fname} is ${lowerFirst(title)} of ${name}. Before that, ${first} ${rng.pick(BACKGROUNDS)}. ${first} ${rng.pick(MOTIVATIONS).replace('{product}', name)}. ${rng.pick(INTERESTS)}`;
      const fsocials: Row = {
        linkedin: `https://www.linkedin.com/in/${fslug}`,
        x: `https://x.com/${fslug.replace(/-/g, '')}`,
      };
      if (c.parent.slug === 'developer-tools' || openSource)
        fsocials.github = `https://github.com/${fslug.replace(/-/g, '')}`;
      founders.push({
        slug: fslug,
        name: fname,
        email: emailFor(fname, domain),
        title,
        bio,
        country: place[0],
        socials: fsocials,
        listings: 1,
        createdAt: createdAt - rng.int(1, 30) * DAY_MS,
      });
      pl.founders.push(founders.length - 1);
    }
    listings.push(pl);
    if (slot.status === 'live' && slot.week === thisMonday) currentWeekLive.push(pl);
  }

  // Two of this week's launches went live today (so the `today` section has something).
  for (const pl of currentWeekLive.slice(0, 2)) {
    const t = todayMs + Math.floor(rng.next() * Math.max(0, nowMs - todayMs - 60_000));
    pl.row.launched_at = iso(Math.max(dayStart(thisMonday).getTime(), t));
  }

  // ------------------------------------------------------------ votes, follows, views
  for (const pl of listings) {
    if (pl.row.status !== 'live') continue;
    const launched = Date.parse(pl.row.launched_at as string);
    const weekEnd = dayStart(pl.row.launch_week as string).getTime() + WEEK_MS;
    const popularity = rng.next() ** 2.2;
    let target = 4 + Math.floor(popularity * 300) + rng.int(0, 12);
    if (weekEnd > nowMs) target = Math.floor(target * Math.min(1, Math.max(0.05, (nowMs - launched) / (5 * DAY_MS))));
    target = Math.min(target, VOTERS);
    for (let v = 0; v < target; v++) {
      let t: number;
      if (weekEnd > nowMs) t = launched + rng.next() ** 1.6 * Math.max(0, nowMs - launched - 1000);
      else if (rng.chance(0.74)) {
        t = launched - Math.log(1 - rng.next()) * 1.6 * DAY_MS;
        if (t >= weekEnd) t = launched + rng.next() * (weekEnd - launched - 1000);
      } else t = weekEnd + rng.next() * Math.max(0, nowMs - weekEnd - 1000);
      pl.voteTimes.push(Math.floor(t));
    }
    pl.row.votes_count = pl.voteTimes.length;
    pl.followers = Math.min(VOTERS, Math.floor(pl.voteTimes.length * (0.08 + rng.next() * 0.3)) + rng.int(0, 4));
    pl.row.followers_count = pl.followers;
    // views: one row per day from launch to today, the last 28 days at most (the first row carries older views)
    const days = Math.max(1, Math.floor((todayMs - dayStart(new Date(launched)).getTime()) / DAY_MS) + 1);
    const shown = Math.min(days, 28);
    const totalViews = pl.voteTimes.length * rng.int(8, 30) + rng.int(40, 400);
    let remaining = totalViews;
    for (let d = shown - 1; d >= 0; d--) {
      const day = toDateString(new Date(todayMs - d * DAY_MS));
      const n = d === shown - 1 ? 0 : Math.floor((remaining / (d + 2)) * (0.6 + rng.next() * 0.8));
      pl.views.push([day, n]);
      remaining -= n;
    }
    pl.views[0][1] += remaining; // oldest row in the window carries the rest (the total is their sum)
  }

  // ------------------------------------------------------------ paid extras, ratings, revenue
  const live = listings.filter((l) => l.row.status === 'live');
  const months = (n: number) => {
    const out: string[] = [];
    for (let i = n; i >= 1; i--) {
      const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
      out.push(d.toISOString().slice(0, 7));
    }
    return out;
  };
  const drHistory: Array<[PlannedListing, string, number]> = [];
  const revenue: Array<[PlannedListing, string, number, boolean]> = [];
  for (const pl of live) {
    if (rng.chance(0.7)) {
      let dr = rng.int(4, 72);
      const drift = rng.pick([-2, -1, 0, 1, 1, 2, 3]);
      for (const m of months(6)) {
        dr = Math.max(0, Math.min(100, dr + drift + rng.int(-1, 2)));
        drHistory.push([pl, `${m}-01`, dr]);
      }
      pl.row.domain_rating = dr;
    }
    if (rng.chance(0.3)) {
      let cents = rng.int(40, 4000) * 1000;
      const verified = rng.chance(0.5);
      for (const m of months(6)) {
        cents = Math.max(0, Math.round(cents * (0.96 + rng.next() * 0.14)));
        revenue.push([pl, m, cents, verified]);
      }
      pl.row.revenue_cents = cents;
    }
  }
  // Billboard: mostly listings with modest vote counts — money does not buy community rank.
  const byVotes = [...live].sort((a, b) => Number(a.row.votes_count) - Number(b.row.votes_count));
  const billboardListings = [
    ...rng.sample(byVotes.slice(0, Math.floor(byVotes.length / 2)), 8),
    ...rng.sample(byVotes.slice(Math.floor(byVotes.length / 2)), 4),
  ];
  const billboard: Array<[PlannedListing, number, number]> = [];
  for (const pl of billboardListings) {
    const launched = Date.parse(pl.row.launched_at as string);
    for (let k = rng.int(1, 3); k > 0; k--)
      billboard.push([
        pl,
        rng.pick([500, 1000, 2500, 5000, 10000, 15000, 25000, 50000]),
        launched + Math.floor(rng.next() * Math.max(HOUR, nowMs - launched - HOUR)),
      ]);
  }

  // ------------------------------------------------------------ write
  const report = await store.db.transaction().execute(async (trx) => {
    // biome-ignore lint/suspicious/noExplicitAny: bulk inserts over many tables, typed by the rows built above
    const db = trx as unknown as Kysely<any>;
    const insert = async (table: string, rows: Row[], chunk = 500) => {
      for (let i = 0; i < rows.length; i += chunk)
        await db
          .insertInto(table)
          .values(rows.slice(i, i + chunk))
          .execute();
    };
    const insertReturning = async (
      table: string,
      rows: Row[],
      key: string,
      chunk = 200,
    ): Promise<Map<string, number>> => {
      const out = new Map<string, number>();
      for (let i = 0; i < rows.length; i += chunk) {
        const got = await db
          .insertInto(table)
          .values(rows.slice(i, i + chunk))
          .returning(['id', key])
          .execute();
        for (const r of got) out.set(String(r[key]), Number(r.id));
      }
      return out;
    };

    // categories
    const parentIds = await insertReturning(
      'categories',
      TREE.map((p, i) => ({
        slug: p.slug,
        name: p.name,
        parent_id: null,
        description: p.description,
        position: i,
        faqs: toJson([
          { question: p.faq[0], answer: p.faq[1] },
          {
            question: `How are ${p.name} listings ranked?`,
            answer:
              'By community votes from people signed in on the site — weekly during launch weeks and all time. Paid placements are labelled as paid and never change community rankings.',
          },
        ]),
        attributes: toJson(p.attributes),
      })),
      'slug',
    );
    const childRows: Row[] = [];
    for (const p of TREE)
      p.children.forEach((c, i) =>
        childRows.push({
          slug: c.slug,
          name: c.name,
          parent_id: parentIds.get(p.slug),
          description: c.description,
          position: i,
          faqs: toJson([
            { question: c.faq[0], answer: c.faq[1] },
            {
              question: `How are products in ${c.name} ranked?`,
              answer: `Most voted first. Votes come only from people on the site; billboard money never changes the order. Filter ${c.name} by facts such as ${listJoin(p.attributes.slice(0, 3).map((a) => a.replace(/_/g, ' ')))} to narrow the list.`,
            },
            {
              question: `How do I add my product to ${c.name}?`,
              answer: `Submit your website, pick ${c.name} as the primary category in the draft, and publish on the free plan or with a paid launch. Paid listings can add up to three more categories.`,
            },
          ]),
          attributes: toJson(p.attributes),
        }),
      );
    const childIds = await insertReturning('categories', childRows, 'slug');
    const categoryId = (slug: string) => childIds.get(slug) ?? (parentIds.get(slug) as number);

    // users: founders, then voters
    const userRows: Row[] = founders.map((f) => ({
      email: f.email,
      name: f.name,
      password_hash: null,
      role: 'user',
      email_verified_at: iso(f.createdAt),
      created_at: iso(f.createdAt),
    }));
    const voterNames: string[] = [];
    for (let i = 0; i < VOTERS; i++) {
      const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
      voterNames.push(name);
      const created = nowMs - rng.int(20, 400) * DAY_MS;
      userRows.push({
        email: `${slugify(name).replace(/-/g, '.')}.${i + 1}@mail.example`,
        name,
        password_hash: null,
        role: 'user',
        email_verified_at: iso(created),
        created_at: iso(created),
      });
    }
    const userIds = await insertReturning('users', userRows, 'email', 300);
    const founderUser = founders.map((f) => userIds.get(f.email) as number);
    const voterIds = userRows.slice(founders.length).map((u) => userIds.get(u.email as string) as number);

    // listings
    for (const pl of listings) {
      pl.row.primary_category_id = categoryId(pl.child.slug);
      pl.row.owner_id = founderUser[pl.founders[0]];
    }
    const listingIds = await insertReturning(
      'listings',
      listings.map((l) => l.row),
      'slug',
      50,
    );
    const idOf = (pl: PlannedListing) => listingIds.get(pl.row.slug as string) as number;

    await insert(
      'listing_categories',
      listings.flatMap((pl) => [
        { listing_id: idOf(pl), category_id: categoryId(pl.child.slug), is_primary: true },
        ...pl.extraCategories.map((s) => ({ listing_id: idOf(pl), category_id: categoryId(s), is_primary: false })),
      ]),
    );

    // founders
    const founderIds = await insertReturning(
      'founders',
      founders.map((f, i) => ({
        slug: f.slug,
        name: f.name,
        title: f.title,
        bio: f.bio,
        country: f.country,
        socials: toJson(f.socials),
        avatar_url: null,
        user_id: founderUser[i],
        created_at: iso(f.createdAt),
      })),
      'slug',
    );
    await insert(
      'listing_founders',
      listings.flatMap((pl) =>
        pl.founders.map((fi, pos) => ({
          listing_id: idOf(pl),
          founder_id: founderIds.get(founders[fi].slug),
          position: pos,
        })),
      ),
    );

    // votes, follows, views
    const votes: Row[] = [];
    const follows: Row[] = [];
    const views: Row[] = [];
    for (const pl of listings) {
      if (!pl.voteTimes.length && pl.row.status !== 'live') continue;
      const lid = idOf(pl);
      const voters = rng.sample(voterIds, pl.voteTimes.length);
      pl.voteTimes.forEach((t, i) => votes.push({ listing_id: lid, user_id: voters[i], created_at: iso(t) }));
      const launched = Date.parse(pl.row.launched_at as string);
      for (const u of rng.sample(voterIds, pl.followers))
        follows.push({
          listing_id: lid,
          user_id: u,
          created_at: iso(launched + Math.floor(rng.next() * Math.max(1, nowMs - launched - 1000))),
        });
      for (const [day, count] of pl.views) views.push({ listing_id: lid, day, count });
    }
    await insert('votes', votes, 2000);
    await recountAllVotes(db); // the maintained sums the rankings read (migration 190)
    await insert('follows', follows, 2000);
    await insert('listing_views', views, 2000);
    // Each listing's total: the sum of its days (the trigger of migration 100 made its row).
    await sql`UPDATE listing_view_totals SET views = (SELECT coalesce(sum(w.count), 0) FROM listing_views w WHERE w.listing_id = listing_view_totals.listing_id)
      WHERE listing_id IN (${sql.join([...listingIds.values()])})`.execute(db);

    // reviews (some not genuine: kept for moderation, never counted in ratings), updates
    const reviews: Row[] = [];
    const updates: Row[] = [];
    for (const pl of live) {
      const lid = idOf(pl);
      const launched = Date.parse(pl.row.launched_at as string);
      const features = pl.concept[2];
      if (rng.chance(0.58)) {
        for (let k = rng.int(1, 4); k > 0; k--) {
          const spam = rng.chance(0.12);
          const rating = spam ? 5 : rng.pick([5, 5, 5, 4, 4, 4, 3, 2]);
          const vi = rng.int(0, VOTERS - 1);
          reviews.push({
            listing_id: lid,
            user_id: voterIds[vi],
            author_name: voterNames[vi],
            rating,
            body: reviewBody(pl.row.name as string, features, rating, spam, rng),
            genuine: !spam,
            created_at: iso(launched + Math.floor(rng.next() * Math.max(1, nowMs - launched - 1000))),
          });
        }
      }
      if (rng.chance(0.42)) {
        for (let k = rng.int(1, 3); k > 0; k--) {
          const u = updateFor(pl.row.name as string, rng.pick(features), rng);
          updates.push({
            listing_id: lid,
            title: u.title,
            body: u.body,
            created_at: iso(launched + Math.floor(rng.next() * Math.max(1, nowMs - launched - 1000))),
          });
        }
      }
    }
    await insert('reviews', reviews);
    await insert('updates', updates);

    // milestones and stories for paid listings
    const milestones: Row[] = [];
    const stories: Row[] = [];
    for (const pl of listings) {
      if (pl.row.plan !== 'paid') continue;
      const lid = idOf(pl);
      const founded = (pl.row.founded_year as number | null) ?? now.getUTCFullYear() - 1;
      const created = Date.parse(pl.row.created_at as string);
      const ms: Array<[string, string, string]> = [
        [
          `${founded}-0${rng.int(1, 9)}-${String(rng.int(1, 28)).padStart(2, '0')}`,
          'Company founded',
          `${pl.row.name} was incorporated and the first prototype shipped to friends.`,
        ],
        [
          toDateString(new Date(Math.min(nowMs, created - rng.int(20, 200) * DAY_MS))),
          'First paying customer',
          'The first customer paid for a plan before the product had a pricing page.',
        ],
        [
          toDateString(new Date(created)),
          'Public beta',
          'Opened sign-ups to everyone after months of private testing.',
        ],
      ];
      if (pl.row.launched_at)
        ms.push([
          (pl.row.launched_at as string).slice(0, 10),
          'Launched on Launchlist',
          `Launched in the week of ${pl.row.launch_week}.`,
        ]);
      for (const [date, title, description] of ms)
        milestones.push({
          listing_id: lid,
          date: date > toDateString(now) ? toDateString(now) : date,
          title,
          description,
          url: null,
          created_at: iso(created),
        });
      if (rng.chance(0.65)) {
        const s = storyFor(
          {
            name: pl.row.name as string,
            founder: founders[pl.founders[0]].name,
            problem: pl.child.problem,
            audience: pl.child.audience,
            features: pl.concept[2],
            city: pl.row.city as string | null,
            founded: pl.row.founded_year as number | null,
          },
          rng,
        );
        stories.push({ listing_id: lid, ...s, updated_at: iso(Math.min(nowMs, created + rng.int(1, 30) * DAY_MS)) });
      }
    }
    await insert('milestones', milestones);
    await insert('stories', stories, 100);

    await insert(
      'domain_ratings',
      drHistory.map(([pl, date, rating]) => ({ listing_id: idOf(pl), date, rating })),
    );
    await insert(
      'revenue_figures',
      revenue.map(([pl, month, cents, verified]) => ({ listing_id: idOf(pl), month, revenue_cents: cents, verified })),
    );
    await insert(
      'billboard_contributions',
      billboard.map(([pl, amount, t]) => ({
        listing_id: idOf(pl),
        amount_cents: amount,
        order_id: null,
        created_at: iso(t),
      })),
    );
    // featured placements (7 days from launch) of the most recently launched listings that bought one;
    // chosen without the generator, so adding them left the rest of the demo content as it was
    const featured = listings
      .filter(
        (pl) =>
          pl.row.status === 'live' &&
          fromJson<string[]>(pl.row.unlocked as string, []).includes('featured') &&
          Date.parse(pl.row.launched_at as string) > nowMs - 7 * DAY_MS,
      )
      .sort((a, b) => Date.parse(b.row.launched_at as string) - Date.parse(a.row.launched_at as string))
      .slice(0, 4);
    await insert(
      'featured_placements',
      featured.map((pl) => {
        const start = Date.parse(pl.row.launched_at as string);
        return {
          listing_id: idOf(pl),
          order_id: null,
          days: 7,
          starts_at: iso(start),
          ends_at: iso(start + 7 * DAY_MS),
          created_at: iso(start),
        };
      }),
    );

    // approved alternatives: a few listings name rivals from their own category
    const alternatives: Row[] = [];
    for (const pl of rng.sample(live, 30)) {
      const rivals = live.filter((o) => o !== pl && o.child.slug === pl.child.slug);
      rng
        .sample(rivals, rng.int(1, 2))
        .forEach((o, i) =>
          alternatives.push({ listing_id: idOf(pl), alternative_id: idOf(o), approved: true, position: i }),
        );
    }
    await insert('alternatives', alternatives);

    // site content
    await insert(
      'blog_posts',
      POSTS.map((p) => ({
        slug: p.slug,
        title: p.title,
        excerpt: p.excerpt,
        body_md: p.body,
        faqs: toJson(p.faqs),
        author: p.author,
        tags: toJson(p.tags),
        published_at: p.daysAgo === null ? null : iso(todayMs - p.daysAgo * DAY_MS + 9 * HOUR),
        created_at: iso(todayMs - Math.abs(p.daysAgo ?? 2) * DAY_MS - 5 * DAY_MS),
      })),
    );
    const questionIds = await insertReturning(
      'interview_questions',
      INTERVIEW_QUESTIONS.map((text, i) => ({ position: i + 1, text, active: true })),
      'text',
    );
    const answers: Row[] = [];
    for (const fi of rng.sample(
      founders.map((_, i) => i),
      24,
    )) {
      rng.sample(INTERVIEW_QUESTIONS.slice(0, 6), 3).forEach((q) =>
        answers.push({
          user_id: founderUser[fi],
          question_id: questionIds.get(q),
          answer: INTERVIEW_ANSWERS[INTERVIEW_QUESTIONS.indexOf(q)],
          updated_at: iso(nowMs - rng.int(1, 60) * DAY_MS),
        }),
      );
    }
    await insert('interview_answers', answers);
    await insert(
      'products',
      PRODUCTS.map((p, i) => ({
        code: p.code,
        name: p.name,
        description: p.description,
        price_cents: p.price_cents,
        needs_listing: p.needs_listing,
        options: toJson(p.options),
        active: true,
        position: i + 1,
        updated_at: iso(nowMs),
      })),
    );
    await insert(
      'settings',
      Object.entries(SETTINGS).map(([key, value]) => ({ key, value: toJson(value), updated_at: iso(nowMs) })),
    );
    await insert('sites', [
      {
        key: 'launchlist',
        name: 'Launchlist',
        url: (opts.publicUrl ?? 'https://launchlist.example').replace(/\/$/, ''),
      },
      ...SISTER_SITES,
    ]);

    // awards for every finished launch week, from the votes above
    let awards = 0;
    for (let k = 1; k <= 12; k++) awards += (await computeAwards(trx, addWeeks(thisMonday, -k), { now })).length;
    const programmeEntries = await seedProgrammes(trx, now);
    // A burst of new accounts for this week's vote integrity report and the admin's review queue.
    const burstVotes = await seedVoteBurst(trx, store.engine, thisMonday, now);

    const countStatus = (s: string) => listings.filter((l) => l.row.status === s).length;
    return {
      categories: parentIds.size + childIds.size,
      listings: listings.length,
      live: countStatus('live'),
      scheduled: countStatus('scheduled'),
      awaiting_badge: countStatus('awaiting_badge'),
      drafts: countStatus('draft'),
      users: userRows.length + burstVotes, // one new account per burst vote
      founders: founders.length,
      votes: votes.length + burstVotes,
      awards,
      programme_entries: programmeEntries,
      blog_posts: POSTS.length,
      ms: 0,
    };
  });
  await refreshProfiles(store); // get_listing's materialised profiles, as a running server would have built them
  report.ms = Math.round(performance.now() - started);
  return report;
}
