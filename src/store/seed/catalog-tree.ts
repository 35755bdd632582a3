// The demo category tree and the products listed in it. Invented companies; domains use the
// reserved .example top-level domain so no demo link points at a real site.

export type Concept = [name: string, tagline: string, features: string[]];

export interface ChildCategory {
  slug: string;
  name: string;
  description: string;
  faq: [string, string];
  /** who the products are for, e.g. "backend teams" */
  audience: string;
  /** one or two sentences on the problem the category solves */
  problem: string;
  products: Concept[];
}

export interface ParentCategory {
  slug: string;
  name: string;
  description: string;
  faq: [string, string];
  attributes: string[];
  children: ChildCategory[];
}

export const TREE: ParentCategory[] = [
  {
    slug: 'developer-tools',
    name: 'Developer Tools',
    description:
      'Tools that help software teams design, build, test and ship code: API tooling, databases, CI/CD, editors and testing. It also covers the building blocks developers code with: programming languages, frameworks, libraries and SDKs, game engines, command-line tools, low-code and internal-tool builders, and open-source projects for programmers.',
    faq: [
      'How do I choose a developer tool for a small team?',
      'Start from the workflow you repeat most each week, then compare a short list on self-hosting, pricing per seat and how well each fits the tools you already run. Most listings here offer a free tier, so try two side by side on a real task.',
    ],
    attributes: ['open_source', 'self_hostable', 'api', 'free_tier', 'platforms', 'cli'],
    children: [
      {
        slug: 'api-tools',
        name: 'API Tools',
        audience: 'backend and platform teams',
        description:
          'Design, mock, test, monitor and document HTTP and GraphQL APIs. It covers REST and GraphQL clients, API gateways, webhooks, mock servers, SDK generators and OpenAPI documentation.',
        problem:
          'Teams that depend on APIs lose hours to flaky sandboxes, drifting documentation and breaking changes nobody announced.',
        faq: [
          'Do I need a separate tool for API mocking and testing?',
          'Not always. Several tools here combine mocking, contract tests and documentation from one OpenAPI file; pick a dedicated tool only when one of those jobs dominates your week.',
        ],
        products: [
          [
            'Mockingjay',
            'Mock any REST or GraphQL API in seconds',
            [
              'Recorded request replay',
              'Shareable mock servers',
              'Contract tests in CI',
              'OpenAPI and GraphQL schema import',
            ],
          ],
          [
            'Specwright',
            'Turn your OpenAPI file into docs people actually read',
            [
              'Interactive reference with live examples',
              'Versioned changelogs',
              'Custom domains and themes',
              'Search across every endpoint',
            ],
          ],
          [
            'Hooklane',
            'Receive, queue and replay webhooks without losing one',
            [
              'Durable webhook queue',
              'One-click replay of failed deliveries',
              'Signature verification',
              'Per-source rate limits',
            ],
          ],
          [
            'Pactline',
            'Catch breaking API changes before they reach production',
            [
              'Schema diff on every pull request',
              'Consumer-driven contracts',
              'Slack alerts for breaking changes',
              'GitHub and GitLab checks',
            ],
          ],
          [
            'Latencia',
            'Synthetic API checks from twelve regions',
            [
              'Multi-step API checks',
              'Regional latency maps',
              'Status page included',
              'Alerting to PagerDuty and Opsgenie',
            ],
          ],
        ],
      },
      {
        slug: 'databases',
        name: 'Databases',
        audience: 'developers and data teams',
        description:
          'Hosted and self-hosted databases, query tools, schema migration and backup services. It covers SQL and NoSQL databases, spreadsheet-style databases, data warehouses, ORMs, admin panels and data pipelines.',
        problem:
          'Running a database well means backups, migrations and query tuning — work that rarely makes the roadmap until something breaks.',
        faq: [
          'Should I pick a serverless or a provisioned database?',
          'Serverless suits spiky or low traffic and pays for itself in idle time; provisioned instances are cheaper and more predictable under steady load. Several listings let you start serverless and move later.',
        ],
        products: [
          [
            'Tablewise',
            'A fast, friendly SQL client for Postgres and SQLite',
            [
              'Saved queries shared with your team',
              'Inline charts from any result',
              'Safe mode for production',
              'Schema browser with search',
            ],
          ],
          [
            'Driftless',
            'Database migrations that review like code',
            [
              'Migration plans in pull requests',
              'Lock and downtime warnings',
              'Rollback scripts generated for you',
              'Works with Postgres and MySQL',
            ],
          ],
          [
            'Snapvault',
            'Point-in-time backups for any Postgres database',
            [
              'Continuous WAL archiving',
              'Restore to any second of the last 30 days',
              'Encrypted off-site copies',
              'Restore drills on a schedule',
            ],
          ],
          [
            'Quarry',
            'Serverless Postgres that scales to zero',
            [
              'Branching for every pull request',
              'Scale-to-zero compute',
              'Read replicas in one click',
              'Connection pooling built in',
            ],
          ],
          [
            'Indexly',
            'Finds the indexes your slow queries are missing',
            [
              'Slow-query capture',
              'Index suggestions with estimated gains',
              'Unused index report',
              'Weekly performance digest',
            ],
          ],
        ],
      },
      {
        slug: 'devops-ci',
        name: 'DevOps & CI',
        audience: 'engineering teams',
        description:
          'Continuous integration, deployment, infrastructure as code and developer platforms. It covers build servers, deployment pipelines, containers and Kubernetes, serverless hosting, cloud infrastructure and release automation.',
        problem: 'Slow pipelines and hand-run deploys quietly cost every engineer an hour a day.',
        faq: [
          'How can I make CI faster without rewriting pipelines?',
          'Caching dependencies, splitting tests across machines and skipping jobs for untouched paths usually halve build times. Several tools here do all three with a few lines of configuration.',
        ],
        products: [
          [
            'Buildyard CI',
            'CI that caches everything and finishes before your coffee',
            [
              'Remote build cache',
              'Automatic test splitting',
              'Ephemeral preview environments',
              'Native GitHub Actions runner',
            ],
          ],
          [
            'Planlens',
            'See what your infrastructure change will cost before you apply it',
            ['Cost diff on every plan', 'Policy checks in pull requests', 'Drift detection', 'Module registry'],
          ],
          [
            'Rollcall',
            'Feature flags and gradual rollouts for small teams',
            ['Percentage rollouts', 'Kill switches', 'Audit log of every change', 'SDKs for eight languages'],
          ],
          [
            'Deployhand',
            'One-command deploys to your own cloud account',
            ['Zero-downtime deploys', 'Automatic HTTPS', 'Rollback to any release', 'Secrets management'],
          ],
          [
            'Flakehound',
            'Finds and quarantines flaky tests automatically',
            ['Flaky-test detection across runs', 'Automatic quarantine', 'Owner assignment', 'Trends per suite'],
          ],
        ],
      },
      {
        slug: 'code-editors',
        name: 'Code Editors & IDEs',
        audience: 'developers',
        description:
          'Editors, IDEs, terminals and the extensions that make them faster. It covers text editors, integrated development environments, terminal emulators, shells, plugins and code snippets.',
        problem:
          'Developers spend most of their day in an editor and a terminal, yet small frictions there add up to hours each week.',
        faq: [
          'Will a new editor work with my existing extensions?',
          "Editors built on the VS Code extension API usually run most existing extensions; native editors trade that for speed. Check the listing's platforms and extension support before switching.",
        ],
        products: [
          [
            'Quillcode',
            'A native code editor that opens a million-line repo instantly',
            [
              'Native rendering on macOS, Windows and Linux',
              'Multi-cursor refactors',
              'Built-in language servers',
              'Remote editing over SSH',
            ],
          ],
          [
            'Termstack',
            'A terminal that remembers every command and its output',
            [
              'Searchable command history with output',
              'Shareable terminal sessions',
              'Split panes and workspaces',
              'Command palette',
            ],
          ],
          [
            'Snippet Shelf',
            "Your team's shared library of code snippets",
            [
              'Snippet search from the editor',
              'Tagging and ownership',
              'VS Code and JetBrains plugins',
              'Secret scanning before sharing',
            ],
          ],
          [
            'Gitloom',
            'A visual Git client for people who think in branches',
            [
              'Interactive rebase by drag and drop',
              'Conflict resolution side by side',
              'Stacked pull requests',
              'Commit graph that scales',
            ],
          ],
        ],
      },
      {
        slug: 'testing-qa',
        name: 'Testing & QA',
        audience: 'QA engineers and developers',
        description:
          'End-to-end, visual, load and accessibility testing tools. It covers unit, integration and browser test runners, test management, bug tracking and performance testing.',
        problem: 'Manual regression passes are slow and brittle end-to-end suites erode trust in every release.',
        faq: [
          'Are record-and-replay test tools reliable?',
          'Modern recorders generate resilient selectors and wait for the page instead of using fixed sleeps, which removes most flakiness. Keep critical flows in code review like any other test.',
        ],
        products: [
          [
            'Pixelproof',
            'Visual regression tests that ignore the noise',
            [
              'Perceptual image diffs',
              'Ignore regions and dynamic content',
              'Storybook integration',
              'Review and approve in the browser',
            ],
          ],
          [
            'Loadsmith',
            'Load tests written in plain TypeScript',
            [
              'Scripted scenarios in TypeScript',
              'Distributed load from the cloud',
              'Real-time latency percentiles',
              'Thresholds that fail the build',
            ],
          ],
          [
            'Accesscheck',
            'Accessibility checks on every pull request',
            ['WCAG 2.2 rule set', 'Annotated screenshots of issues', 'Fix suggestions', 'Trend dashboard per page'],
          ],
          [
            'Playback QA',
            'Record a browser flow once and run it on every deploy',
            [
              'Record and replay in the browser',
              'Self-healing selectors',
              'Parallel cloud runs',
              'Video of every failure',
            ],
          ],
        ],
      },
    ],
  },
  {
    slug: 'artificial-intelligence',
    name: 'Artificial Intelligence',
    description:
      'Products built on machine learning: writing assistants, agents, image and video generation, and the tooling to run models in production. It also covers chatbots, language models, machine-learning frameworks, speech and voice AI, and AI-powered assistants.',
    faq: [
      'How do I judge an AI product beyond the demo?',
      'Ask where your data goes and whether it trains models, what happens when the model is wrong, and how the price scales with use. Listings note free tiers, API access and self-hosting where the maker states them.',
    ],
    attributes: ['api', 'free_tier', 'open_source', 'self_hostable', 'platforms', 'bring_your_own_model'],
    children: [
      {
        slug: 'ai-writing',
        name: 'AI Writing',
        audience: 'writers, marketers and support teams',
        description:
          'Assistants that draft, edit, translate and summarise text. It covers AI copywriting, grammar and paraphrasing tools, AI translation and summarisers.',
        problem: 'Blank pages, inconsistent tone and endless rewrites slow every team that writes for customers.',
        faq: [
          'Will AI-written text sound like my brand?',
          'Tools that learn from a style guide or past writing keep tone consistent; always review facts and claims before publishing.',
        ],
        products: [
          [
            'Draftsmith',
            "First drafts in your brand voice, not a robot's",
            [
              'Brand voice trained on your past writing',
              'Outline-to-draft workflow',
              'Fact-check highlights',
              'Google Docs add-on',
            ],
          ],
          [
            'Tersely',
            'Summaries of long documents in one click',
            ['PDF and web page summaries', 'Key-point extraction', 'Source-linked citations', 'Browser extension'],
          ],
          [
            'Lingo Bridge',
            'Translate product copy without losing the nuance',
            ['Glossary enforcement', 'Side-by-side review', 'Figma and Webflow plugins', '30 languages'],
          ],
          [
            'Replywell',
            'Support replies drafted from your help centre',
            ['Answers grounded in your docs', 'Tone presets', 'Zendesk and Help Scout apps', 'Confidence scores'],
          ],
          [
            'Proseflow',
            'An editor that tightens your writing as you type',
            ['Clarity and concision suggestions', 'Readability score', 'Plain-language mode', 'Works offline'],
          ],
        ],
      },
      {
        slug: 'ai-agents',
        name: 'AI Agents',
        audience: 'operations and engineering teams',
        description:
          'Agents and automations that take multi-step actions across your tools. It covers autonomous agents, AI workflow automation, coding agents and AI assistants that act on your behalf.',
        problem: 'Repetitive multi-step work across many tools eats the time of skilled people.',
        faq: [
          'Can I control what an AI agent is allowed to do?',
          'Good agent platforms let you scope each tool, require approval for risky actions and keep a full log of every step. Look for those controls before connecting production systems.',
        ],
        products: [
          [
            'Taskpilot',
            'Agents that finish browser chores while you sleep',
            [
              'Browser automation from plain instructions',
              'Approval steps for risky actions',
              'Run history with screenshots',
              'Scheduled runs',
            ],
          ],
          [
            'Opsmate',
            'An on-call assistant that reads your runbooks',
            ['Runbook-aware incident triage', 'Slack-native', 'Read-only mode by default', 'Post-incident summaries'],
          ],
          [
            'Inboxer',
            'An agent that sorts, drafts and files your email',
            ['Priority inbox', 'Drafts in your voice', 'Follow-up reminders', 'Works with Gmail and Outlook'],
          ],
          [
            'Agentry',
            'Build, test and monitor tool-using agents',
            ['Visual agent builder', 'Evaluation suites', 'Tracing of every tool call', 'MCP tool support'],
          ],
          [
            'Ledgerbot',
            'Bookkeeping agent that reconciles transactions for you',
            [
              'Bank feed reconciliation',
              'Receipt matching',
              'Questions routed to your accountant',
              'Xero and QuickBooks sync',
            ],
          ],
        ],
      },
      {
        slug: 'ai-image-video',
        name: 'AI Image & Video',
        audience: 'creators and marketing teams',
        description:
          'Generate, edit and upscale images and video with AI. It covers text-to-image, AI avatars, AI photo editing, background removal and AI video generators.',
        problem: 'Producing visual content at the pace social channels demand is expensive and slow.',
        faq: [
          'Can I use AI-generated images commercially?',
          "It depends on the tool's licence and on what the training data allows. Listings state licensing where the maker publishes it; check before using images in paid campaigns.",
        ],
        products: [
          [
            'Frameforge',
            'Product photos on any background in seconds',
            ['Background generation', 'Consistent lighting and shadows', 'Batch processing', 'Shopify app'],
          ],
          [
            'Clipcraft',
            'Turn long videos into short clips that get watched',
            [
              'Automatic highlight detection',
              'Captions in 20 languages',
              'Reframing for vertical video',
              'Scheduling to social channels',
            ],
          ],
          [
            'Upscaly',
            'Upscale images four times without the mush',
            ['4x super-resolution', 'Face restoration', 'Batch API', 'Photoshop plugin'],
          ],
          [
            'Storyboard AI',
            'Storyboards from a script in minutes',
            ['Script-to-panel generation', 'Consistent characters', 'Shot list export', 'PDF and Frame.io export'],
          ],
        ],
      },
      {
        slug: 'llm-ops',
        name: 'LLM Ops',
        audience: 'AI engineers',
        description:
          'Evaluation, observability, prompt management and gateways for language-model applications. It covers prompt engineering, model evaluation, fine-tuning, vector databases and LLM monitoring.',
        problem:
          'Shipping an LLM feature is easy; knowing whether it still works after the next prompt or model change is not.',
        faq: [
          'What should I monitor in an LLM application?',
          'Track cost and latency per request, failure and refusal rates, and the quality scores of a fixed evaluation set run on every change.',
        ],
        products: [
          [
            'Promptbench',
            'Version, test and deploy prompts like code',
            ['Prompt versioning', 'A/B tests in production', 'Evaluation datasets', 'Rollback in one click'],
          ],
          [
            'Tracewell',
            'Observability for LLM apps, from prompt to tool call',
            [
              'Traces of every call and tool step',
              'Cost and latency dashboards',
              'PII redaction',
              'OpenTelemetry export',
            ],
          ],
          [
            'Evalkit',
            'Regression tests for your AI features',
            [
              'Golden datasets',
              'Model-graded and rule-based checks',
              'CI integration',
              'Side-by-side model comparison',
            ],
          ],
          [
            'Gatewise',
            'One API gateway for every model provider',
            ['Provider failover', 'Semantic caching', 'Per-team budgets', 'Key management'],
          ],
          [
            'Guardrail Labs',
            'Catch prompt injection and data leaks before they ship',
            ['Prompt-injection detection', 'Output filters', 'Policy as code', 'Red-team test packs'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'productivity',
    name: 'Productivity',
    description:
      'Notes, tasks, calendars and email: tools for getting work done with less friction. It also covers personal utilities for everyday work: writing and text editors for prose, file transfer, sync and cloud storage, backups, remote desktop and screen sharing, browsers, launchers, clipboard and automation apps.',
    faq: [
      'How many productivity tools should a team use?',
      'As few as cover your work. Many teams settle on one place for tasks, one for documents and one calendar; prefer tools that integrate over tools that overlap.',
    ],
    attributes: ['platforms', 'offline_mode', 'free_tier', 'api', 'end_to_end_encryption'],
    children: [
      {
        slug: 'note-taking',
        name: 'Note Taking',
        audience: 'students, researchers and knowledge workers',
        description:
          'Apps for capturing, linking and finding notes. It covers notebooks, personal knowledge management, journaling, markdown notes and outliners.',
        problem: 'Ideas scattered across apps, paper and chat threads are impossible to find when they matter.',
        faq: [
          'Are my notes locked in if I switch apps later?',
          "Apps that store Markdown files or offer full export keep you free to move; check the listing's export formats before committing years of notes.",
        ],
        products: [
          [
            'Inkwell',
            'Notes that link themselves',
            [
              'Automatic backlinks',
              'Local Markdown files',
              'Full-text search in milliseconds',
              'End-to-end encrypted sync',
            ],
          ],
          [
            'Margin',
            'Read, highlight and remember what you read',
            [
              'Highlights from books, PDFs and the web',
              'Daily review of past highlights',
              'Export to Markdown',
              'Kindle import',
            ],
          ],
          [
            'Jotpad',
            'The fastest way to capture a thought',
            [
              'Global quick-capture shortcut',
              'Voice notes with transcripts',
              'Inbox for later sorting',
              'Works offline',
            ],
          ],
          [
            'Cortex Notes',
            'A research notebook for literature and ideas',
            ['Citation manager', 'PDF annotation', 'Graph view of ideas', 'LaTeX support'],
          ],
          [
            'Meeting Memo',
            'Meeting notes that write the follow-ups for you',
            ['Agenda templates', 'Action items with owners', 'Calendar integration', 'Shared team notebook'],
          ],
        ],
      },
      {
        slug: 'task-management',
        name: 'Task Management',
        audience: 'individuals and small teams',
        description:
          'To-do lists, project boards and planners. It covers to-do apps, kanban boards, project management, habit trackers and time tracking.',
        problem: 'Work slips when tasks live in heads, inboxes and chat messages instead of one trusted list.',
        faq: [
          'Kanban board or list — which is better?',
          'Boards show flow and bottlenecks; lists are quicker for personal to-dos. Most tools here offer both views of the same tasks.',
        ],
        products: [
          [
            'Tallyboard',
            'Project boards that stay fast at ten thousand cards',
            [
              'Kanban, list and timeline views',
              'Keyboard-first navigation',
              'Automations without code',
              'Guest access',
            ],
          ],
          [
            'Doneday',
            'A daily planner that fits tasks into your calendar',
            [
              'Time-blocking from your task list',
              'Daily shutdown review',
              'Google and Outlook calendar sync',
              'Focus timer',
            ],
          ],
          [
            'Checkmate',
            'Checklists for work you repeat',
            ['Reusable checklist templates', 'Scheduled runs', 'Approvals', 'Audit trail'],
          ],
          [
            'Sprintbook',
            'Lightweight sprints for teams that find Jira too heavy',
            ['Sprint planning with capacity', 'Burndown charts', 'GitHub issue sync', 'Retrospective boards'],
          ],
        ],
      },
      {
        slug: 'calendar-scheduling',
        name: 'Calendar & Scheduling',
        audience: 'busy professionals and sales teams',
        description:
          'Booking pages, calendar assistants and meeting schedulers. It covers online calendars, appointment booking, shared calendars, reservations, time-slot booking for customers and meeting planners.',
        problem: 'Finding a time that works for everyone still takes half a dozen emails.',
        faq: [
          'Do scheduling links work across time zones?',
          "Yes: booking pages show times in the visitor's zone and respect your working hours, buffers and daily limits.",
        ],
        products: [
          [
            'Slotfinder',
            'Booking links that respect your focus time',
            [
              'Booking pages with buffers',
              'Round-robin for teams',
              'Payments at booking',
              'Zoom and Meet links added automatically',
            ],
          ],
          [
            'Calmcal',
            'A calendar that defends your deep-work hours',
            ['Automatic focus blocks', 'Meeting-free days', 'Weekly time report', 'Works with Google Calendar'],
          ],
          [
            'Huddle Time',
            'Find a meeting time across five time zones',
            ['Time-zone overlap view', 'Poll-based scheduling', 'Slack integration', 'No sign-up for guests'],
          ],
          [
            'Agendable',
            'Every meeting gets an agenda, or it does not happen',
            ['Agenda required to book', 'Shared notes', 'Follow-up emails', 'Meeting cost estimate'],
          ],
        ],
      },
      {
        slug: 'email-clients',
        name: 'Email Clients',
        audience: 'people who live in their inbox',
        description:
          'Email apps, inbox filters and newsletter readers. It covers mail apps, shared inboxes, email filters, newsletter readers and inbox zero tools.',
        problem: 'Inboxes mix urgent requests with newsletters and notifications, so the important mail gets buried.',
        faq: [
          'Can a new email client read my existing account?',
          'Clients that support IMAP or Gmail and Microsoft sign-in work with your current address; nothing moves unless you choose to migrate.',
        ],
        products: [
          [
            'Inbox Zenith',
            'Inbox zero without the guilt',
            [
              'Split inbox by sender type',
              'Snooze and send later',
              'Keyboard shortcuts for everything',
              'Read receipts blocked by default',
            ],
          ],
          [
            'Readstack',
            'A calm reader for all your newsletters',
            ['Separate newsletter address', 'Reading queue', 'Highlights and notes', 'Weekly digest'],
          ],
          [
            'Mailsort',
            'Rules that file your email before you see it',
            [
              'Smart filters from examples',
              'Unsubscribe in one click',
              'Attachment vault',
              'Works with any IMAP account',
            ],
          ],
          [
            'Sendwell',
            'Shared inboxes for small teams',
            ['Assign emails to teammates', 'Internal comments', 'Collision detection', 'SLA timers'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'marketing',
    name: 'Marketing',
    description:
      'SEO, email marketing, social media and analytics tools for growing an audience. It also covers landing pages, advertising, affiliate programs, influencer marketing, referral tools and growth analytics.',
    faq: [
      'Which marketing tool should an early-stage startup buy first?',
      'Usually analytics, so you know which channels work, then one channel tool for the channel that does. Free tiers let you start before spending.',
    ],
    attributes: ['free_tier', 'api', 'gdpr_compliant', 'white_label', 'platforms'],
    children: [
      {
        slug: 'seo-tools',
        name: 'SEO Tools',
        audience: 'marketers and content teams',
        description:
          'Keyword research, rank tracking, site audits and content optimisation. It covers search engine optimisation, backlinks, keyword tracking, SERP monitoring and content briefs.',
        problem:
          'Search traffic compounds, but only if you know which pages to write and which technical problems hold the site back.',
        faq: [
          'What is Domain Rating?',
          "Domain Rating is a third-party score from 0 to 100 estimating the strength of a site's backlink profile. Launchlist shows it with its trend as one signal among many — it is not a measure of quality.",
        ],
        products: [
          [
            'Rankscope',
            'Daily rank tracking without the enterprise price',
            ['Daily rank updates', 'Local and mobile results', 'Competitor tracking', 'Looker Studio connector'],
          ],
          [
            'Crawlmate',
            'A site audit that tells you what to fix first',
            [
              'Prioritised issue list',
              'Core Web Vitals from field data',
              'Internal link suggestions',
              'Scheduled crawls',
            ],
          ],
          [
            'Keywordly',
            'Keyword ideas grouped by search intent',
            ['Intent clustering', 'Difficulty and volume', 'Question finder', 'CSV export'],
          ],
          [
            'Briefwise',
            'Content briefs from the pages that already rank',
            ['SERP-based briefs', 'Topic coverage score', 'Writer handoff', 'Google Docs add-on'],
          ],
          [
            'Backlinker',
            'Monitor the backlinks you win and lose',
            ['New and lost link alerts', 'Anchor text report', 'Outreach CRM', 'Disavow file builder'],
          ],
        ],
      },
      {
        slug: 'email-marketing',
        name: 'Email Marketing',
        audience: 'founders and marketers',
        description:
          'Newsletters, drip campaigns and transactional email. It covers newsletter platforms, mailing lists, marketing automation and email deliverability.',
        problem:
          'Email still converts better than most channels, but deliverability and segmentation are hard to get right.',
        faq: [
          'How do I keep marketing emails out of spam?',
          'Authenticate your domain (SPF, DKIM and DMARC), send to people who opted in, and remove addresses that never open. Good tools set up the first step for you.',
        ],
        products: [
          [
            'Dripline',
            'Email sequences that react to what users do',
            ['Behaviour-triggered sequences', 'Visual flow builder', 'Product event integrations', 'A/B testing'],
          ],
          [
            'Newsletterly',
            'A newsletter platform that pays creators',
            ['Paid subscriptions', 'Referral programme', 'Custom domain', 'Growth analytics'],
          ],
          [
            'Dispatchly',
            'Transactional email that arrives in seconds',
            ['Fast delivery', 'Templates with previews', 'Bounce handling', 'Inbound email parsing'],
          ],
          [
            'Listclean',
            'Verify your email list before you hit send',
            ['Bulk verification', 'Real-time API', 'Spam-trap detection', 'Integrations with major ESPs'],
          ],
        ],
      },
      {
        slug: 'social-media',
        name: 'Social Media Management',
        audience: 'social media managers and creators',
        description:
          'Scheduling, publishing, listening and reporting across social networks. It covers post schedulers, social listening, link-in-bio pages, community and creator tools.',
        problem: 'Posting consistently across five networks, and learning what worked, is a full-time job.',
        faq: [
          'Can I schedule posts to every network from one place?',
          'Most schedulers support the major networks; some limit certain post types such as stories or carousels. Check the supported platforms on each listing.',
        ],
        products: [
          [
            'Postcadence',
            'Plan a month of social posts in an afternoon',
            ['Visual content calendar', 'Best-time-to-post suggestions', 'Approval workflows', 'Bulk upload'],
          ],
          [
            'Mentionly',
            'Hear every time someone mentions your brand',
            ['Brand mention alerts', 'Sentiment analysis', 'Competitor tracking', 'Slack notifications'],
          ],
          [
            'Threadsmith',
            'Turn blog posts into threads and carousels',
            ['Repurposing from URLs', 'Carousel designer', 'Hook suggestions', 'Scheduling'],
          ],
          [
            'Socialytics',
            'Social reports your boss will read',
            ['Cross-network dashboards', 'Automated PDF reports', 'Benchmarking', 'White-label for agencies'],
          ],
        ],
      },
      {
        slug: 'web-analytics',
        name: 'Analytics',
        audience: 'product and marketing teams',
        description:
          'Privacy-friendly web analytics, product analytics and attribution. It covers website statistics, funnels, heatmaps, session recordings, dashboards and A/B testing.',
        problem:
          'Decisions made without data are guesses, but heavy analytics suites slow sites down and raise privacy questions.',
        faq: [
          'Do privacy-friendly analytics need a cookie banner?',
          'Tools that do not use cookies or personal data often need no consent banner under GDPR, but check with your own adviser for your situation.',
        ],
        products: [
          [
            'Plainstats',
            'Cookie-free web analytics on one page',
            ['No cookies, no personal data', 'Under 1 KB script', 'Goals and funnels', 'Public dashboards'],
          ],
          [
            'Funnelry',
            'Product analytics that answer why users drop off',
            ['Funnels and retention', 'Session replays', 'Cohorts', 'Warehouse sync'],
          ],
          [
            'Attributa',
            'Know which channel actually brought the customer',
            ['Multi-touch attribution', 'UTM builder', 'Ad platform cost import', 'Revenue by channel'],
          ],
          [
            'Heatwise',
            'Heatmaps and scroll maps without slowing your site',
            ['Click and scroll heatmaps', 'Rage-click detection', 'Lightweight script', 'Privacy masking'],
          ],
          [
            'Metricbase',
            'A metrics layer for SaaS dashboards',
            [
              'MRR, churn and LTV out of the box',
              'Stripe and Paddle sync',
              'Shareable dashboards',
              'Alerts on changes',
            ],
          ],
        ],
      },
    ],
  },
  {
    slug: 'design',
    name: 'Design',
    description:
      'Tools for designing interfaces, illustrations, presentations and video. It also covers graphic design, photo editing, CAD and 3D modelling, drawing, fonts, colour tools and mockups.',
    faq: [
      'Do I need design skills to use these tools?',
      'Some are built for professional designers; others start from templates so anyone can produce something presentable. Each listing says who it is for.',
    ],
    attributes: ['platforms', 'free_tier', 'real_time_collaboration', 'open_source', 'api'],
    children: [
      {
        slug: 'ui-design',
        name: 'UI Design',
        audience: 'product designers',
        description:
          'Interface design, prototyping, design systems and handoff. It covers wireframes, prototypes, design tools for web and mobile apps, component libraries and website builders.',
        problem: 'Design and code drift apart as products grow, and every handoff loses detail.',
        faq: [
          'How do design tools help with design systems?',
          'Shared component libraries, tokens synced to code and usage analytics keep designers and developers on the same source of truth.',
        ],
        products: [
          [
            'Canvasly',
            'Interface design in the browser, together',
            ['Real-time multiplayer editing', 'Auto layout', 'Interactive prototypes', 'Developer handoff with CSS'],
          ],
          [
            'Tokenhub',
            'Design tokens synced from design to code',
            ['Token editor', 'Git sync', 'Multi-brand themes', 'Style Dictionary export'],
          ],
          [
            'Wireframe Kit',
            'Low-fidelity wireframes in minutes',
            ['Drag-and-drop wireframe blocks', 'User-flow diagrams', 'Comments', 'Export to Figma'],
          ],
          [
            'Handoff Hero',
            'Specs and assets developers do not have to ask for',
            ['Automatic redlines', 'Asset export in every density', 'Component usage map', 'Jira integration'],
          ],
        ],
      },
      {
        slug: 'icons-illustrations',
        name: 'Illustrations & Icons',
        audience: 'designers and developers',
        description:
          'Icon sets, illustration libraries and generators. It covers icon packs, vector illustrations, stock graphics, emoji and SVG generators.',
        problem: 'Mismatched icons and stock illustrations make a product look unfinished.',
        faq: [
          'Can I use these icons in commercial products?',
          "Most libraries here allow commercial use; some require attribution on the free plan. Licences are linked from each listing's website.",
        ],
        products: [
          [
            'Glyphset',
            '4,000 consistent icons in three weights',
            ['SVG and icon-font formats', 'React and Vue packages', 'Figma plugin', 'Custom stroke width'],
          ],
          [
            'Doodlebox',
            'Hand-drawn illustrations you can recolour',
            ['Recolour to your palette', 'Mix-and-match characters', 'SVG and PNG export', 'Commercial licence'],
          ],
          [
            'Iconsmith',
            'Generate a matching icon for anything',
            ["Icon generation in your set's style", 'Vector output', 'Batch generation', 'Style locking'],
          ],
          [
            'Shapeshift Studio',
            'Organic shapes and backgrounds for landing pages',
            ['Random organic shapes', 'Gradient meshes', 'Pattern generator', 'CSS export'],
          ],
        ],
      },
      {
        slug: 'presentations',
        name: 'Presentation Tools',
        audience: 'founders, sales teams and educators',
        description:
          'Slide decks, pitch decks and interactive presentations. It covers slide makers, keynote templates, webinar decks and storytelling tools.',
        problem: 'Building a good-looking deck takes hours of nudging boxes instead of sharpening the story.',
        faq: [
          'Can I present offline?',
          'Desktop apps and tools with PDF or offline export let you present without a connection; browser-only tools may need one.',
        ],
        products: [
          [
            'Deckhand',
            'Pitch decks that design themselves',
            [
              'Smart layouts that adapt to content',
              'Investor-ready templates',
              'Viewer analytics',
              'PDF and PowerPoint export',
            ],
          ],
          [
            'Slidecast',
            'Record yourself over your slides',
            ['Webcam bubble recording', 'Shareable links', 'Viewer engagement stats', 'Transcripts'],
          ],
          [
            'Pollroom',
            'Live polls and Q&A for any talk',
            ['Live polls and word clouds', 'Anonymous Q&A', 'Works with any slide tool', 'Attendee join by code'],
          ],
          [
            'Chartdeck',
            'Charts from spreadsheets that update in your slides',
            ['Live-linked charts', 'Google Sheets and Excel sources', 'Brand themes', 'Embed anywhere'],
          ],
        ],
      },
      {
        slug: 'video-editing',
        name: 'Video Editing',
        audience: 'creators and marketing teams',
        description:
          'Video editors, screen recorders and subtitle tools. It covers video editors, screen recording, animation, subtitles, podcast and audio editing.',
        problem: 'Editing video takes far longer than recording it, which stops most teams from publishing regularly.',
        faq: [
          'Can I edit video by editing the transcript?',
          'Yes: text-based editors let you cut video by deleting words from its transcript, which is much faster for talking-head content.',
        ],
        products: [
          [
            'Cutline',
            'Edit video by editing text',
            ['Transcript-based editing', 'Filler-word removal', 'Multi-track timeline', 'Export in 4K'],
          ],
          [
            'Screenwise',
            'Screen recordings that look produced',
            ['Automatic zoom on clicks', 'Cursor smoothing', 'Background and padding', 'Share links with comments'],
          ],
          [
            'Subtitly',
            'Accurate subtitles in 40 languages',
            ['Automatic transcription', 'Subtitle styling', 'Translation', 'SRT and VTT export'],
          ],
          [
            'Reelroom',
            'A shared review room for video drafts',
            ['Frame-accurate comments', 'Version comparison', 'Approval status', 'Premiere and Resolve panels'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'finance',
    name: 'Finance',
    description:
      'Invoicing, accounting, payments and personal finance tools. It also covers banking, expense management, crypto, tax, investing and fundraising tools.',
    faq: [
      'Are finance tools here regulated?',
      "Payment and banking products are usually regulated through a licensed partner; listings name the partner where the maker states it. Always check the provider's terms for your country.",
    ],
    attributes: ['free_tier', 'api', 'multi_currency', 'gdpr_compliant', 'platforms'],
    children: [
      {
        slug: 'invoicing',
        name: 'Invoicing',
        audience: 'freelancers and small businesses',
        description:
          'Create, send and chase invoices and quotes. It covers invoice generators, quotes and estimates, billing for freelancers and payment reminders.',
        problem: 'Late invoices and manual reminders leave freelancers waiting weeks for money they have earned.',
        faq: [
          'Can invoices include VAT correctly for EU clients?',
          'Tools with EU support add the right VAT, reverse-charge notes and your VAT number; check the listing for your country.',
        ],
        products: [
          [
            'Billfold',
            'Invoices that get paid twice as fast',
            ['Automatic payment reminders', 'Card and bank payments', 'Recurring invoices', 'Multi-currency'],
          ],
          [
            'Quotable',
            'Quotes clients can accept with one click',
            ['Interactive quotes', 'E-signatures', 'Convert quote to invoice', 'Optional line items'],
          ],
          [
            'Timesheet Pro',
            'Track time and invoice it in the same place',
            ['One-click timers', 'Billable rates per project', 'Invoice from tracked time', 'Mobile apps'],
          ],
          [
            'Dunwell',
            'Polite dunning for overdue invoices',
            ['Escalating reminder sequences', 'Payment plans', 'Stripe and Xero sync', 'Collections dashboard'],
          ],
        ],
      },
      {
        slug: 'accounting',
        name: 'Accounting',
        audience: 'small businesses and accountants',
        description:
          'Bookkeeping, expenses, payroll and tax. It covers bookkeeping software, expense tracking, payroll, VAT and tax returns.',
        problem: 'Bookkeeping is easy to postpone and painful to catch up on at year end.',
        faq: [
          'Can my accountant access my books?',
          'Most accounting tools offer free accountant seats or an export your accountant can import.',
        ],
        products: [
          [
            'Ledgerly',
            'Bookkeeping for people who hate bookkeeping',
            ['Bank feeds', 'Automatic categorisation', 'Profit and loss in real time', 'Accountant access'],
          ],
          [
            'Receiptly',
            'Snap a receipt, it is in your books',
            ['Receipt scanning', 'Expense policies', 'Mileage tracking', 'Card reconciliation'],
          ],
          [
            'Payroll Pal',
            'Payroll for teams of two to fifty',
            ['Automatic tax filings', 'Employee self-service', 'Contractor payments', 'Benefits administration'],
          ],
          [
            'Taxwise',
            'Estimated taxes for freelancers, calculated for you',
            ['Quarterly tax estimates', 'Deduction finder', 'Tax savings account', 'Filing reminders'],
          ],
        ],
      },
      {
        slug: 'payments',
        name: 'Payments',
        audience: 'online businesses',
        description:
          'Checkout, subscriptions, billing and payouts. It covers payment processing, subscription billing, checkout pages, point of sale and payouts.',
        problem: 'Payments touch tax, fraud, failed cards and dozens of local methods — each a project in itself.',
        faq: [
          'What is a merchant of record?',
          'A merchant of record sells to your customers on your behalf and handles sales tax and VAT; you get paid out the net amount. It trades some margin for much less tax work.',
        ],
        products: [
          [
            'Checkoutly',
            'A checkout page that converts on mobile',
            ['One-page checkout', 'Wallets and local methods', 'Order bumps', 'Abandoned-cart emails'],
          ],
          [
            'Subscript',
            'Subscription billing without the spreadsheet',
            ['Plans, trials and coupons', 'Usage-based billing', 'Customer portal', 'Revenue recognition'],
          ],
          [
            'Payoutly',
            'Pay creators and contractors in 80 countries',
            ['Mass payouts', 'Tax form collection', 'Local bank transfers', 'Payout API'],
          ],
          [
            'Chargeback Shield',
            'Win more disputes with less paperwork',
            ['Automatic evidence packets', 'Fraud scoring', 'Dispute analytics', 'Stripe integration'],
          ],
        ],
      },
      {
        slug: 'personal-finance',
        name: 'Personal Finance',
        audience: 'individuals and households',
        description:
          'Budgeting, saving, investing and net-worth tracking. It covers budgeting apps, savings, investment tracking, net worth and household money management.',
        problem: 'Money spread across accounts and cards makes it hard to know where it goes each month.',
        faq: [
          'Is it safe to connect my bank account?',
          'Reputable apps connect through regulated open-banking providers with read-only access; they never see your bank password.',
        ],
        products: [
          [
            'Budgetly',
            'A budget that updates itself',
            ['Automatic transaction import', 'Envelope budgeting', 'Shared household budgets', 'Bill reminders'],
          ],
          [
            'Networth',
            'Every account, one net-worth number',
            ['Bank, broker and crypto accounts', 'Net-worth history', 'Asset allocation', 'Privacy mode'],
          ],
          [
            'Stashbox',
            'Save for goals without thinking about it',
            ['Round-up savings', 'Goal pots', 'Automatic transfers', 'Savings streaks'],
          ],
          [
            'Dividend Diary',
            'Track the income your portfolio pays you',
            ['Dividend calendar', 'Yield on cost', 'Broker import', 'Income forecasts'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'sales-support',
    name: 'Sales & Support',
    description:
      'CRM, help desks, live chat and sales engagement tools. It also covers customer service, customer success, lead generation, appointment setting and client management.',
    faq: [
      'Should sales and support share one tool?',
      'Sharing customer history helps both teams; many companies use a CRM and a help desk that sync contacts rather than one tool for everything.',
    ],
    attributes: ['free_tier', 'api', 'sso', 'gdpr_compliant', 'platforms'],
    children: [
      {
        slug: 'crm',
        name: 'CRM',
        audience: 'founders and sales teams',
        description:
          'Customer relationship management for tracking deals and contacts. It covers contact management, sales pipelines, client and customer databases, lead tracking and follow-ups.',
        problem: "Deals go cold when follow-ups live in someone's memory or a spreadsheet.",
        faq: [
          'When does a startup need a CRM?',
          'Once more than one person talks to customers, or you have more deals than you can hold in your head — often earlier than founders expect.',
        ],
        products: [
          [
            'Pipewise',
            'A CRM that fills itself from your inbox',
            ['Automatic contact capture', 'Deal pipelines', 'Email sequences', 'Forecasting'],
          ],
          [
            'Warmpath',
            'Relationship tracking for founders and investors',
            ['Warm-intro paths', 'Relationship strength scores', 'LinkedIn enrichment', 'Fundraising pipeline'],
          ],
          [
            'Agencyflow',
            'Simple pipelines for agencies',
            ['Proposal tracking', 'Client portal', 'Project handoff', 'Invoicing integration'],
          ],
          [
            'Contactly',
            'Your contacts, cleaned and enriched',
            ['Duplicate merging', 'Company enrichment', 'Bulk updates', 'Two-way sync with Google'],
          ],
        ],
      },
      {
        slug: 'help-desk',
        name: 'Help Desk',
        audience: 'support teams',
        description:
          'Ticketing, knowledge bases and customer support platforms. It covers support ticketing, customer service software, self-service help centres and FAQs.',
        problem: 'Support requests scattered across email, chat and social slip through the cracks.',
        faq: [
          'What is a good first-response time?',
          'Within a few hours for email and a few minutes for chat is a common target; help desks show it per channel and alert you before it slips.',
        ],
        products: [
          [
            'Ticketly',
            'A help desk small teams can set up in ten minutes',
            [
              'Shared inbox for email and forms',
              'Macros and saved replies',
              'SLA rules',
              'Customer satisfaction surveys',
            ],
          ],
          [
            'Docsite',
            'A help centre customers actually search',
            ['Knowledge base with search analytics', 'Article feedback', 'Custom domain', 'Multilingual'],
          ],
          [
            'Triage AI',
            'Routes every ticket to the right person',
            ['Automatic tagging', 'Priority detection', 'Skill-based routing', 'Works with Zendesk and Freshdesk'],
          ],
          [
            'Statusboard',
            'Tell customers about incidents before they ask',
            ['Hosted status page', 'Subscriber notifications', 'Scheduled maintenance', 'Uptime history'],
          ],
        ],
      },
      {
        slug: 'live-chat',
        name: 'Live Chat',
        audience: 'e-commerce and SaaS teams',
        description:
          'Website chat widgets, chatbots and messaging. It covers chat widgets, chatbots, WhatsApp and messaging for business, and visitor chat.',
        problem: 'Visitors with a quick question leave when nobody answers in the first minute.',
        faq: [
          'Will a chat widget slow my website down?',
          "Modern widgets load after the page and weigh a few kilobytes until opened; check the listing's notes on script size.",
        ],
        products: [
          [
            'Chatterbox',
            'Live chat that loads after your page, not before',
            ['Lazy-loaded widget', 'Mobile apps for agents', 'Canned responses', 'Visitor context'],
          ],
          [
            'Answerbot',
            'A chatbot trained on your docs that knows when to hand over',
            ['Answers from your knowledge base', 'Human handover', 'Conversation analytics', 'Multilingual'],
          ],
          [
            'Whisperline',
            'WhatsApp and SMS support in one inbox',
            ['WhatsApp Business integration', 'SMS', 'Shared inbox', 'Broadcasts with opt-in'],
          ],
          [
            'Cobrowse Kit',
            'See what your customer sees, with permission',
            ['Co-browsing without downloads', 'Privacy masking', 'Annotation', 'Session recording'],
          ],
        ],
      },
      {
        slug: 'sales-engagement',
        name: 'Sales Engagement',
        audience: 'sales development teams',
        description:
          'Prospecting, outreach sequences and call tools. It covers cold email, lead prospecting, sales dialers, outreach automation and sales intelligence.',
        problem: 'Outreach that is not personal gets ignored, and personal outreach does not scale by hand.',
        faq: [
          'How do I avoid spam complaints with cold outreach?',
          "Send to a relevant, verified list, keep volumes modest per mailbox, make opting out easy and follow your country's rules on commercial email.",
        ],
        products: [
          [
            'Prospectly',
            'Find the right buyer at every target account',
            ['Account-based search', 'Verified emails', 'Buying signals', 'CRM export'],
          ],
          [
            'Sequencer',
            'Outreach sequences that feel one-to-one',
            ['Personalised sequences', 'Mailbox rotation', 'Reply detection', 'A/B testing'],
          ],
          [
            'Callwise',
            'A dialer with live coaching notes',
            ['Power dialer', 'Call recording and transcripts', 'Talk-time analytics', 'CRM logging'],
          ],
          [
            'Demoloop',
            'Interactive product demos prospects can click through',
            ['Click-through demos', 'Personalised links', 'Engagement analytics', 'CRM alerts'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'collaboration',
    name: 'Collaboration',
    description:
      'Video meetings, team chat, wikis and whiteboards for working together. It also covers shared documents, team workspaces, intranets, community forums and remote-work tools.',
    faq: [
      'How do remote teams avoid tool overload?',
      'Agree which tool is for what — chat for quick questions, docs for decisions, meetings for discussion — and write it down where everyone can find it.',
    ],
    attributes: ['platforms', 'free_tier', 'sso', 'end_to_end_encryption', 'api'],
    children: [
      {
        slug: 'video-meetings',
        name: 'Video Meetings',
        audience: 'distributed teams',
        description:
          'Video calls, async video and meeting recorders. It covers video conferencing, online meetings, webinars, meeting notes and recordings.',
        problem: 'Back-to-back calls leave no time for work, and decisions made in meetings are lost.',
        faq: [
          'What is async video?',
          'Short recorded videos teammates watch when it suits them — useful across time zones to replace meetings that only share information.',
        ],
        products: [
          [
            'Roomly',
            'Video calls that open in one click, no downloads',
            ['Browser-based calls', 'Noise suppression', 'Recording with transcripts', 'Calendar integration'],
          ],
          [
            'Loopcast',
            'Async video updates instead of status meetings',
            ['Screen and camera recording', 'Threaded video replies', 'Transcripts and summaries', 'Slack sharing'],
          ],
          [
            'Minute Taker',
            'Meeting recorder that writes the minutes',
            ['Automatic notes', 'Action items', 'Searchable archive', 'CRM sync'],
          ],
          [
            'Standup Bot',
            'Daily stand-ups without the meeting',
            ['Asynchronous check-ins', 'Blocker alerts', 'Team mood tracking', 'Slack and Teams'],
          ],
        ],
      },
      {
        slug: 'team-chat',
        name: 'Team Chat',
        audience: 'teams of all sizes',
        description:
          'Messaging and chat platforms for teams and communities. It covers team messaging, chat rooms, channels, community servers and internal communication.',
        problem: 'Important decisions vanish in fast-moving chat channels.',
        faq: [
          'Can I move my chat history from another tool?',
          "Many chat apps import exports from the popular platforms; check the listing's import options and what happens to files and threads.",
        ],
        products: [
          [
            'Porchlight Chat',
            'Team chat with threads that stay organised',
            ['Topic-based threads', 'Calm notification schedule', 'Search across everything', 'Self-hosting option'],
          ],
          [
            'Guildhall',
            'Chat and forums for your customer community',
            ['Community spaces', 'Forum-style threads', 'Member roles', 'SSO with your app'],
          ],
          [
            'Signalroom',
            'Encrypted chat for teams handling sensitive data',
            ['End-to-end encryption', 'Message expiry', 'Audit export', 'On-premise option'],
          ],
          [
            'Pingless',
            'A chat app that respects working hours',
            ['Working-hours aware notifications', 'Scheduled messages', 'Focus status', 'Digest mode'],
          ],
        ],
      },
      {
        slug: 'wikis',
        name: 'Documentation & Wikis',
        audience: 'growing teams',
        description:
          'Internal wikis, knowledge bases and documentation platforms. It covers knowledge bases, documentation sites, manuals, help pages, reference docs and cheat sheets.',
        problem: "Knowledge lives in people's heads until they leave or go on holiday.",
        faq: [
          'How do I keep a wiki up to date?',
          'Give every page an owner, show when it was last verified, and review stale pages on a schedule; several tools here automate the reminders.',
        ],
        products: [
          [
            'Pagewise',
            'A wiki that flags its own stale pages',
            ['Page owners and verification', 'Stale-page reminders', 'Templates', 'Slack search'],
          ],
          [
            'Docforge',
            'Developer docs from your repository, hosted',
            ['Docs from Markdown in Git', 'Versioning', 'Search', 'Preview deploys'],
          ],
          [
            'Handbook',
            'A company handbook new hires actually read',
            ['Onboarding paths', 'Read receipts', 'Policy acknowledgements', 'HRIS integration'],
          ],
          [
            'Answerbase',
            "Ask your company's documents a question",
            ['Search across wiki, drive and chat', 'Answers with sources', 'Permission-aware', 'Browser extension'],
          ],
        ],
      },
      {
        slug: 'whiteboards',
        name: 'Whiteboards',
        audience: 'product teams and facilitators',
        description:
          'Online whiteboards, diagramming and workshop tools. It covers online whiteboards, mind maps, flowcharts, diagrams and brainstorming boards.',
        problem: 'Remote workshops fall flat without a shared space to sketch and sort ideas.',
        faq: [
          'Can I export a whiteboard to other tools?',
          'Most whiteboards export images and PDF; diagramming tools often export SVG or formats other diagram tools can open.',
        ],
        products: [
          [
            'Boardroom',
            'An infinite whiteboard for remote workshops',
            [
              'Sticky notes and voting',
              'Facilitator timer',
              'Templates for retros and workshops',
              'Guest access without sign-up',
            ],
          ],
          [
            'Diagramly',
            'Diagrams from text, editable by drag and drop',
            ['Text-to-diagram', 'Architecture shape libraries', 'Version history', 'Confluence and Notion embeds'],
          ],
          [
            'Mindgarden',
            'Mind maps that grow into plans',
            ['Mind maps', 'Convert branches to tasks', 'Presentation mode', 'Offline apps'],
          ],
          [
            'Sketchpad Live',
            'Sketch together on any device',
            ['Pen and touch support', 'Real-time collaboration', 'Shape recognition', 'Export to SVG'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'security-privacy',
    name: 'Security & Privacy',
    description:
      'Password managers, network privacy, monitoring and compliance tools. It also covers encryption, private and secure storage for files and photos, private browsing, ad and tracker blocking, antivirus, backups, authentication and data protection.',
    faq: [
      'How do I compare security tools fairly?',
      'Look for published audits, how keys and data are stored, open-source components and a clear incident history. Listings note open source and self-hosting where the maker states them.',
    ],
    attributes: ['open_source', 'self_hostable', 'end_to_end_encryption', 'platforms', 'sso', 'free_tier'],
    children: [
      {
        slug: 'password-managers',
        name: 'Password Managers',
        audience: 'individuals and teams',
        description:
          'Password, passkey and secrets managers. It covers password vaults, passkeys, two-factor authentication, secrets and credential management.',
        problem: 'Reused passwords remain the most common way accounts are broken into.',
        faq: [
          'Are passkeys replacing passwords?',
          'Passkeys are replacing passwords on more sites each month; a good manager stores both and syncs them across your devices.',
        ],
        products: [
          [
            'Keyring',
            'Passwords and passkeys for the whole family',
            ['Passkey support', 'Family sharing', 'Breach alerts', 'Apps for every platform'],
          ],
          [
            'Vaultline',
            'Secrets management for engineering teams',
            ['Encrypted secrets per environment', 'CLI and CI integrations', 'Access audit log', 'Secret rotation'],
          ],
          [
            'Passphrase',
            'An open-source password manager you can host yourself',
            ['Open source', 'Self-hosting with Docker', 'Browser extensions', 'Emergency access'],
          ],
          [
            'Sharelock',
            'Share a password once, then it is gone',
            ['One-time secret links', 'Expiry and view limits', 'Slack command', 'No account needed'],
          ],
        ],
      },
      {
        slug: 'vpn-network',
        name: 'VPN & Network',
        audience: 'remote teams and privacy-minded users',
        description:
          'VPNs, zero-trust access and network privacy tools. It covers VPN services, remote access, firewalls, proxies, SSH and network security.',
        problem: 'Office VPNs are slow and all-or-nothing, while remote work needs access per app and per person.',
        faq: [
          'What is zero-trust network access?',
          'Instead of trusting everything inside a network, each request is checked against who the user is, their device and the app they want — access is granted per app.',
        ],
        products: [
          [
            'Meshgate',
            'A private network between all your devices in minutes',
            ['Peer-to-peer mesh', 'Single sign-on', 'Access rules per device', 'Exit nodes'],
          ],
          [
            'Tunnelbox',
            'Share localhost with a secure public URL',
            ['HTTPS tunnels', 'Custom domains', 'Request inspection', 'Password protection'],
          ],
          [
            'Quietnet DNS',
            'Block trackers and malware for every device at home',
            ['DNS-level blocking', 'Per-device rules', 'Parental controls', 'Query logs you control'],
          ],
          [
            'Accessly',
            'Zero-trust access to internal apps without a VPN',
            ['Identity-aware proxy', 'Device posture checks', 'Session recording', 'Audit logs'],
          ],
        ],
      },
      {
        slug: 'uptime-monitoring',
        name: 'Monitoring & Uptime',
        audience: 'developers and ops teams',
        description:
          'Uptime checks, error tracking, logs and alerting. It covers uptime monitors, status pages, error and exception tracking, crash reporting, log management, observability and incident alerts.',
        problem: 'Customers notice outages before teams do when monitoring is an afterthought.',
        faq: [
          'How often should uptime checks run?',
          'Every minute is common for production; more frequent checks help only if someone can act on them that fast.',
        ],
        products: [
          [
            'Pingwatch',
            'Uptime monitoring with a status page included',
            ['One-minute checks', 'Status page', 'SSL and domain expiry alerts', 'Phone call alerts'],
          ],
          [
            'Errorlog',
            'Error tracking that groups the noise',
            ['Smart grouping', 'Release tracking', 'Source maps', 'Issue assignment'],
          ],
          [
            'Logline',
            'Logs you can search without a query language',
            ['Natural search', 'Live tail', 'Alerts from log patterns', 'Cheap long-term storage'],
          ],
          [
            'Oncall Rota',
            'On-call schedules that are fair to everyone',
            ['Rotation builder', 'Escalation policies', 'Swap requests', 'Time-off sync'],
          ],
        ],
      },
      {
        slug: 'compliance',
        name: 'Compliance',
        audience: 'startups selling to larger companies',
        description:
          'SOC 2, ISO 27001 and GDPR compliance automation. It covers security audits, GDPR and privacy compliance, policies, risk management and certifications.',
        problem: 'Enterprise buyers ask for security certifications that can take a small team a year to earn by hand.',
        faq: [
          'How long does SOC 2 take with automation?',
          'Teams commonly reach a SOC 2 Type I report in a few months with automation; Type II needs an observation period, typically three to twelve months.',
        ],
        products: [
          [
            'Auditready',
            'SOC 2 without the spreadsheets',
            ['Automated evidence collection', 'Policy templates', 'Auditor portal', 'Continuous control monitoring'],
          ],
          [
            'Consentry',
            'Cookie consent that passes a GDPR audit',
            ['Consent banner', 'Automatic cookie scanning', 'Consent logs', 'Google Consent Mode'],
          ],
          [
            'Trustdesk',
            'A trust centre that answers security questionnaires',
            ['Public trust centre', 'Questionnaire autofill', 'NDA-gated documents', 'Access analytics'],
          ],
          [
            'Vendorcheck',
            'Track the risk of every vendor you use',
            ['Vendor inventory', 'Risk assessments', 'Contract renewal reminders', 'DPA tracking'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'e-commerce',
    name: 'E-commerce',
    description:
      'Storefronts, inventory, reviews and shipping tools for online shops. It also covers online stores, marketplaces, dropshipping, product catalogues and shopping carts.',
    faq: [
      'Can I use these tools with my current shop platform?',
      'Most listings integrate with the major platforms; check the platforms listed on each one before you switch anything.',
    ],
    attributes: ['free_tier', 'api', 'multi_currency', 'platforms', 'headless'],
    children: [
      {
        slug: 'storefronts',
        name: 'Storefronts',
        audience: 'independent brands',
        description:
          'Shop builders, headless commerce and sales channels. It covers online store builders, shopping carts, headless commerce and marketplace selling.',
        problem: 'Launching a shop is easy; making it fast, trustworthy and easy to run is not.',
        faq: [
          'What is headless commerce?',
          "The shop's back end (catalogue, cart, checkout) runs separately from the storefront, so you can build the front end with any framework.",
        ],
        products: [
          [
            'Shopfront',
            'A storefront that loads before the customer blinks',
            ['Sub-second page loads', 'Built-in checkout', 'Product reviews', 'Multi-currency pricing'],
          ],
          [
            'Headless Cart',
            'Commerce APIs for developers',
            ['Cart and checkout APIs', 'Webhooks', 'Any front end', 'Inventory sync'],
          ],
          [
            'Linkshop',
            'Sell from your link-in-bio in minutes',
            ['Link-in-bio store', 'Digital downloads', 'Tips and memberships', 'Instagram and TikTok ready'],
          ],
          [
            'Bundle Builder',
            'Let customers build their own bundles',
            ['Mix-and-match bundles', 'Tiered discounts', 'Inventory-aware', 'Shopify and WooCommerce apps'],
          ],
        ],
      },
      {
        slug: 'inventory',
        name: 'Inventory & Shipping',
        audience: 'growing online shops',
        description:
          'Inventory, fulfilment, shipping labels and returns. It covers stock management, warehouses, order fulfilment, shipping labels and returns.',
        problem: 'Overselling, late shipments and messy returns cost shops both money and reviews.',
        faq: [
          'How do I stop overselling across channels?',
          'Use one inventory system that syncs stock to every channel in near real time and holds a safety buffer for fast sellers.',
        ],
        products: [
          [
            'Stockroom',
            'Inventory that stays right across every channel',
            ['Multi-channel stock sync', 'Low-stock alerts', 'Purchase orders', 'Barcode scanning app'],
          ],
          [
            'Labelmaker',
            'Cheaper shipping labels in two clicks',
            ['Discounted carrier rates', 'Batch label printing', 'Tracking emails', 'Address validation'],
          ],
          [
            'Returnwise',
            'Returns customers can start themselves',
            [
              'Self-service returns portal',
              'Exchanges before refunds',
              'Return reasons analytics',
              'Carrier integration',
            ],
          ],
          [
            'Forecastly',
            'Know what to reorder and when',
            ['Demand forecasting', 'Reorder points', 'Supplier lead times', 'Cash-flow view'],
          ],
        ],
      },
      {
        slug: 'reviews-ugc',
        name: 'Reviews & UGC',
        audience: 'brands and marketplaces',
        description:
          'Product reviews, ratings and user-generated content. It covers product reviews, customer ratings, testimonials and user-generated photos.',
        problem: 'Shoppers trust other shoppers more than any product page copy.',
        faq: [
          'How do review tools prevent fake reviews?',
          'Verified-purchase badges, moderation queues and fraud detection keep most fake reviews out; be wary of any tool that offers to generate reviews.',
        ],
        products: [
          [
            'Starboard',
            'Collect reviews after delivery, automatically',
            [
              'Post-delivery review requests',
              'Photo and video reviews',
              'Verified-buyer badges',
              'Google Shopping feed',
            ],
          ],
          [
            'Unboxed',
            'Shoppable videos from your customers',
            ['UGC video collection', 'Shoppable galleries', 'Rights management', 'Creator payments'],
          ],
          [
            'Q&A Corner',
            'Answer shopper questions on every product page',
            ['Product Q&A', 'Answers from past buyers', 'Moderation', 'SEO-friendly markup'],
          ],
          [
            'Loyalty Loop',
            'Rewards that bring customers back',
            ['Points and tiers', 'Referral rewards', 'Birthday rewards', 'POS integration'],
          ],
        ],
      },
    ],
  },
  {
    slug: 'hardware',
    name: 'Hardware',
    description:
      'Physical products with software at their heart: smart home, wearables and maker tools. It also covers electronics, devices, gadgets, robotics, drones, maker and DIY hardware, and manufacturing.',
    faq: [
      'Can I list a hardware product that is not shipping yet?',
      'Yes. Pre-order and crowdfunding products can be listed; say clearly on your website when units ship.',
    ],
    attributes: ['platforms', 'open_source', 'api'],
    children: [
      {
        slug: 'smart-home',
        name: 'Smart Home',
        audience: 'home owners and tinkerers',
        description:
          'Connected devices and hubs for the home. It covers home automation, connected devices, sensors, lighting and voice assistants.',
        problem: 'Smart-home devices from different makers rarely talk to each other without a cloud account for each.',
        faq: [
          'Do smart-home devices work without the internet?',
          'Devices that support local control (for example through Matter or a local hub) keep working when the internet is down.',
        ],
        products: [
          [
            'Hearthhub',
            'A local-first smart-home hub that works offline',
            ['Local control without the cloud', 'Matter and Zigbee support', 'Automations editor', 'Open API'],
          ],
          [
            'Aircheck',
            'An indoor air monitor that tells you when to open a window',
            [
              'CO2, humidity and particulate sensors',
              'Window reminders',
              'Home Assistant integration',
              'E-ink display',
            ],
          ],
        ],
      },
      {
        slug: 'wearables',
        name: 'Wearables',
        audience: 'athletes and health-conscious people',
        description:
          'Wearable devices and the apps that read them. It covers smartwatches, fitness trackers, health rings and wearable sensors.',
        problem: 'Health data is spread across rings, watches and apps that do not share it.',
        faq: [
          'Do I own the data from my wearable?',
          'Check whether the maker lets you export raw data and delete your account; listings note open APIs where the maker offers them.',
        ],
        products: [
          [
            'Pulsering',
            'A sleep-tracking ring with a seven-day battery',
            ['Sleep staging', 'Seven-day battery', 'Readiness score', 'Data export'],
          ],
          [
            'Stridepod',
            'A running pod that coaches your form in real time',
            ['Cadence and ground-contact time', 'Audio coaching', 'Works with any watch', 'Training plans'],
          ],
        ],
      },
      {
        slug: '3d-printing',
        name: '3D Printing',
        audience: 'makers and product designers',
        description:
          'Printers, slicers and print farms. It covers 3D printers, slicers, 3D models and CAD for printing, and print farm management.',
        problem: 'Failed prints waste hours and filament, and managing several printers is a chore.',
        faq: [
          'Can I monitor prints remotely?',
          'Printer-management tools stream a camera feed and can pause a print when they detect a failure.',
        ],
        products: [],
      },
    ],
  },
];
