import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { Country, JsonObject, Paged, Pagination, Slug } from './schemas.ts';

export const listFounders = defineOperation({
  name: 'list_founders', method: 'GET', path: '/founders', access: 'public', tags: ['Founders'],
  summary: 'Founders behind live listings',
  description: 'Founders behind live listings, optionally filtered by name (`q`) and country.',
  query: z.object({ q: z.string().max(120).optional(), country: Country.optional(), ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  handler: async () => notImplemented('issue #2'),
});

export const getFounder = defineOperation({
  name: 'get_founder', method: 'GET', path: '/founders/{slug}', access: 'public', tags: ['Founders'],
  summary: 'One founder',
  description: 'A founder: bio, socials, their companies listed on the service and their published stories.',
  params: z.object({ slug: Slug }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});
