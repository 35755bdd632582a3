// Synthetic listings for benchmarks and load tests (`npm run cli -- seed --listings N`): realistic-ish
// names, taglines, descriptions and keywords drawn from word lists with a skewed (Zipf-like) word
// frequency, spread over the existing categories, all live, with vote/view/follower counts (no vote
// rows). Batched multi-row inserts in one transaction: 100,000 listings take seconds, not minutes.
import { refreshProfiles } from '../repos/profile-cache.ts';
import { createRng } from './prng.ts';
import { sql, type Kysely } from 'kysely';
import type { Store } from '../connect.ts';
import type { DB } from '../types.ts';
import { toJson } from '../json.ts';

const SYLLABLES =
  'ka lo mi tra zen flo bit ver qua nex sol dar pix lum cor vi ta ro na lu fy ly io ar el on ex ix ax pro syn dyn mon cal vel tor lex rai neo opt ora nim bus hub zap kit gen dox mer tel fin lab ops sky way'.split(
    ' ',
  );
const BRAND_SUFFIX = [
  '',
  '',
  '',
  '',
  '',
  ' AI',
  ' HQ',
  ' Labs',
  ' App',
  ' Cloud',
  ' Studio',
  ' Pro',
  ' Hub',
  ' Kit',
  ' OS',
];
const AUDIENCES =
  'freelancers|small businesses|startups|developers|designers|marketers|sales teams|recruiters|teachers|students|creators|podcasters|agencies|remote teams|product managers|founders|accountants|lawyers|real estate agents|restaurants|online stores|nonprofits|researchers|writers|photographers|musicians|coaches|clinics|landlords|event organizers'.split(
    '|',
  );
const VERBS =
  'automate|track|manage|organize|analyze|build|design|launch|schedule|monitor|share|publish|sell|plan|measure|optimize|write|edit|translate|summarize|record|host|sync|backup|secure|test|deploy|find|compare|visualize'.split(
    '|',
  );
const OBJECTS =
  'invoices|projects|tasks|meetings|customers|leads|emails|social media posts|websites|landing pages|newsletters|podcasts|videos|photos|documents|contracts|expenses|inventory|orders|bookings|appointments|feedback|surveys|reports|dashboards|APIs|databases|servers|workflows|spreadsheets|forms|knowledge bases|support tickets|code reviews|job applications|courses|events|payments|subscriptions|analytics'.split(
    '|',
  );
const ADJECTIVES =
  'simple|fast|smart|powerful|beautiful|secure|collaborative|automated|open source|lightweight|privacy-first|AI-powered|no-code|real-time|affordable|modern|intuitive|reliable|scalable|flexible|minimal|delightful|self-hosted|mobile-first|offline-ready'.split(
    '|',
  );
const NOUNS =
  'platform|tool|app|assistant|workspace|dashboard|toolkit|editor|builder|tracker|manager|studio|engine|suite|companion|service|extension|plugin|library|framework'.split(
    '|',
  );
const QUALIFIERS =
  'in minutes|without spreadsheets|with AI|from one place|on any device|in real time|without writing code|across teams|for free|at scale|with zero setup|in your browser|from Slack|with templates|securely'.split(
    '|',
  );
const FILLER =
  'teams love how easily it connects with the tools they already use|setup takes less than five minutes and no credit card is required|integrations include Slack, Notion, Google Drive, Zapier and Stripe|every plan includes unlimited users and priority email support|data is encrypted at rest and in transit and never sold|built by a small independent team that ships improvements every week|the free plan covers most personal projects|exports are available as CSV, PDF and JSON|keyboard shortcuts and a command palette keep power users fast|works on Windows, macOS, Linux, iOS and Android|templates help new users get started quickly|a public API and webhooks let developers extend everything|customers report saving hours every week|analytics show what works and what does not|collaboration features include comments, mentions and shared views'.split(
    '|',
  );
const KEYWORDS =
  'productivity|automation|ai|saas|marketing|sales|crm|analytics|design|developer tools|no-code|finance|invoicing|hr|recruiting|education|health|fitness|ecommerce|social media|email|seo|writing|video|audio|podcast|photography|security|privacy|open source|collaboration|remote work|project management|customer support|chatbot|scheduling|calendar|notes|knowledge management|data|api|devops|monitoring|testing|mobile|web3|crypto|payments|legal|real estate'.split(
    '|',
  );
const FEATURES =
  'Unlimited projects|Team workspaces|Role-based permissions|Single sign-on|Audit log|Custom domains|Zapier integration|Slack notifications|Mobile apps|Offline mode|Dark mode|CSV import|PDF export|Public API|Webhooks|Templates library|AI suggestions|Real-time collaboration|Version history|Two-factor authentication'.split(
    '|',
  );
const STAGES = ['idea', 'mvp', 'launched', 'launched', 'growing', 'growing', 'established'];
const PRICING = [
  'Free',
  'Freemium',
  'Freemium',
  'Subscription',
  'Subscription',
  'One-time',
  'Usage-based',
  'Open source',
];
const COUNTRIES = [
  'US',
  'US',
  'US',
  'GB',
  'DE',
  'FR',
  'NL',
  'CA',
  'IN',
  'ES',
  'SE',
  'BR',
  'AU',
  'PL',
  'PT',
  'IT',
  'JP',
  'SG',
  'IE',
  'CH',
];
const TLDS = ['com', 'com', 'com', 'io', 'ai', 'app', 'co', 'dev', 'so', 'net'];

const FALLBACK_CATEGORIES: Array<[string, string, string[]]> = [
  ['productivity', 'Productivity', ['Integrations', 'Offline mode', 'Mobile apps']],
  ['developer-tools', 'Developer Tools', ['Open source', 'Self-hosting', 'API']],
  ['marketing', 'Marketing', ['Channels', 'Analytics', 'Integrations']],
  ['sales', 'Sales', ['CRM sync', 'Email sequences']],
  ['design', 'Design', ['Figma plugin', 'Collaboration']],
  ['finance', 'Finance', ['Currencies', 'Bank sync']],
  ['artificial-intelligence', 'Artificial Intelligence', ['Models', 'Data retention']],
  ['education', 'Education', ['Certificates', 'Languages']],
];

function mondayOf(d: Date): string {
  const day = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day)).toISOString().slice(0, 10);
}

export interface SyntheticOptions {
  seed?: number;
  batchSize?: number;
  now?: Date;
}

/** Inserts `n` live synthetic listings; returns how many were created and how long it took. */
export async function seedSynthetic(
  store: Store,
  n: number,
  opts: SyntheticOptions = {},
): Promise<{ created: number; ms: number }> {
  const started = performance.now();
  const rand = createRng(opts.seed ?? 42).next; // the same seed gives the same data
  const now = opts.now ?? new Date();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  // Zipf-ish: low indexes much more often, as words are in real text.
  const zipf = <T>(list: readonly T[]): T => list[Math.min(list.length - 1, Math.floor(list.length * rand() ** 2.2))];
  const some = <T>(list: readonly T[], k: number): T[] => {
    const out = new Set<T>();
    while (out.size < k) out.add(zipf(list));
    return [...out];
  };
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

  const db = store.db;
  const batchSize = opts.batchSize ?? (store.engine === 'sqlite' ? 500 : 1000);
  let created = 0;
  await db.transaction().execute(async (trx) => {
    // PostgreSQL: the per-row search trigger and GIN index upkeep are the slow part of a bulk load.
    // Rows go to an unindexed staging table first, then into listings in one INSERT … SELECT that
    // computes each vector with the trigger's own function; the GIN index is rebuilt once.
    const pg = store.engine === 'postgres';
    const target = pg ? 'synthetic_stage' : 'listings';
    if (pg) {
      await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx); // the GIN rebuild below
      await sql`CREATE TEMP TABLE synthetic_stage (LIKE listings INCLUDING DEFAULTS) ON COMMIT DROP`.execute(trx);
    }
    const categories = await ensureCategories(trx);
    const taken = new Set((await trx.selectFrom('listings').select('slug').execute()).map((r) => r.slug));
    const domains = new Set((await trx.selectFrom('listings').select('domain').execute()).map((r) => r.domain));
    const before =
      (
        await trx
          .selectFrom('listings')
          .select((eb) => eb.fn.max('id').as('max'))
          .executeTakeFirst()
      )?.max ?? 0;
    const views: Array<{ slug: string; views: number }> = [];
    for (let start = 0; start < n; start += batchSize) {
      const rows = [];
      for (let i = start; i < Math.min(n, start + batchSize); i++) {
        const sylCount = 2 + (rand() < 0.35 ? 1 : 0);
        let base = '';
        for (let s = 0; s < sylCount; s++) base += pick(SYLLABLES);
        const suffix = pick(BRAND_SUFFIX);
        const name = cap(base) + suffix;
        let slug = (base + suffix)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '');
        for (let k = 2; taken.has(slug); k++)
          slug = `${(base + suffix).toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${k}`;
        taken.add(slug);
        let domain = `${slug.replace(/-/g, '')}.${pick(TLDS)}`;
        for (let k = 2; domains.has(domain); k++) domain = `${slug.replace(/-/g, '')}${k}.${pick(TLDS)}`;
        domains.add(domain);
        const audience = zipf(AUDIENCES);
        const verb = zipf(VERBS);
        const object = zipf(OBJECTS);
        const adjective = zipf(ADJECTIVES);
        const noun = zipf(NOUNS);
        const tagline = `${cap(adjective)} ${noun} to ${verb} ${object} ${zipf(QUALIFIERS)}`;
        const sentences = [
          `${name} is a ${adjective} ${noun} that helps ${audience} ${verb} ${object} ${zipf(QUALIFIERS)}.`,
          `Unlike generic tools, it lets you ${zipf(VERBS)} ${zipf(OBJECTS)} and ${zipf(VERBS)} ${zipf(OBJECTS)} together.`,
        ];
        const extra = 1 + Math.floor(rand() * 4);
        for (let s = 0; s < extra; s++) sentences.push(cap(zipf(FILLER)) + '.');
        const launched = new Date(now.getTime() - Math.floor(rand() * 3 * 365 * 86400_000));
        const votes = Math.floor(Math.exp(rand() * 7)) - 1;
        const category = categories[Math.floor(categories.length * rand() ** 1.5)];
        const iso = launched.toISOString();
        // views_count is not a listings column (migration 100): it is written to listing_view_totals below.
        const { views_count, ...row } = {
          slug,
          name,
          url: `https://${domain}/`,
          domain,
          tagline,
          short_description: sentences[0],
          description: sentences.join(' '),
          stage: pick(STAGES),
          pricing_model: pick(PRICING),
          pricing_summary: rand() < 0.5 ? 'Free plan; paid plans from $9/month' : null,
          country: pick(COUNTRIES),
          city: null,
          founded_year: 2010 + Math.floor(rand() * 15),
          features: toJson(some(FEATURES, 3 + Math.floor(rand() * 3))),
          usps: toJson([`${cap(adjective)} by design`, `Made for ${audience}`]),
          keywords: toJson(some(KEYWORDS, 3 + Math.floor(rand() * 3))),
          tags: toJson([]),
          socials: toJson({ website: `https://${domain}/` }),
          faqs: toJson([]),
          not_found: toJson([]),
          facts: toJson({}),
          media: toJson([]),
          status: 'live' as const,
          plan: rand() < 0.2 ? ('paid' as const) : ('free' as const),
          launch_week: mondayOf(launched),
          launched_at: iso,
          primary_category_id: category,
          unlocked: toJson([]),
          domain_rating: Math.floor(rand() * 80),
          votes_count: votes,
          views_count: votes * (5 + Math.floor(rand() * 40)),
          followers_count: Math.floor(votes * rand() * 0.4),
          created_at: iso,
          updated_at: iso,
        };
        rows.push(row);
        views.push({ slug, views: views_count });
      }
      await trx
        .insertInto(target as 'listings')
        .values(rows)
        .execute();
      created += rows.length;
    }
    if (pg) {
      const columns = (
        await sql<{
          column_name: string;
        }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'listings' AND table_schema = current_schema() AND column_name <> 'search' ORDER BY ordinal_position`.execute(
          trx,
        )
      ).rows.map((r) => sql.id(r.column_name));
      await sql`ALTER TABLE listings DISABLE TRIGGER listings_search_biu`.execute(trx);
      // The membership counter (migration 200) is moved once below, not once per row at commit.
      await sql`ALTER TABLE listings DISABLE TRIGGER listings_membership_ai`.execute(trx);
      // …and so are the launch weeks' counters (migration 240)
      await sql`ALTER TABLE listings DISABLE TRIGGER listings_week_stamp_ai`.execute(trx);
      await sql`DROP INDEX IF EXISTS listings_search`.execute(trx);
      await sql`INSERT INTO listings (${sql.join(columns)}, search)
        SELECT ${sql.join(columns)}, listings_search_vector(name, tagline, keywords, description) FROM synthetic_stage`.execute(
        trx,
      );
      await sql`CREATE INDEX listings_search ON listings USING gin (search)`.execute(trx);
      await sql`ALTER TABLE listings ENABLE TRIGGER listings_search_biu`.execute(trx);
      await sql`ALTER TABLE listings ENABLE TRIGGER listings_membership_ai`.execute(trx);
      await sql`ALTER TABLE listings ENABLE TRIGGER listings_week_stamp_ai`.execute(trx);
      await sql`INSERT INTO week_stamps (week, n)
        SELECT DISTINCT launch_week, 1 FROM listings WHERE id > ${before} AND launch_week IS NOT NULL
        ON CONFLICT (week) DO UPDATE SET n = week_stamps.n + 1`.execute(trx);
      await sql`ALTER TABLE listing_categories DISABLE TRIGGER listing_categories_membership`.execute(trx);
    }
    await sql`INSERT INTO listing_categories (listing_id, category_id, is_primary)
      SELECT id, primary_category_id, ${true} FROM listings WHERE id > ${before} AND primary_category_id IS NOT NULL`.execute(
      trx,
    );
    if (store.engine === 'postgres')
      await sql`ALTER TABLE listing_categories ENABLE TRIGGER listing_categories_membership`.execute(trx);
    await sql`UPDATE directory_stamps SET n = n + 1 WHERE name = 'membership'`.execute(trx);
    // Each new listing's total views (its listing_view_totals row was made by the insert trigger).
    for (let i = 0; i < views.length; i += 1000) {
      const values = sql.join(views.slice(i, i + 1000).map((v) => sql`(${v.slug}, CAST(${v.views} AS INTEGER))`));
      await sql`UPDATE listing_view_totals SET views = v.views
        FROM (SELECT column1 AS slug, column2 AS views FROM (VALUES ${values}) AS x) AS v, listings l
        WHERE l.slug = v.slug AND listing_view_totals.listing_id = l.id`.execute(trx);
    }
    // Synthetic listings have a vote count but no vote rows: their maintained sums count each vote 1
    // (migration 190), with the trending score as of their launch.
    await sql`INSERT INTO listing_vote_totals (listing_id, weighted, votes, discounted, by_reason, trend, last_vote_at)
      SELECT id, votes_count, votes_count, 0, '{}', votes_count, launched_at FROM listings WHERE id > ${before} AND votes_count > 0`.execute(
      trx,
    );
    await sql`INSERT INTO listing_week_votes (listing_id, week, weighted, votes)
      SELECT id, launch_week, votes_count, votes_count FROM listings WHERE id > ${before} AND votes_count > 0 AND launch_week IS NOT NULL`.execute(
      trx,
    );
  });
  await refreshProfiles(store); // get_listing's materialised profiles, as a running server would have built them
  if (store.engine === 'sqlite') {
    // One merged FTS segment and fresh planner statistics, as a long-running index would have.
    await sql`INSERT INTO listings_fts(listings_fts) VALUES ('optimize')`.execute(db);
    await sql`ANALYZE`.execute(db);
  } else {
    // Visibility map (index-only scans), hint bits and planner statistics, as autovacuum would leave them
    // (after the profiles, whose inserts would otherwise leave every row to be checked on its first reads).
    for (const table of ['listings', 'listing_profiles', 'listing_view_totals', 'listing_categories'])
      await sql`VACUUM ANALYZE ${sql.id(table)}`.execute(db);
  }
  return { created, ms: Math.round(performance.now() - started) };
}

/** Category ids to spread listings over: the existing leaf and top-level categories, or a small fallback set. */
async function ensureCategories(db: Kysely<DB>): Promise<number[]> {
  const existing = await db.selectFrom('categories').select(['id']).orderBy('id').execute();
  if (existing.length) return existing.map((c) => c.id);
  let position = 0;
  for (const [slug, name, attributes] of FALLBACK_CATEGORIES) {
    await db
      .insertInto('categories')
      .values({
        slug,
        name,
        parent_id: null,
        description: `${name} products.`,
        faqs: '[]',
        attributes: toJson(attributes),
        position: position++,
      })
      .execute();
  }
  return (await db.selectFrom('categories').select('id').orderBy('id').execute()).map((c) => c.id);
}
