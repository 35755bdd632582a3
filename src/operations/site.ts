import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { JsonObject } from './schemas.ts';
import { accountOf } from '../auth/account.ts';

export const getSiteInfo = defineOperation({
  name: 'get_site_info', method: 'GET', path: '/site', access: 'public', tags: ['Site'],
  summary: 'What this service is and where things are',
  description: 'The site name and purpose, its public URLs, counts of live listings and categories, and the locations of the API docs, the OpenAPI document and the MCP server. A good first call for an agent.',
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});

export const listInterviewQuestions = defineOperation({
  name: 'list_interview_questions', method: 'GET', path: '/interview-questions', access: 'public', tags: ['Founders'],
  summary: 'Founder interview questions',
  description: 'The questions founders can answer with answer_interview (each with its integer id).',
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});

export const answerInterview = defineOperation({
  name: 'answer_interview', method: 'PUT', path: '/me/interview', access: 'listings:write', tags: ['Founders'],
  summary: 'Answer founder interview questions',
  description: 'Saves the caller\'s answers to interview questions (ids from list_interview_questions). An answer replaces the earlier answer to the same question.',
  body: z.strictObject({
    answers: z.array(z.strictObject({ question_id: z.number().int().min(1), answer: z.string().max(4000) })).max(30),
  }),
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const getAccount = defineOperation({
  name: 'get_account', method: 'GET', path: '/me', access: 'account:read', tags: ['Account'],
  summary: 'Who the caller is',
  description: 'Who the caller is signed in as, which credential is in use (API key name or OAuth client) and what it allows (its scopes).\n\n'
    + 'Returns `{user: {id, email, name, role, email_verified}, credential: {type: "api_key", name, prefix} | {type: "oauth", name, client_id}, scopes: [scope], allows: [what the scopes allow, in plain words]}`.',
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  examples: { response: { user: { id: 7, email: 'ada@example.com', name: 'Ada', role: 'user', email_verified: true }, credential: { type: 'api_key', name: 'My build script', prefix: 'llk_AbCdEfGhIjKl' }, scopes: ['account:read'], allows: ['See your account, your drafts, listings, claims and orders'] } },
  handler: async (ctx) => accountOf(ctx),
});
