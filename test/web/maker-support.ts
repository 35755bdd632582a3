// Helpers of the maker pages' tests (maker-pages, maker-edit, maker-draft-more): a person signed in
// with a session cookie (and an API key of theirs to look behind the pages), a form as a page shows
// it, and a draft read from a website served on loopback.
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { makeUser, type LiveApp } from '../auth/helpers.ts';
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import type { User } from '../../src/auth/users.ts';

export interface Person {
  b: Browser;
  user: User;
  api: (method: string, path: string, body?: unknown) => Promise<any>;
}

/** A new person signed in with a session cookie, and an API key of theirs to look behind the pages (`api`: JSON in and out). */
export async function signedInPerson(t: LiveApp): Promise<Person> {
  const user = await makeUser(t.store);
  const { token } = await createSession(t.store.db, user.id);
  const b = new Browser(t.base);
  b.cookies.push({ name: SESSION_COOKIE, value: token, path: '/', expires: Infinity });
  const key = (await createApiKey(t.store.db, user.id, 'test', ['account:read', 'listings:write', 'orders:write'])).key;
  const api = async (method: string, path: string, body?: unknown) =>
    (
      await fetch(`${t.base}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json();
  return { b, user, api };
}

/** A form as the page shows it (every control's value), with some values changed (null: left out). */
export function formAsShown(
  text: string,
  selector: string,
  changes: Record<string, string | null> = {},
): Record<string, string> {
  const $p = $(text);
  const form: Record<string, string> = {};
  $p(`${selector} input`).each((_, el) => {
    if ($p(el).attr('name')) form[$p(el).attr('name')!] = $p(el).attr('value') ?? '';
  });
  $p(`${selector} textarea`).each((_, el) => {
    form[$p(el).attr('name')!] = $p(el).text();
  });
  $p(`${selector} select`).each((_, el) => {
    form[$p(el).attr('name')!] = $p(el).find('option[selected]').attr('value') ?? '';
  });
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete form[k];
    else form[k] = v;
  }
  return form;
}

/** Submits a product's website through /submit and lets the worker read it: the ready draft's id. */
export async function draftFromSite(t: LiveApp, b: Browser, url: string): Promise<string> {
  const page = await b.go('/submit');
  const res = await b.request('/submit', { form: { _csrf: csrfOf(page.text, '/submit'), url } });
  assert.equal(res.status, 303);
  const id = res.headers.get('location')!.split('/').pop()!;
  await drainJobs(t.server.deps, jobHandlers);
  return id;
}
