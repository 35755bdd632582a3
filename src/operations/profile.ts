// The public profile of a listing (get_listing), and the pieces it shares with the owner's view
// (get_my_listing) and the rest of the API. Built by store/repos/listings.ts buildProfile().
import { z } from 'zod';
import { TRENDS } from '../domain/ranking.ts';
import { VOTE_REASONS } from '../domain/vote-weight.ts';
import { PROFILE_FIELDS } from '../domain/vocabulary.ts';
import { DateString, ListingStatus, Timestamp, WeekString } from './schemas.ts';

/** Social profile links by platform (linkedin, x, github, youtube, website, custom …). */
export const SocialLinks = z
  .record(z.string(), z.string())
  .describe(
    'Links by platform: linkedin, x, facebook, instagram, tiktok, youtube, threads, pinterest, github, reddit, medium, website, custom, productlaunch.',
  );

export const FaqItem = z.strictObject({ question: z.string(), answer: z.string() });

export const MilestoneItem = z.strictObject({
  id: z.number().int().describe('Milestone id (delete_milestone takes it).'),
  date: DateString,
  title: z.string(),
  description: z.string().nullable(),
  url: z.string().nullable().describe('A link about it (https), or null.'),
});

export const StoryView = z.strictObject({
  title: z.string().nullable(),
  story: z.string().nullable(),
  why_started: z.string().nullable(),
  problem: z.string().nullable(),
  journey: z.string().nullable(),
  challenges: z.string().nullable(),
  achievements: z.string().nullable(),
  lessons: z.string().nullable(),
  whats_next: z.string().nullable(),
  updated_at: Timestamp.nullable(),
});

export const DomainRating = z
  .strictObject({
    value: z.number().nullable().describe('The latest Domain Rating (0–100), or null when unknown.'),
    as_of: DateString.nullable().describe('Date of the latest reading, or null.'),
    trend: z.strictObject({
      direction: z.enum(TRENDS).describe('Against the previous reading.'),
      change_30d: z.number().nullable().describe('Change against the last reading at least 30 days older.'),
      change_90d: z.number().nullable().describe('Change against the last reading at least 90 days older.'),
    }),
    history: z.array(z.strictObject({ date: DateString, rating: z.number() })).describe('Readings, oldest first.'),
  })
  .describe('Domain Rating, a third-party SEO metric of the website (not a Launchlist ranking).');

/** A fact a category asks its listings for (open_source, self_hostable, platforms …). */
export const FactValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const MediaItem = z.strictObject({
  type: z.enum(['image', 'video']),
  url: z.string(),
  alt: z.string().optional(),
});

export const AwardWin = z.strictObject({
  week: WeekString,
  rank: z.number().int().describe('1, 2 or 3.'),
  title: z.string().describe('e.g. "Launch of the Week #1".'),
  votes: z.number().describe('Community votes counted for the week: the weighted sum (2 decimals) the ranking used.'),
});

/** The profile fields every profile has (public and owner's). */
export const profileShape = {
  slug: z.string().describe('Its page is /listings/{slug}.'),
  name: z.string(),
  url: z.string().describe("The product's website."),
  domain: z.string().nullable().describe('The website domain, e.g. example.com.'),
  tagline: z.string().nullable(),
  short_description: z.string().nullable(),
  description: z.string().nullable(),
  headline: z.string().nullable(),
  summary: z.string().nullable(),
  logo_url: z.string().nullable(),
  status: ListingStatus,
  launch_week: WeekString.nullable(),
  launched_at: Timestamp.nullable(),
  stage: z.string().nullable().describe('Business stage slug: idea, mvp, launched, growing …'),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2 code.'),
  city: z.string().nullable(),
  founded_year: z.number().int().nullable(),
  contact_email: z.string().nullable(),
  pricing: z.strictObject({
    model: z.string().nullable().describe('Open source, Free, Freemium, Subscription, Usage-based or One-time.'),
    summary: z.string().nullable(),
  }),
  features: z.array(z.string()),
  usps: z.array(z.string()).describe('What sets it apart.'),
  keywords: z.array(z.string()),
  tags: z.array(z.string()),
  categories: z
    .array(
      z.strictObject({
        slug: z.string(),
        name: z.string(),
        primary: z.boolean().describe('The primary category comes first.'),
        parent: z.strictObject({ slug: z.string(), name: z.string().nullable() }).nullable(),
      }),
    )
    .describe('Primary first.'),
  founders: z.array(
    z.strictObject({
      slug: z.string().describe('The founder page is /founders/{slug}.'),
      name: z.string(),
      title: z.string().nullable(),
      avatar_url: z.string().nullable(),
      country: z.string().nullable(),
      socials: SocialLinks,
    }),
  ),
  faqs: z.array(FaqItem),
  socials: SocialLinks,
  latest_updates: z
    .array(
      z.strictObject({ id: z.number().int(), title: z.string(), body: z.string(), created_at: Timestamp.nullable() }),
    )
    .describe('The 5 newest updates, newest first.'),
  community_rating: z
    .strictObject({
      average: z.number().nullable().describe('Mean of genuine reviews (one decimal), null when there are none.'),
      count: z.number().int(),
    })
    .describe('From genuine reviews only.'),
  domain_rating: DomainRating,
  links: z.strictObject({
    website: z.string(),
    demo_video: z.string().nullable(),
    source_code: z.string().optional().describe('The GitHub link, when the listing has one.'),
  }),
  facts: z
    .record(z.string(), FactValue)
    .describe("Facts its categories' attributes ask for, as the listing states them."),
  not_found_on_website: z
    .array(z.enum(PROFILE_FIELDS))
    .describe("Profile fields the company's own website did not state, left blank on purpose (not invented)."),
  verified: z.boolean().describe('Ownership proved (not the same as paid).'),
  awards: z.array(AwardWin).describe('Launch of the Week wins, newest first.'),
  seo: z.strictObject({ title: z.string().nullable(), description: z.string().nullable() }),
  votes: z
    .number()
    .int()
    .describe('All-time community votes (every vote; `vote_integrity.counted` is what they count).'),
  followers: z.number().int(),
  views: z.number().int(),
  updated_at: Timestamp,
};

/** The paid-only sections: present on the public profile only when unlocked. */
export const paidSectionsShape = {
  story: StoryView.nullable().describe('The founder story (present only when unlocked); null when it has none.'),
  milestones: z.array(MilestoneItem).describe('Newest first (present only when unlocked).'),
  media: z.array(MediaItem).describe('Screenshots and videos (present only when unlocked).'),
};

/** A listing's vote integrity report (get_listing): what its votes counted, and why some counted less. */
export const VoteIntegrity = z
  .strictObject({
    counted: z
      .number()
      .describe(
        'The counted votes: the sum of the weights of all its votes (each in [0, 1]), 2 decimals; what the community rankings use.',
      ),
    discounted: z.number().int().describe('How many of its votes count less than 1.'),
    by_reason: z
      .partialRecord(z.enum(VOTE_REASONS), z.number().int())
      .describe(
        'The discounted votes per reason category (each vote under the one that took the most weight): unconfirmed_email, new_account, hasty (cast too soon after the page was served, or without it), under_review (flagged by detection, waiting for the site team), coordinated (the team reviewed and discounted it). Categories with none are left out. The rules: /how-ranking-works.',
      ),
  })
  .describe('What its votes counted: `votes` is every vote, `counted` their weighted sum.');

export const ListingProfile = z.strictObject({
  ...profileShape,
  vote_integrity: VoteIntegrity,
  story: paidSectionsShape.story.optional(),
  milestones: paidSectionsShape.milestones.optional(),
  media: paidSectionsShape.media.optional(),
});
