// Demo blog posts (Markdown). `daysAgo` null = unpublished draft; negative = scheduled in the future.

export interface DemoPost {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  tags: string[];
  daysAgo: number | null;
  body: string;
  faqs: Array<{ question: string; answer: string }>;
}

export const POSTS: DemoPost[] = [
  {
    slug: 'how-launch-weeks-work',
    title: 'How launch weeks work on Launchlist',
    excerpt:
      'Every product launches in a week that runs Monday to Sunday. Here is how the week is ranked, when awards are decided and what happens to your listing afterwards.',
    author: 'Nora Lindqvist',
    tags: ['launching', 'guides'],
    daysAgo: 82,
    body: `# How launch weeks work on Launchlist

Every listing on Launchlist launches in a **launch week**. Weeks run from Monday 00:00 to Sunday 23:59 UTC, the same ISO weeks your calendar uses, so week 47 on our site is week 47 everywhere.

## Ranked by the community, and only the community

During the week, the launches of that week are ranked by the votes people cast *during that week*. A vote cast on Tuesday for a product launched on Monday counts; a vote cast the following month still counts towards the product's all-time total, but not towards its launch week.

Votes come only from people signed in on the website. There is no way to vote through the API, and there never will be: a ranking anyone can script is not a ranking.

## Launch of the Week

When the week ends, the top three launches by votes become **Launch of the Week #1, #2 and #3**. Ties go to the product that launched first. Money plays no part — the billboard is a separate, clearly labelled paid ranking.

## After the week

Your listing stays in the directory, in its categories and in search. It keeps collecting votes, followers and reviews, and it can climb the all-time board long after launch day.

## Picking a week

Paid launches can go live at once or in a week you choose from the weeks on sale. Free listings are queued a few weeks out and go live once our badge is on their homepage.`,
    faqs: [
      {
        question: 'Which time zone do launch weeks use?',
        answer: 'UTC. A week starts on Monday at 00:00 UTC and ends when the next Monday begins.',
      },
      {
        question: 'Can I change my launch week?',
        answer:
          'Paid launches can be moved to another week on sale before they go live. Free listings keep their queued week unless they buy a skip-the-queue upgrade.',
      },
    ],
  },
  {
    slug: 'writing-a-tagline-that-works',
    title: 'Writing a tagline that survives the front page',
    excerpt:
      'You get about eight words to explain why someone should click. Five patterns that work, and three that quietly cost you votes.',
    author: 'Julien Dubois',
    tags: ['copywriting', 'launching'],
    daysAgo: 67,
    body: `# Writing a tagline that survives the front page

On a launch page your tagline sits next to dozens of others. Visitors scan, they do not read. You have roughly eight words.

## Patterns that work

1. **Outcome first.** "Invoices that get paid twice as fast" beats "A modern invoicing platform".
2. **Name the audience.** "Payroll for teams of two to fifty" tells the right people it is for them.
3. **Contrast with the default.** "Live chat that loads after your page, not before" names the pain of the usual option.
4. **A concrete number.** Numbers are scannable — as long as they are true.
5. **Plain verbs.** "Find", "send", "fix" and "ship" read faster than "leverage" or "empower".

## Patterns that cost you

- *Category labels* ("An AI-powered productivity suite") say what you are, not why anyone should care.
- *Clever puns* work for people who already know you. Everyone else scrolls past.
- *Stacked buzzwords* make every product sound the same.

## Test it

Read your tagline to someone outside your industry. If they cannot say what the product does, rewrite it.`,
    faqs: [
      {
        question: 'How long can a tagline be?',
        answer: 'Up to 200 characters, but the best ones are under 60 — short enough to read at a glance on a phone.',
      },
      {
        question: 'Can I change my tagline after launch?',
        answer: "Yes. Edits publish at once and are kept in your listing's version history.",
      },
    ],
  },
  {
    slug: 'free-or-paid-launch',
    title: 'Free or paid launch: what actually changes',
    excerpt:
      'Both kinds of listing are ranked by the same votes. The difference is timing, extra sections and a few upgrades — not your position on the board.',
    author: 'Nora Lindqvist',
    tags: ['launching', 'pricing'],
    daysAgo: 54,
    body: `# Free or paid launch: what actually changes

We get this question every week, so here is the straight answer.

## What is the same

- Both free and paid listings are ranked by community votes, in the same weekly board, with the same rules.
- Both can win Launch of the Week.
- Both appear in search, categories and the founder directory.

## What a paid launch adds

- **Timing.** A paid launch goes live immediately or in a week you choose. Free listings are queued a few weeks out.
- **Profile sections.** Paid listings can show a founder story, milestones and a media gallery.
- **No badge requirement.** Free listings go live once our badge is on their homepage; paid listings do not need it.

## What money never buys

Votes, awards or a better position in the community rankings. The only ranking money affects is the **billboard**, and it is labelled as paid everywhere it appears — on the site, in the API and in the MCP tools.

## Prices

Prices are set by our team, shown in US dollars excluding VAT, and always read from the products list. We never hard-code them in emails or docs, because they change.`,
    faqs: [
      {
        question: 'Does a paid launch rank higher?',
        answer: 'No. Community rankings and awards depend only on votes.',
      },
      {
        question: 'Where do I see current prices?',
        answer: 'On the pricing page, or through the list_products operation of the API. Prices exclude VAT.',
      },
    ],
  },
  {
    slug: 'why-the-billboard-says-paid',
    title: 'Why the billboard is labelled paid — and always will be',
    excerpt:
      'The billboard ranks listings by money contributed. That is a legitimate way to get attention, as long as nobody mistakes it for a community verdict.',
    author: 'Tobias Becker',
    tags: ['transparency', 'rankings'],
    daysAgo: 41,
    body: `# Why the billboard is labelled paid — and always will be

Launchlist has several rankings that answer different questions:

| Ranking | Question it answers |
| --- | --- |
| Community weekly | What did people like most this week? |
| Community all time | What have people liked most, ever? |
| Billboard | Who paid the most for visibility? |
| Domain Rating | Whose website has the strongest backlink profile? |
| Revenue | Who reports the highest monthly revenue? |

## Paid visibility is fine. Hidden paid visibility is not.

Makers can contribute to the billboard to be seen. That is advertising, and advertising is fine when it is labelled. What is not fine is a paid ranking that looks like a community one.

So the billboard is marked *paid* wherever it appears. In the API every billboard response carries \`paid: true\` on the board and on every item, and the tool descriptions tell AI agents to present it as paid.

## Awards ignore money

Launch of the Week is decided by community votes alone. A listing at the top of the billboard with few votes does not win.`,
    faqs: [
      {
        question: 'Is there a minimum billboard contribution?',
        answer: 'Yes, set by our team and shown in the products list as the billboard_min product.',
      },
      { question: 'Does billboard money affect awards?', answer: 'No. Awards follow community votes only.' },
    ],
  },
  {
    slug: 'adding-the-launchlist-badge',
    title: 'Adding the Launchlist badge to your homepage',
    excerpt:
      'Free listings go live once our badge is on their homepage. Copy the embed code, pick a style that fits your footer, and you are done.',
    author: 'Mei Chen',
    tags: ['badges', 'guides'],
    daysAgo: 29,
    body: `# Adding the Launchlist badge to your homepage

If you chose the free plan, your listing goes live in its launch week once the Launchlist badge is on your homepage. Here is how to add it in a couple of minutes.

## 1. Get the code

Open your listing's badge page, or call \`get_badges\` through the API. Each badge comes with ready-to-paste HTML: a link to your listing wrapped around an SVG image.

## 2. Pick a style

Badges come in five shapes — standard, outline, pill, banner and square — three sizes and three modes. **Auto** mode follows the visitor's light or dark preference, so it looks right on any theme.

## 3. Paste it on your homepage

Most people put it in the footer. It must be on the homepage itself (the page at your listing's website address), not behind a login, and not added by a script after the page loads.

## 4. That is it

We check your homepage automatically. Once the badge or a link to your listing is found, your listing is cleared to go live in its week.

### Can I remove it later?

After launch, yes. Many makers keep it, and swap it for a Launch of the Week badge if they win one.`,
    faqs: [
      {
        question: 'Does the badge have to link to Launchlist?',
        answer: 'Yes — the check looks for a link to your listing page or our badge image on your homepage.',
      },
      {
        question: 'Will the badge slow my site down?',
        answer: 'No. It is a small SVG image served with long cache headers.',
      },
    ],
  },
  {
    slug: 'using-launchlist-with-ai-agents',
    title: 'Using Launchlist with your AI agent',
    excerpt:
      'Everything on Launchlist is available through a REST API and an MCP server with the same operations. A short tour for people who let agents do the clicking.',
    author: 'Kenji Tanaka',
    tags: ['api', 'mcp', 'developers'],
    daysAgo: 16,
    body: `# Using Launchlist with your AI agent

Launchlist offers the same operations three ways: a REST API under \`/api/v1\`, an MCP server at \`/mcp\`, and an OpenAPI 3.1 document describing both.

## Reading needs no sign-in

Searching listings, browsing categories and launch weeks, reading leaderboards, founders, awards and badges are all public. An agent can start with \`get_site_info\` to learn where everything is.

## Writing needs your permission

Submitting a product, editing a listing or pricing an order needs an API key from your account or OAuth sign-in. With MCP, your client sends you to a Launchlist sign-in page where you choose what the agent may do.

## Three rules for agents

1. **No voting.** Votes come only from people on the website.
2. **Never hard-code prices.** Read them from \`list_products\` or \`quote_order\`.
3. **Hand over the checkout link.** \`create_checkout\` returns a \`checkout_url\`; the person opens it and pays themselves. Agents must never ask for card details.

## Drafts quote their sources

When you submit a website, the draft quotes the page text behind every value. Anything the site does not state is left blank and listed in \`not_found_on_website\` — we would rather show a gap than an invention.`,
    faqs: [
      {
        question: 'Is the MCP server the same as the API?',
        answer: 'Yes. Every tool has the same name, inputs and rules as the matching API operation.',
      },
      {
        question: 'How do I get an API key?',
        answer: 'Create one in your account under API keys. It is shown once, so store it safely.',
      },
    ],
  },
  {
    slug: 'domain-rating-explained',
    title: 'Domain Rating, explained without the hype',
    excerpt:
      'Domain Rating is one number about backlinks. It is useful for comparing websites, and misleading as a measure of product quality. Here is how we show it.',
    author: 'Tobias Becker',
    tags: ['seo', 'rankings'],
    daysAgo: 9,
    body: `# Domain Rating, explained without the hype

Domain Rating (DR) is a third-party score from 0 to 100 estimating how strong a website's backlink profile is. It is logarithmic: going from 20 to 30 is far easier than going from 70 to 80.

## What it tells you

- Roughly how much authority search engines might give the site.
- Whether a site's link building is growing or shrinking, when you look at the trend.

## What it does not tell you

- Whether the product is good.
- Whether customers are happy.
- Anything about a product that launched last month.

## How Launchlist shows it

We show the latest reading with its trend against the previous one — up, down or flat — on listing pages and on the Domain Rating leaderboard. It is one signal among several, and it is always labelled as a third-party metric.`,
    faqs: [
      { question: 'How often is Domain Rating updated?', answer: 'We record a new reading roughly once a month.' },
      {
        question: "Can I improve my listing's Domain Rating on Launchlist?",
        answer: "Only by improving your own website's backlinks; we simply display the third-party figure.",
      },
    ],
  },
  {
    slug: 'what-makes-a-launch-week-go-well',
    title: 'What makes a launch week go well',
    excerpt:
      'Launch day matters less than the four weeks before it. A checklist from makers who have done it more than once.',
    author: 'Mei Chen',
    tags: ['launching', 'guides'],
    daysAgo: 3,
    body: `# What makes a launch week go well

We asked makers who have launched more than one product what they would do again. The answers were surprisingly consistent.

## Four weeks before

- **Finish the profile.** A clear tagline, a real description, screenshots and answers to the obvious questions.
- **Tell your existing users.** The people who already like your product are your best early voters — ask them to visit, not to vote for you blindly.

## The week itself

- **Be around.** Reply to every comment and question during the first day.
- **Post an update.** Followers are notified of updates; a mid-week improvement gives them a reason to come back.

## After the week

- **Write the story.** Paid listings can add a founder story and milestones. Stories are what people read after the rankings are forgotten.
- **Keep shipping.** All-time rankings reward products that keep improving.

### One thing not to do

Do not buy votes or ask for votes in exchange for anything. Suspicious voting is removed, and listings that rely on it are taken down.`,
    faqs: [
      {
        question: 'Is there a best day to launch?',
        answer:
          'Launch weeks start on Monday, and launches live from the start of the week have the most time to collect votes.',
      },
    ],
  },
  {
    slug: 'how-drafts-quote-your-website',
    title: 'Behind the scenes: how drafts quote your website',
    excerpt:
      'A look at the crawler and drafter that turn a URL into a listing draft, and why every value comes with a quote.',
    author: 'Kenji Tanaka',
    tags: ['engineering'],
    daysAgo: null,
    body: `# Behind the scenes: how drafts quote your website

*Draft — not yet published.*

## Reading politely

The crawler reads a handful of pages from your site, respects robots.txt and crawl delays, and never follows links to other sites.

## Quoting, not inventing

Every value in a draft carries the sentence from your site it came from. If nothing on the site states a fact, the field stays empty and is listed as not found.`,
    faqs: [],
  },
  {
    slug: 'new-category-pages',
    title: 'New category pages with comparisons',
    excerpt: 'Category pages now show comparable facts — open source, self-hosting, platforms and more — side by side.',
    author: 'Nora Lindqvist',
    tags: ['product-updates'],
    daysAgo: -5,
    body: `# New category pages with comparisons

Each category now has a short list of comparable facts, such as whether a product is open source, can be self-hosted, has an API or a free tier. Listing pages show the facts their makers state, and you can compare any two listings side by side.

## Where the facts come from

From each maker's own website. A blank cell means neither website states the fact.`,
    faqs: [
      {
        question: 'Can I suggest a new comparable fact?',
        answer: 'Yes — write to us with the category and the fact you would like to compare.',
      },
    ],
  },
];
