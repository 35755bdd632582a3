// The one Kysely schema type. Timestamps are ISO strings; JSON columns are text (store/json.ts);
// booleans are numbers 0/1 on SQLite and booleans on PostgreSQL — read them with Boolean().
import type { ColumnType, Generated } from 'kysely';
import type { DraftStage, DraftStatus, ListingPlan, ListingStatus } from '../domain/vocabulary.ts';
import type { ClaimMethod, ClaimStatus } from '../domain/claims.ts';
import type { OrderStatus } from '../domain/orders.ts';

type Bool = number | boolean;
type Json = string; // JSON text

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string | null;
  role: string;
  email_verified_at: string | null;
  created_at: string;
}
export interface SessionsTable {
  id: string;
  user_id: number;
  csrf: string;
  created_at: string;
  expires_at: string;
}
export interface EmailTokensTable {
  id: string;
  user_id: number;
  purpose: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: Json;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface OauthStoreTable {
  id: string;
  model: string;
  payload: Json;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: string | null;
  consumed_at: string | null;
  account_id: string | null;
}

export interface CategoriesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  parent_id: number | null;
  description: string;
  faqs: Json;
  attributes: Json;
  position: number;
}
export interface ListingsTable {
  id: Generated<number>;
  slug: string;
  owner_id: number | null;
  draft_id: string | null;
  name: string;
  url: string;
  domain: string;
  tagline: string | null;
  short_description: string | null;
  description: string | null;
  stage: string | null;
  pricing_model: string | null;
  pricing_summary: string | null;
  country: string | null;
  city: string | null;
  founded_year: number | null;
  contact_email: string | null;
  demo_video_url: string | null;
  logo_url: string | null;
  features: Json;
  usps: Json;
  keywords: Json;
  tags: Json;
  socials: Json;
  faqs: Json;
  not_found: Json;
  facts: Json;
  media: Json;
  headline: string | null;
  summary: string | null;
  seo_title: string | null;
  seo_description: string | null;
  status: ListingStatus;
  plan: ListingPlan;
  launch_week: string | null;
  launched_at: string | null;
  primary_category_id: number | null;
  unlocked: Json;
  verified_at: string | null;
  badge_seen_at: string | null;
  domain_rating: number | null;
  revenue_cents: number | null;
  votes_count: number;
  followers_count: number;
  created_at: string;
  updated_at: string;
  /** Bumped by triggers whenever anything the public profile shows changes (migration 080). */
  profile_rev: Generated<number>;
}
/** get_listing's materialised profile: JSON text without the live counters, built from listings.profile_rev = rev. */
export interface ListingProfilesTable {
  listing_id: number;
  rev: number;
  body: string;
}
export interface ListingCategoriesTable {
  listing_id: number;
  category_id: number;
  is_primary: Bool;
}
export interface ListingVersionsTable {
  id: Generated<number>;
  listing_id: number;
  user_id: number | null;
  before: Json;
  after: Json;
  apply_to: Json;
  created_at: string;
  reviewed_at: string | null;
  reviewed_by: number | null;
  /** The draft the edit came from (a re-submitted or edited draft); null for an edit made on the listing. */
  draft_id: string | null;
}
export interface AlternativesTable {
  listing_id: number;
  alternative_id: number;
  approved: Bool;
  position: number;
}
export interface FoundersTable {
  id: Generated<number>;
  slug: string;
  name: string;
  title: string | null;
  bio: string | null;
  country: string | null;
  socials: Json;
  avatar_url: string | null;
  user_id: number | null;
  created_at: string;
}
export interface ListingFoundersTable {
  listing_id: number;
  founder_id: number;
  position: number;
}
export interface VotesTable {
  id: Generated<number>;
  listing_id: number;
  user_id: number;
  created_at: string;
  /** The weight it counts with, in [0, 1] (domain/vote-weight.ts; migration 190). */
  weight: Generated<number>;
  /** The reason category that took the most weight, when below 1. */
  reason: Generated<string | null>;
  account_age_hours: Generated<number | null>;
  email_confirmed: Generated<Bool | null>;
  /** Keyed hash of the voter's network (/24 or /48), never the address. */
  net_hash: Generated<string | null>;
  /** Keyed hash of the voter's user agent. */
  ua_hash: Generated<string | null>;
  /** Milliseconds between the page being served and the vote. */
  page_ms: Generated<number | null>;
  /** Admin review: pending | discounted | restored. */
  review: Generated<string | null>;
}
/** Maintained vote sums per listing (migration 190), rewritten in each vote's transaction. */
export interface ListingVoteTotalsTable {
  listing_id: number;
  weighted: number;
  votes: number;
  discounted: number;
  /** JSON {reason: votes} of the discounted votes. */
  by_reason: string;
  /** Trending score as of last_vote_at. */
  trend: number;
  last_vote_at: string | null;
}
/** Maintained vote sums per listing and launch week (Monday). */
export interface ListingWeekVotesTable {
  listing_id: number;
  week: string;
  weighted: number;
  votes: number;
}
export interface VoteReviewsTable {
  id: Generated<number>;
  kind: string;
  status: string;
  signature: string;
  summary: string;
  listing_ids: string;
  user_ids: string;
  created_at: string;
  decided_at: string | null;
  decided_by: number | null;
}
export interface VoteReviewVotesTable {
  review_id: number;
  vote_id: number;
}
export interface VoteDecisionsTable {
  id: Generated<number>;
  review_id: number;
  admin_id: number | null;
  admin_email: string;
  action: string;
  votes_changed: number;
  note: string | null;
  created_at: string;
}
export interface FollowsTable {
  listing_id: number;
  user_id: number;
  created_at: string;
}
export interface ListingViewsTable {
  listing_id: number;
  day: string;
  count: number;
}
export interface ReviewsTable {
  id: Generated<number>;
  listing_id: number;
  user_id: number | null;
  author_name: string;
  rating: number;
  body: string;
  genuine: Bool;
  created_at: string;
}
export interface UpdatesTable {
  id: Generated<number>;
  listing_id: number;
  title: string;
  body: string;
  created_at: string;
}
export interface MilestonesTable {
  id: Generated<number>;
  listing_id: number;
  date: string;
  title: string;
  description: string | null;
  url: string | null;
  created_at: string;
}
export interface StoriesTable {
  listing_id: number;
  title: string | null;
  story: string | null;
  why_started: string | null;
  problem: string | null;
  journey: string | null;
  challenges: string | null;
  achievements: string | null;
  lessons: string | null;
  whats_next: string | null;
  updated_at: string;
}
export interface InterviewQuestionsTable {
  id: Generated<number>;
  position: number;
  text: string;
  active: Bool;
}
export interface InterviewAnswersTable {
  user_id: number;
  question_id: number;
  answer: string;
  updated_at: string;
}
export interface BlogPostsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  excerpt: string;
  body_md: string;
  faqs: Json;
  author: string;
  tags: Json;
  published_at: string | null;
  created_at: string;
}
export interface AwardsTable {
  id: Generated<number>;
  kind: string;
  week: string;
  rank: number;
  listing_id: number;
  votes: number;
  created_at: string;
  /** base64url of the exact signed statement bytes (migration 180); null for awards decided before signing. */
  statement: string | null;
  signature: string | null;
  kid: string | null;
}
export interface AwardKeysTable {
  kid: string;
  public_jwk: string;
  private_key: string;
  created_at: string;
  retired_at: string | null;
}
export interface AwardSnapshotsTable {
  kind: string;
  week: string;
  hash: string;
  canonical: string;
  created_at: string;
}
export interface ProgrammesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  description: string;
  starts_on: string;
  ends_on: string;
  rules: Json;
  winners: string;
  winners_count: number;
  created_at: string;
  updated_at: string;
}
export interface ProgrammeEntriesTable {
  id: Generated<number>;
  programme_id: number;
  listing_id: number;
  user_id: number | null;
  place: number | null;
  created_at: string;
}
export interface BadgeChecksTable {
  id: Generated<number>;
  listing_id: number;
  checked_at: string;
  found: Bool;
  detail: string | null;
}
export interface DomainRatingsTable {
  listing_id: number;
  date: string;
  rating: number;
}
export interface RevenueFiguresTable {
  listing_id: number;
  month: string;
  revenue_cents: number;
  verified: Bool;
}
export interface BillboardContributionsTable {
  id: Generated<number>;
  listing_id: number;
  amount_cents: number;
  order_id: number | null;
  created_at: string;
}
export interface FeaturedPlacementsTable {
  id: Generated<number>;
  listing_id: number;
  order_id: number | null;
  days: number;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
}
export interface ProductsTable {
  code: string;
  name: string;
  description: string;
  price_cents: number;
  needs_listing: Bool;
  options: Json;
  active: Bool;
  position: number;
  updated_at: string;
}
export interface PromoCodesTable {
  code: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  product_codes: Json;
  max_redemptions: number | null;
  redemptions: number;
  expires_at: string | null;
  active: Bool;
  created_at: string;
}
export interface OrdersTable {
  id: Generated<number>;
  number: string;
  user_id: number;
  status: OrderStatus;
  currency: string;
  subtotal_cents: number;
  discount_cents: number;
  vat_cents: number;
  total_cents: number;
  vat_rate_bp: number;
  billing_country: string | null;
  vat_number: string | null;
  reverse_charge: Bool;
  promo_code: string | null;
  checkout_token: string;
  provider: string;
  provider_ref: string | null;
  created_at: string;
  paid_at: string | null;
  expires_at: string | null;
  billing_name: string | null;
  billing_address: string | null;
}
export interface OrderLinesTable {
  id: Generated<number>;
  order_id: number;
  product_code: string;
  description: string;
  listing_id: number | null;
  week: string | null;
  quantity: number;
  unit_cents: number;
  amount_cents: number;
  options: Json;
  fulfilled_at: string | null;
  categories: Json;
}
export interface ClaimsTable {
  id: Generated<number>;
  user_id: number;
  listing_id: number;
  method: ClaimMethod;
  email: string | null;
  token: string;
  status: ClaimStatus;
  created_at: string;
  verified_at: string | null;
  checked_at: string | null;
  last_error: string | null;
  expires_at: string | null;
}
export interface DraftsTable {
  id: string;
  user_id: number;
  url: string;
  status: DraftStatus;
  stage: DraftStage | null;
  pages_read: number;
  pages_planned: number;
  error: string | null;
  fields: Json;
  faqs: Json;
  founders: Json;
  company_socials: Json;
  founder_socials: Json;
  story: Json;
  milestones: Json;
  competitor: Json;
  seo: Json;
  pages: Json;
  listing_id: number | null;
  created_at: string;
  updated_at: string;
}
export interface DraftInvitesTable {
  id: Generated<number>;
  draft_id: string;
  email: string;
  created_at: string;
  token_hash: string | null;
  accepted_at: string | null;
}
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: Json;
  status: string;
  attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}
export interface IdempotencyKeysTable {
  principal: string;
  key: string;
  operation: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}
export interface SettingsTable {
  key: string;
  value: Json;
  updated_at: string;
}
export interface SitesTable {
  key: string;
  name: string;
  url: string;
}
export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

/** A listing's total views (migration 100): one row per listing, written by the view counter. */
export interface ListingViewTotalsTable {
  listing_id: number;
  views: number;
}

/** Counters moved by triggers when what they watch changes (migration 200): 'membership' = live listings per category. */
export interface WeekStampsTable {
  week: string;
  n: ColumnType<number | string | bigint, number | undefined, number>;
}

export interface DirectoryStampsTable {
  name: string;
  n: ColumnType<number | string | bigint, number | undefined, number>;
}

export interface DB {
  directory_stamps: DirectoryStampsTable;
  week_stamps: WeekStampsTable;
  users: UsersTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  api_keys: ApiKeysTable;
  oauth_store: OauthStoreTable;
  categories: CategoriesTable;
  listings: ListingsTable;
  listing_profiles: ListingProfilesTable;
  listing_categories: ListingCategoriesTable;
  listing_versions: ListingVersionsTable;
  alternatives: AlternativesTable;
  founders: FoundersTable;
  listing_founders: ListingFoundersTable;
  votes: VotesTable;
  listing_vote_totals: ListingVoteTotalsTable;
  listing_week_votes: ListingWeekVotesTable;
  vote_reviews: VoteReviewsTable;
  vote_review_votes: VoteReviewVotesTable;
  vote_decisions: VoteDecisionsTable;
  follows: FollowsTable;
  listing_views: ListingViewsTable;
  listing_view_totals: ListingViewTotalsTable;
  reviews: ReviewsTable;
  updates: UpdatesTable;
  milestones: MilestonesTable;
  stories: StoriesTable;
  interview_questions: InterviewQuestionsTable;
  interview_answers: InterviewAnswersTable;
  blog_posts: BlogPostsTable;
  awards: AwardsTable;
  award_keys: AwardKeysTable;
  award_snapshots: AwardSnapshotsTable;
  programmes: ProgrammesTable;
  programme_entries: ProgrammeEntriesTable;
  badge_checks: BadgeChecksTable;
  domain_ratings: DomainRatingsTable;
  revenue_figures: RevenueFiguresTable;
  billboard_contributions: BillboardContributionsTable;
  featured_placements: FeaturedPlacementsTable;
  products: ProductsTable;
  promo_codes: PromoCodesTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  claims: ClaimsTable;
  drafts: DraftsTable;
  draft_invites: DraftInvitesTable;
  jobs: JobsTable;
  idempotency_keys: IdempotencyKeysTable;
  settings: SettingsTable;
  sites: SitesTable;
  mail_outbox: MailOutboxTable;
}
