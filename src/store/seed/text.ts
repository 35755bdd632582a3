// Sentence building for the demo listings, founders, reviews, updates and stories.
import type { Rng } from './prng.ts';

export const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);
export const upperFirst = (s: string) => s[0].toUpperCase() + s.slice(1);

export function listJoin(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export type PricingModel = 'Free' | 'Freemium' | 'Subscription' | 'Open source' | 'One-time';

export function pricingSummary(model: PricingModel, rng: Rng): string {
  const monthly = rng.pick([5, 8, 9, 12, 15, 19, 24, 29, 39, 49, 79, 99]);
  switch (model) {
    case 'Free':
      return 'Free';
    case 'Freemium':
      return `Free plan; paid plans from $${monthly}/month`;
    case 'Subscription':
      return `From $${monthly}/month, with a 14-day free trial`;
    case 'Open source':
      return `Free and open source; hosted plans from $${monthly}/month`;
    case 'One-time':
      return `$${monthly * 4} one-time purchase, a year of updates included`;
  }
}

export function pricingSentence(name: string, model: PricingModel, features: string[], rng: Rng): string {
  switch (model) {
    case 'Free':
      return rng.pick([
        `${name} is free to use, with no plans to change that for individual users.`,
        `${name} is free; the team is funded by a small number of enterprise support contracts.`,
      ]);
    case 'Freemium':
      return rng.pick([
        `There is a free plan for getting started; paid plans add ${lowerFirst(features[features.length - 1])} and priority support.`,
        `Start on the free plan and upgrade when your team grows — paid plans unlock ${lowerFirst(features[features.length - 1])}.`,
      ]);
    case 'Subscription':
      return rng.pick([
        'Plans are billed monthly or yearly, and every plan starts with a 14-day free trial.',
        'Pricing is per seat, billed monthly or yearly with two months free on annual plans.',
      ]);
    case 'Open source':
      return rng.pick([
        'The core is open source under the MIT licence, with a hosted version for teams that would rather not run it themselves.',
        'Everything is open source under the Apache 2.0 licence; the paid cloud plan adds managed hosting and support.',
      ]);
    case 'One-time':
      return rng.pick([
        'It is a one-time purchase with a year of updates included — no subscription.',
        'Buy it once and keep it; major upgrades are discounted for existing customers.',
      ]);
  }
}

export function describe(
  o: {
    name: string;
    tagline: string;
    features: string[];
    audience: string;
    problem: string;
    model: PricingModel;
    city: string | null;
    founded: number | null;
  },
  rng: Rng,
): string {
  const f = o.features.map(lowerFirst);
  const opener = rng.pick([
    `${o.problem} ${o.name} is built to fix that for ${o.audience}.`,
    `${o.name} exists because ${lowerFirst(o.problem)} It is made for ${o.audience}.`,
    `${o.tagline}: that is the promise of ${o.name}, made for ${o.audience}. ${o.problem}`,
  ]);
  const body = rng.pick([
    `With ${o.name} you get ${listJoin(f.slice(0, 3))}. ${upperFirst(f[3] ?? f[0])} comes included on every plan.`,
    `The essentials are ${listJoin(f.slice(0, 3))}, and ${f[3] ?? 'a clean, fast interface'} rounds it off.`,
    `Key features include ${listJoin(f)}. Setup takes minutes, and nothing needs a sales call.`,
  ]);
  const origin =
    o.city && o.founded
      ? rng.pick([
          `The team is based in ${o.city} and has been building ${o.name} since ${o.founded}.`,
          `${o.name} was started in ${o.city} in ${o.founded} and is still run by its founders.`,
        ])
      : o.city
        ? `The team is based in ${o.city}.`
        : '';
  return [opener, body, pricingSentence(o.name, o.model, o.features, rng), origin].filter(Boolean).join('\n\n');
}

export function usps(facts: Record<string, unknown>, rng: Rng): string[] {
  const pool = [
    'Set up in minutes, no sales call needed',
    'Support from the people who build it',
    'Your data can be exported at any time',
    'Transparent pricing with no per-feature add-ons',
    'Fast, keyboard-friendly interface',
  ];
  if (facts.open_source === true) pool.unshift('Open source, so you can read every line');
  if (facts.self_hostable === true) pool.unshift('Runs on your own servers if you prefer');
  if (facts.end_to_end_encryption === true) pool.unshift('End-to-end encrypted by default');
  return rng.sample(pool.slice(0, 6), 2);
}

const REVIEW_GOOD = [
  'We moved our team to {name} last quarter and nobody wants to go back. {feature} alone saves us hours every week.',
  'Clean, fast and does exactly what it says. {feature} was the reason we switched, and it has been reliable.',
  'Support answered within the hour and shipped a fix the same week. {feature} works really well for us.',
  'I tried three alternatives before {name}. It is the only one my whole team actually uses every day.',
  'Simple to set up and it stays out of the way. {feature} is a nice touch that the bigger tools get wrong.',
];
const REVIEW_MIXED = [
  'Good product with a few rough edges. {feature} is great, but I would like better documentation for the API.',
  'Does the job. Pricing is fair, though the mobile experience still needs work.',
  'Solid start. {feature} is useful; I am waiting for more integrations before recommending it widely.',
];
const REVIEW_SPAM = [
  'Best app ever!!! 10/10 must buy, check my profile for a discount code!!!',
  'Amazing amazing amazing. Five stars. Visit my website for free followers.',
  'Great great product, I love it so much, everyone should use it now!!!',
];

export function reviewBody(name: string, features: string[], rating: number, spam: boolean, rng: Rng): string {
  const pool = spam ? REVIEW_SPAM : rating >= 4 ? REVIEW_GOOD : REVIEW_MIXED;
  return rng.pick(pool).replace('{name}', name).replace('{feature}', rng.pick(features));
}

export function updateFor(name: string, feature: string, rng: Rng): { title: string; body: string } {
  return rng.pick([
    {
      title: `${feature} is here`,
      body: `${feature} is now available to everyone on ${name}. It was the most requested improvement from the launch week — thank you to everyone who wrote in. Let us know how it works for you.`,
    },
    {
      title: `Faster and lighter: ${name} performance update`,
      body: `We rewrote the slowest parts of ${name}. Pages now load roughly twice as fast, and ${lowerFirst(feature)} responds instantly even on large accounts.`,
    },
    {
      title: 'New integrations and a fresh look',
      body: `${name} now connects to more of the tools you already use, and the settings pages have been redesigned so everything is easier to find. ${feature} also got a round of polish.`,
    },
    {
      title: 'What we shipped this month',
      body: `A month of small things: better keyboard shortcuts, clearer error messages, fixes to ${lowerFirst(feature)} and a new export option. Thanks for the feedback that keeps coming in.`,
    },
  ]);
}

export function storyFor(
  o: {
    name: string;
    founder: string;
    problem: string;
    audience: string;
    features: string[];
    city: string | null;
    founded: number | null;
  },
  rng: Rng,
) {
  const first = o.founder.split(' ')[0];
  const f = o.features.map(lowerFirst);
  return {
    title: rng.pick([`Why we built ${o.name}`, `The story of ${o.name}`, `From side project to ${o.name}`]),
    story: `${o.name} started with a frustration rather than a plan. ${o.problem} ${first} kept running into it, and eventually decided to build the tool they wished existed.`,
    why_started: `${first} had solved the same problem by hand at several jobs. When friends started asking for the scripts and spreadsheets behind it, it was clear there was a product in it.`,
    problem: `${o.problem} Existing tools were either built for large enterprises or too limited for ${o.audience}.`,
    journey: `The first version${o.founded ? `, written in ${o.founded},` : ''} did one thing: ${f[0]}. Early users asked for ${f[1]} and ${f[2]}, and the product grew from those conversations${o.city ? ` — mostly over coffee in ${o.city}` : ''}.`,
    challenges:
      'Saying no was the hardest part. Every customer asked for something slightly different, and keeping the product simple meant turning down requests from people we liked.',
    achievements: `Today ${o.name} is used by teams on four continents, and most new customers arrive through recommendations from existing ones.`,
    lessons:
      'Talk to users every week, ship small improvements often, and write the changelog for people rather than for search engines.',
    whats_next: `Next up: ${f[3] ?? 'deeper integrations'}, better onboarding and a public roadmap so customers can see what is coming.`,
  };
}

export const INTERVIEW_ANSWERS = [
  'We kept losing time to the same problem and could not find a tool that fixed it without creating new ones.',
  'Small teams who want something that works on day one. It is not for companies that need a hundred custom fields.',
  'A single page and a spreadsheet behind it. Embarrassing, but it proved people wanted it.',
  'Personal emails to people who had complained about the problem in public forums. About one in five replied.',
  'I would have charged from the first day. Free users gave us feedback, paying users gave us direction.',
  'Mornings for building, afternoons for customers, and Fridays for writing down what we learned.',
];
