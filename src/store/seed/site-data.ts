// Products with their demo prices, settings, sister sites and founder interview questions.
// These are the only place prices appear: code reads them from the products table.
import { DEFAULT_VAT_RATES_BP } from '../../domain/vat.ts';

export interface DemoProduct {
  code: string;
  name: string;
  description: string;
  price_cents: number;
  needs_listing: boolean;
  options: Record<string, unknown>;
}

export const PRODUCTS: DemoProduct[] = [
  {
    code: 'launch',
    name: 'Paid launch',
    description:
      'Go live at once, or in a launch week you choose. Unlocks the founder story, milestones and media sections; no badge needed on your homepage.',
    price_cents: 4900,
    needs_listing: true,
    options: {},
  },
  {
    code: 'skip_queue',
    name: 'Skip the free queue',
    description: 'Move a free listing from its queued launch week to an earlier week of your choice.',
    price_cents: 1900,
    needs_listing: true,
    options: {},
  },
  {
    code: 'featured',
    name: 'Featured placement',
    description:
      'Your listing featured on the home page and in its categories for seven days, with the Featured badge. Featured placement is paid and always labelled as such.',
    price_cents: 9900,
    needs_listing: true,
    options: { days: 7 },
  },
  {
    code: 'done_for_you',
    name: 'Done-for-you launch',
    description: 'We submit your product to other launch directories for you and send you every live link.',
    price_cents: 14900,
    needs_listing: true,
    options: {},
  },
  {
    code: 'launch_bundle',
    name: 'Launch bundle',
    description:
      'Paid launch, featured placement and the done-for-you launch together, for less than buying them one by one.',
    price_cents: 24900,
    needs_listing: true,
    options: {},
  },
  {
    code: 'extra_categories',
    name: 'Extra categories',
    description: 'List your product in up to three more categories besides its primary one. Priced per extra category.',
    price_cents: 900,
    needs_listing: true,
    options: { max: 3, unit: 'category', priced_per: 'category' },
  },
  {
    code: 'relaunch',
    name: 'Relaunch',
    description: 'Launch again in a new week after a major release; your listing keeps its votes, reviews and history.',
    price_cents: 2900,
    needs_listing: true,
    options: {},
  },
  {
    code: 'ai_review',
    name: 'AI listing review',
    description:
      'A written review of your listing and homepage with concrete suggestions for the tagline, description and screenshots, delivered by email within a day.',
    price_cents: 2900,
    needs_listing: true,
    options: {},
  },
  {
    code: 'billboard_min',
    name: 'Billboard contribution',
    description:
      'A contribution to the billboard, the PAID ranking ordered by money contributed. You choose the amount, at least the minimum. It never affects community rankings or awards.',
    price_cents: 500,
    needs_listing: true,
    options: { min_amount_cents: 500 },
  },
];

/** The demo site starts with the standard VAT rates of domain/vat.ts (the admin keeps them current). */
export const VAT_RATES_BP: Record<string, number> = { ...DEFAULT_VAT_RATES_BP };

export const SETTINGS: Record<string, unknown> = {
  free_queue_weeks: 4,
  billboard_min_cents: 500,
  vat_rates_bp: VAT_RATES_BP,
};

export const SISTER_SITES = [
  { key: 'saasgarden', name: 'SaaS Garden', url: 'https://saasgarden.example' },
  { key: 'aitoolshelf', name: 'AI Tool Shelf', url: 'https://aitoolshelf.example' },
];

export const INTERVIEW_QUESTIONS = [
  'What problem made you start your company?',
  'Who is your product for, and who is it not for?',
  'What did the very first version look like?',
  'How did you find your first ten customers?',
  'What is one decision you would make differently?',
  'What does a normal working week look like for you?',
  'Which tools could your team not work without?',
  'What has surprised you most about your customers?',
  'How do you decide what to build next?',
  'What advice would you give someone launching this month?',
];
