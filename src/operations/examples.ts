// Example values the operations show in the OpenAPI document (one per response), built from shared
// pieces so that they agree with each other. test/api/schemas.test.ts checks every example against
// its operation's response schema.
import type { z } from 'zod';
import type { ListingProfile } from './profile.ts';
import type { ListingSummary } from './schemas.ts';

export const EXAMPLE_SUMMARY: z.input<typeof ListingSummary> = {
  slug: 'funnelry',
  name: 'Funnelry',
  url: 'https://funnelry.example',
  tagline: 'Product analytics that answers questions in plain words',
  logo_url: 'https://funnelry.example/logo.svg',
  votes: 128,
  primary_category: { slug: 'analytics', name: 'Analytics' },
  status: 'live',
  launch_week: '2026-11-16',
  launched_at: '2026-11-16T09:00:00.000Z',
};

export const EXAMPLE_PROFILE: z.input<typeof ListingProfile> = {
  slug: 'funnelry',
  name: 'Funnelry',
  url: 'https://funnelry.example',
  domain: 'funnelry.example',
  tagline: 'Product analytics that answers questions in plain words',
  short_description: 'Ask how your product is used and get a chart back.',
  description: 'Funnelry turns product events into answers: funnels, retention and paths, asked in plain words.',
  headline: null,
  summary: null,
  logo_url: 'https://funnelry.example/logo.svg',
  status: 'live',
  launch_week: '2026-11-16',
  launched_at: '2026-11-16T09:00:00.000Z',
  stage: 'launched',
  country: 'DE',
  city: 'Berlin',
  founded_year: 2024,
  contact_email: 'hello@funnelry.example',
  pricing: { model: 'Freemium', summary: 'Free up to 10,000 events a month; Team $49/month' },
  features: ['Funnels in plain words', 'Retention cohorts'],
  usps: ['No SQL needed'],
  keywords: ['analytics', 'funnels'],
  tags: ['analytics'],
  categories: [{ slug: 'analytics', name: 'Analytics', primary: true, parent: { slug: 'data', name: 'Data' } }],
  founders: [
    {
      slug: 'ada-lovelace',
      name: 'Ada Lovelace',
      title: 'CEO',
      avatar_url: null,
      country: 'DE',
      socials: { linkedin: 'https://www.linkedin.com/in/ada' },
    },
  ],
  faqs: [{ question: 'Is there a free plan?', answer: 'Yes, up to 10,000 events a month.' }],
  socials: { x: 'https://x.com/funnelry' },
  latest_updates: [
    { id: 12, title: 'Retention cohorts', body: 'Cohorts by signup week.', created_at: '2026-11-20T10:00:00.000Z' },
  ],
  community_rating: { average: 4.6, count: 9 },
  domain_rating: {
    value: 41,
    as_of: '2026-11-01',
    trend: { direction: 'up', change_30d: 3, change_90d: 7 },
    history: [
      { date: '2026-08-01', rating: 34 },
      { date: '2026-11-01', rating: 41 },
    ],
  },
  links: { website: 'https://funnelry.example', demo_video: null },
  facts: { open_source: false, self_hostable: false },
  not_found_on_website: ['demo_video_url'],
  verified: true,
  awards: [{ week: '2026-11-16', rank: 1, title: 'Launch of the Week #1', votes: 128 }],
  seo: { title: null, description: null },
  votes: 128,
  vote_integrity: { counted: 121.5, discounted: 10, by_reason: { new_account: 8, hasty: 2 } },
  followers: 31,
  views: 2210,
  updated_at: '2026-11-20T10:00:00.000Z',
};
