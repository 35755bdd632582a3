// A client of the Launchlist API as its users would write it: types generated from
// /api/v1/openapi.json by openapi-typescript (schema.ts, written by typed-client.test.ts), requests
// made with openapi-fetch. It must compile under `tsc --strict` with no casts and no `any`: every
// field read below is typed by the OpenAPI document alone.
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

export interface Read {
  results: Array<{ name: string; votes: number }>;
  listing: { name: string; tagline: string | null; founders: string[]; categories: string[]; primary: string | null };
  me: { email: string; scopes: string[] };
  draftStates: { name: string; tagline: string };
}

export async function readAll(baseUrl: string, apiKey: string, draftId: string, query: string): Promise<Read> {
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

  const search = await api.GET('/listings', { params: { query: { q: query, per_page: 5 } } });
  if (!search.data) throw new Error(`search_listings failed: ${search.error?.error.message}`);
  const results = search.data.items.map((item) => ({ name: item.name, votes: item.votes }));

  const slug = search.data.items[0].slug;
  const got = await api.GET('/listings/{slug}', { params: { path: { slug } } });
  if (!got.data) throw new Error(`get_listing failed: ${got.error?.error.code}`);
  const profile = got.data;
  const listing = {
    name: profile.name,
    tagline: profile.tagline,
    founders: profile.founders.map((f) => f.name),
    categories: profile.categories.map((c) => c.slug),
    primary: profile.categories.find((c) => c.primary)?.name ?? null,
  };

  const account = await api.GET('/me');
  if (!account.data) throw new Error(`get_account failed: ${account.error?.error.code}`);
  const me = { email: account.data.user.email, scopes: account.data.scopes };

  const draft = await api.GET('/drafts/{id}', { params: { path: { id: draftId } } });
  if (!draft.data) throw new Error(`get_draft failed: ${draft.error?.error.code}`);
  const draftStates = { name: draft.data.fields.name.state, tagline: draft.data.fields.tagline.state };

  return { results, listing, me, draftStates };
}
