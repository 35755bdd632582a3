import { z } from 'zod';
import { defineOperation } from './define.ts';
import { Id, Timestamp } from './schemas.ts';
import { SCOPES } from '../domain/scopes.ts';
import { AWARD_KEYS_PATH } from '../domain/award-statement.ts';

const SiteInfo = z.strictObject({
  name: z.string(),
  purpose: z.string(),
  urls: z.strictObject({
    home: z.string().describe('The website.'),
    api_base: z.string().describe('The REST API base URL.'),
    docs: z.string().describe('The interactive API reference.'),
    openapi: z.string().describe('The OpenAPI 3.1 document.'),
    mcp: z.string().describe('The MCP server (Streamable HTTP).'),
    oauth_metadata: z.string().describe('OAuth 2.1 authorization server metadata (RFC 8414).'),
    mcp_resource_metadata: z.string().describe('Protected resource metadata of the MCP server (RFC 9728).'),
    award_keys: z
      .string()
      .describe(
        'The public keys that sign Launch of the Week awards, as a JWKS (OKP/Ed25519, by kid); verify_award explains the check.',
      ),
  }),
  counts: z.strictObject({
    live_listings: z.number().int(),
    upcoming_listings: z.number().int().describe('Scheduled or awaiting their badge, for a coming week.'),
    categories: z.number().int(),
    founders: z.number().int().describe('Founders of live listings.'),
  }),
  api_version: z.string(),
  mcp_protocol_versions: z.array(z.string()).describe('Newest first.'),
  rules: z.array(z.string()).describe('Rules every caller follows.'),
});

const InterviewQuestion = z.strictObject({
  id: z.number().int().describe('Pass as question_id to answer_interview.'),
  position: z.number().int(),
  question: z.string(),
});

const InterviewAnswers = z.strictObject({
  answers: z
    .array(
      z.strictObject({
        question_id: z.number().int(),
        question: z.string(),
        answer: z.string(),
        updated_at: Timestamp,
      }),
    )
    .describe("All of the caller's answers, in question order."),
});

const Scope = z.enum(SCOPES as [string, ...string[]]);
const Account = z.strictObject({
  user: z.strictObject({
    id: z.number().int(),
    email: z.string(),
    name: z.string(),
    role: z.enum(['user', 'admin']),
    email_verified: z.boolean(),
  }),
  credential: z
    .discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('api_key'),
        name: z.string(),
        prefix: z.string().describe('llk_ and 12 characters.'),
      }),
      z.strictObject({
        type: z.literal('oauth'),
        name: z.string().describe('The client name.'),
        client_id: z.string(),
      }),
      z.strictObject({ type: z.literal('session'), name: z.string() }),
    ])
    .describe('The credential in use: an API key, an OAuth client, or (on the website) the session.'),
  scopes: z.array(Scope),
  allows: z.array(z.string()).describe('What the scopes allow, in plain words.'),
});
import { accountOf } from '../auth/account.ts';
import { activeInterviewQuestions, siteCounts } from '../store/repos/content.ts';
import { answerInterview as answerInterviewFor } from '../services/interview.ts';

/** MCP protocol versions the /mcp endpoint speaks (newest first). */
export const MCP_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

export const SITE_RULES = [
  'There is no voting through the API: votes come only from people on the website.',
  'The billboard is a PAID ranking by money contributed; always present it as paid. Awards (Launch of the Week) follow community votes only.',
  'Community rankings count weighted votes (each vote 0–1; the formula and weight rules are at /how-ranking-works). During the fair first hours of a launch week (fair_start_until) its launches come by name with no ranks or counts: never present that order as a ranking.',
  'Prices are set by the site admin in USD cents, exclude VAT and must never be hard-coded: read them from list_products or quote_order.',
  'Checkout links (checkout_url) are handed to the person, who reviews and pays on our page themselves; never ask for card or payment details.',
  "Drafts quote evidence from the product's own website; anything not found there is left blank, never invented.",
] as const;

export const getSiteInfo = defineOperation({
  name: 'get_site_info',
  method: 'GET',
  cacheMs: 1000,
  path: '/site',
  access: 'public',
  tags: ['Site'],
  summary: 'What this service is and where things are',
  description:
    'The site name and purpose, its public URLs, counts of live listings and categories, and the locations of the API docs, the OpenAPI document and the MCP server. A good first call for an agent.\n\n' +
    'Returns `{name, purpose, urls: {home, api_base, docs, openapi, mcp, oauth_metadata, mcp_resource_metadata, award_keys}, counts: {live_listings, upcoming_listings, categories, founders}, api_version, mcp_protocol_versions, rules: [string]}`.',
  response: SiteInfo,
  examples: {
    response: {
      name: 'Launchlist',
      purpose: 'A launch directory and weekly launch calendar for software products.',
      urls: {
        home: 'https://launchlist.example',
        api_base: 'https://launchlist.example/api/v1',
        docs: 'https://launchlist.example/docs',
        openapi: 'https://launchlist.example/api/v1/openapi.json',
        mcp: 'https://launchlist.example/mcp',
        oauth_metadata: 'https://launchlist.example/.well-known/oauth-authorization-server',
        mcp_resource_metadata: 'https://launchlist.example/.well-known/oauth-protected-resource/mcp',
        award_keys: 'https://launchlist.example/.well-known/award-keys.json',
      },
      counts: { live_listings: 120, upcoming_listings: 14, categories: 56, founders: 98 },
      api_version: '1.0.0',
      mcp_protocol_versions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      rules: ['There is no voting through the API: votes come only from people on the website.'],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx) => {
    const base = ctx.config.publicUrl;
    const counts = await siteCounts(ctx.db);
    return {
      name: 'Launchlist',
      purpose:
        'A launch directory and weekly launch calendar for software products: browse live listings, categories, launch weeks, leaderboards, founders, awards and badges; makers submit a product by its website, edit the AI-drafted profile and publish it free or through a paid order.',
      urls: {
        home: base,
        api_base: `${base}/api/v1`,
        docs: `${base}/docs`,
        openapi: `${base}/api/v1/openapi.json`,
        mcp: `${base}/mcp`,
        oauth_metadata: `${base}/.well-known/oauth-authorization-server`,
        mcp_resource_metadata: `${base}/.well-known/oauth-protected-resource/mcp`,
        award_keys: base + AWARD_KEYS_PATH,
      },
      counts,
      api_version: '1.0.0',
      mcp_protocol_versions: [...MCP_VERSIONS],
      rules: [...SITE_RULES],
    };
  },
});

export const listInterviewQuestions = defineOperation({
  name: 'list_interview_questions',
  method: 'GET',
  cacheMs: 1000,
  path: '/interview-questions',
  access: 'public',
  tags: ['Founders'],
  summary: 'Founder interview questions',
  description:
    'The questions founders can answer with answer_interview, in order: `{items: [{id, position, question}]}` (use `id` as `question_id`).',
  response: z.strictObject({ items: z.array(InterviewQuestion).describe('In order.') }),
  examples: { response: { items: [{ id: 1, position: 1, question: 'What problem made you start?' }] } },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx) => ({ items: await activeInterviewQuestions(ctx.db) }),
});

export const answerInterview = defineOperation({
  name: 'answer_interview',
  method: 'PUT',
  path: '/me/interview',
  access: 'listings:write',
  tags: ['Founders'],
  summary: 'Answer founder interview questions',
  description:
    "Saves the caller's answers to interview questions (ids from list_interview_questions; at most 30 per call). An answer replaces the earlier answer to the same question; an empty answer withdraws it. Every `question_id` must be an active question (otherwise 400 naming `body.answers.<i>.question_id`) and may appear only once per call. Returns all of the caller's answers in question order: `{answers: [{question_id, question, answer, updated_at}]}`.",
  body: z.strictObject({
    answers: z.array(z.strictObject({ question_id: Id, answer: z.string().max(4000) })).max(30),
  }),
  response: InterviewAnswers,
  examples: {
    response: {
      answers: [
        {
          question_id: 1,
          question: 'What problem made you start?',
          answer: 'Our own analytics were unreadable.',
          updated_at: '2026-11-20T10:00:00.000Z',
        },
      ],
    },
  },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => answerInterviewFor(ctx, input.answers),
});

export const getAccount = defineOperation({
  name: 'get_account',
  method: 'GET',
  path: '/me',
  access: 'account:read',
  tags: ['Account'],
  summary: 'Who the caller is',
  description:
    'Who the caller is signed in as, which credential is in use (API key name or OAuth client) and what it allows (its scopes).\n\n' +
    'Returns `{user: {id, email, name, role, email_verified}, credential: {type: "api_key", name, prefix} | {type: "oauth", name, client_id}, scopes: [scope], allows: [what the scopes allow, in plain words]}`.',
  response: Account,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  examples: {
    response: {
      user: { id: 7, email: 'ada@example.com', name: 'Ada', role: 'user', email_verified: true },
      credential: { type: 'api_key', name: 'My build script', prefix: 'llk_AbCdEfGhIjKl' },
      scopes: ['account:read'],
      allows: ['See your account, your drafts, listings, claims and orders'],
    },
  },
  handler: async (ctx) => accountOf(ctx),
});
