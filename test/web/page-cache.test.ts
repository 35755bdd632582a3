// Public pages and public API reads shared for a moment (SHARED_CACHE_MS, 1 s here), and what must
// stay true with them (issue #18): a change shows at once to the person who made it and within the
// bound to everyone else; nothing personal is ever served from the shared cache; pages answer
// conditional requests with 304 and say how they may be cached.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser, PASSWORD } from '../auth/helpers.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { cacheCounts } from '../../src/ops/cache-stats.ts';
import { PageCache } from '../../src/web/page-cache.ts';
import { askedOf, fill, fillSignedOut, holesOf, signedInText, Slots } from '../../src/web/personal.ts';
import { raw } from '../../src/web/layout.ts';
import { react } from '../../src/store/repos/votes.ts';
import { archivedWeekStamp } from '../../src/store/week-stamps.ts';
import { addDays, addWeeks, mondayOf } from '../../src/domain/weeks.ts';

const BOUND_MS = 1000;
let t: TestApp;

before(async () => {
  t = await testApp({ SHARED_CACHE_MS: String(BOUND_MS) }, async (store) => {
    await category(store.db, 'tools', { name: 'Tools' });
    const now = new Date().toISOString();
    for (const [slug, name] of [
      ['kettle', 'Kettle'],
      ['teapot', 'Teapot'],
    ])
      await listing(store.db, { slug, name, tagline: `${name} tagline`, category: 'tools', launched_at: now });
  });
});
after(async () => {
  await t.cleanup();
});

class Browser {
  jar = new Map<string, string>();
  async req(method: 'GET' | 'POST', url: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.inject({
      method,
      url,
      headers: {
        accept: 'text/html',
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (!c.value || (c.maxAge !== undefined && c.maxAge <= 0)) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }
  async page(url: string) {
    const res = await this.req('GET', url);
    assert.equal(res.statusCode, 200, url);
    return { res, $: cheerio.load(res.body) };
  }
}

async function signedIn(name: string): Promise<{ b: Browser; email: string }> {
  const user = await makeUser(t.store);
  await t.store.db.updateTable('users').set({ name }).where('id', '=', user.id).execute();
  const b = new Browser();
  const { $ } = await b.page('/sign-in');
  const res = await b.req('POST', '/sign-in', {
    _csrf: $('form[action="/sign-in"] input[name=_csrf]').val() as string,
    email: user.email,
    password: PASSWORD,
  });
  assert.equal(res.statusCode, 303);
  return { b, email: user.email };
}

/** A vote made elsewhere (not through this browser): no cookie of the person's browser says so. */
async function voteAs(name: string, slug: string): Promise<void> {
  const user = await t.store.db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  await react(t.store.db, t.store.engine, 'vote', slug, user.id, 'add');
}

const votesShown = ($: cheerio.CheerioAPI) => Number($('#act .vote-btn .n').first().text().replace(/,/g, ''));
const setTagline = (slug: string, tagline: string) =>
  t.store.db.updateTable('listings').set({ tagline }).where('slug', '=', slug).execute();

test('a vote shows at once to the voter and within the bound to everyone else', async () => {
  const anon = new Browser();
  const before = votesShown((await anon.page('/listings/kettle')).$); // now shared
  const { b: voter } = await signedIn('Vera Voter');
  const { $ } = await voter.page('/listings/kettle');
  assert.equal(votesShown($), before);
  const form: Record<string, string> = {};
  $('#act form.vote input[type=hidden]').each((_, el) => {
    form[$(el).attr('name')!] = $(el).attr('value') ?? '';
  });
  assert.equal((await voter.req('POST', '/listings/kettle/vote', form)).statusCode, 303);
  const mine = (await voter.page('/listings/kettle')).$;
  assert.equal(votesShown(mine), before + 1, "the voter's next page shows the new count");
  assert.equal(mine('#act form.vote button').attr('aria-pressed'), 'true', 'and their vote');
  await sleep(BOUND_MS + 50);
  assert.equal(votesShown((await anon.page('/listings/kettle')).$), before + 1, 'everyone sees it within the bound');
});

test('an edit made elsewhere is not shown to others for longer than the bound', async () => {
  const anon = new Browser();
  assert.match((await anon.page('/categories/tools')).res.body, /Teapot tagline/);
  await setTagline('teapot', 'Brews in under a minute');
  const soon = (await anon.page('/categories/tools')).res.body; // may still be the shared page
  assert.ok(/Teapot tagline|Brews in under a minute/.test(soon));
  await sleep(BOUND_MS + 50);
  assert.match((await anon.page('/categories/tools')).res.body, /Brews in under a minute/);
});

test('a page built from a shared result is kept for the bound from that read, not from its render', async () => {
  const anon = new Browser();
  await setTagline('kettle', 'Whistles when ready');
  await sleep(BOUND_MS + 50); // nothing kept from before
  // the page's own read of get_category, kept as a shared result now (asked for twice)
  const api = '/api/v1/categories/tools?per_page=30';
  for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ method: 'GET', url: api })).statusCode, 200);
  const readAt = Date.now();
  await setTagline('kettle', 'Boils in ninety seconds');
  await sleep(BOUND_MS * 0.4);
  // the page, asked for twice, is kept now: built from the result read before the change
  for (let i = 0; i < 2; i++) assert.match((await anon.page('/categories/tools')).res.body, /Whistles when ready/);
  await sleep(readAt + BOUND_MS + 100 - Date.now());
  // a bound after the shared read, the change shows (the page kept from its render would show it only 0.4 bound later)
  assert.match((await anon.page('/categories/tools')).res.body, /Boils in ninety seconds/);
});

test("an archived week's page is kept past the bound, and a change to one of its launches shows at once", async () => {
  const db = t.store.db;
  const week = addWeeks(mondayOf(new Date()), -5);
  await listing(db, {
    slug: 'samovar',
    name: 'Samovar',
    tagline: 'Samovar tagline',
    category: 'tools',
    launch_week: week,
    launched_at: `${addDays(week, 1)}T10:00:00.000Z`,
  });
  const anon = new Browser();
  const url = `/launches/weeks/${week}`;
  const first = await anon.page(url);
  assert.match(first.res.body, /Samovar tagline/);
  await sleep(BOUND_MS + 50);
  const kept = await anon.page(url);
  assert.equal(kept.res.headers['last-modified'], first.res.headers['last-modified'], 'the same page, past the bound');
  assert.equal(kept.res.body, first.res.body);

  // someone votes (on another instance: no cookie of theirs here): every visitor sees it at once
  const voter = await makeUser(t.store);
  await react(db, t.store.engine, 'vote', 'samovar', voter.id, 'add');
  const voted = await anon.page(url);
  assert.equal(Number(voted.$('.vote-btn .n').first().text()), 1);
  // …and an edit of what the list shows
  await setTagline('samovar', 'Boils in under a minute');
  assert.match((await anon.page(url)).res.body, /Boils in under a minute/);

  // the current week and the week before are shared for the bound only (the triggers count a week once it ended)
  const monday = mondayOf(new Date());
  assert.equal(await archivedWeekStamp(db, monday), undefined);
  assert.equal(await archivedWeekStamp(db, addWeeks(monday, -1)), undefined);
  assert.notEqual(await archivedWeekStamp(db, addWeeks(monday, -2)), undefined);
});

test('nothing personal from the shared cache: another visitor never gets my name, token or votes', async () => {
  const { b: alice } = await signedIn('Alice Unique');
  const mine = await alice.page('/categories/tools'); // rendered and shared first by a signed-in person
  assert.match(mine.res.body, /Alice Unique/);
  const aliceToken = mine.$('form[action="/sign-out"] input[name=_csrf]').val() as string;
  assert.ok(aliceToken);
  const anon = await new Browser().page('/categories/tools');
  assert.doesNotMatch(anon.res.body, /Alice Unique/);
  assert.ok(!anon.res.body.includes(aliceToken), "Alice's CSRF token is not in the anonymous page");
  assert.match(anon.$('header .me').text(), /Sign in/);
  assert.equal(anon.$('form.vote').length, 0, 'signed out: vote links to sign in, no forms');
  const { b: bob } = await signedIn('Bob Other');
  const bobs = await bob.page('/categories/tools');
  assert.match(bobs.res.body, /Bob Other/);
  assert.doesNotMatch(bobs.res.body, /Alice Unique/);
  assert.ok(!bobs.res.body.includes(aliceToken));
  const bobToken = bobs.$('form[action="/sign-out"] input[name=_csrf]').val() as string;
  assert.ok(
    bobs
      .$('form.vote input[name=_csrf]')
      .toArray()
      .every((el) => bobs.$(el).val() === bobToken),
  );
});

test('pages carry ETag and Last-Modified, answer 304, and say how they may be cached', async () => {
  const anon = new Browser();
  const first = (await anon.page('/')).res;
  assert.ok(first.headers.etag);
  assert.ok(first.headers['last-modified']);
  assert.match(String(first.headers['cache-control']), /^public, max-age=\d+/);
  const again = await anon.req('GET', '/', undefined, { 'if-none-match': String(first.headers.etag) });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  const { b } = await signedIn('Casey Cache');
  const mine = (await b.page('/')).res;
  assert.match(String(mine.headers['cache-control']), /private/);
  assert.notEqual(mine.headers.etag, first.headers.etag, 'a personal page has its own validator');
  const mine304 = await b.req('GET', '/', undefined, { 'if-none-match': String(mine.headers.etag) });
  assert.equal(mine304.statusCode, 304);
  // Operators see how often the shared pages answer (launchlist_cache_requests_total).
  await anon.page('/');
  const before = cacheCounts.shared_page.hit;
  await anon.page('/');
  assert.equal(cacheCounts.shared_page.hit, before + 1, 'a page served from the shared cache is counted as a hit');
});

test("a signed-in page's validator changes with the person's vote, even while the shared page is the same", async () => {
  const anon = new Browser();
  await anon.page('/categories/tools');
  await anon.page('/categories/tools'); // asked for twice: kept
  const { b } = await signedIn('Tess Tag');
  const first = await b.page('/categories/tools');
  assert.equal(first.$('form.vote[action="/listings/teapot/vote"] button').attr('aria-pressed'), 'false');
  const etag = String(first.res.headers.etag);
  assert.equal((await b.req('GET', '/categories/tools', undefined, { 'if-none-match': etag })).statusCode, 304);
  // the vote comes from elsewhere (no cookie of this browser says so): the kept page may still be served
  await voteAs('Tess Tag', 'teapot');
  const after = await b.req('GET', '/categories/tools', undefined, { 'if-none-match': etag });
  assert.equal(after.statusCode, 200, 'not a 304: the page now shows the vote');
  assert.equal(
    cheerio.load(after.body)('form.vote[action="/listings/teapot/vote"] button').attr('aria-pressed'),
    'true',
  );
});

test("a signed-in page answered once (not kept) carries the person's own header, token and vote state; its validator answers 304 and moves with their vote", async () => {
  const url = '/categories/tools?view=once';
  await sleep(BOUND_MS + 50); // nothing kept, nothing asked for
  const { b } = await signedIn('Orla Once');
  const first = await b.page(url); // asked for once: answered and not kept
  assert.match(first.$('header .me').text(), /Orla Once/);
  const token = first.$('form[action="/sign-out"] input[name=_csrf]').val() as string;
  const forms = first.$('form.vote').toArray();
  assert.ok(forms.length >= 2, 'a vote form per listing');
  for (const f of forms) {
    assert.equal(first.$(f).find('input[name=_csrf]').val(), token, "each form carries this person's token");
    assert.ok(first.$(f).find('input[name=t]').val(), 'and the signed page time');
  }
  assert.equal(first.$('form.vote[action="/listings/teapot/vote"] button').attr('aria-pressed'), 'false');
  const etag = String(first.res.headers.etag);
  await sleep(BOUND_MS + 50); // answered once again, not from a kept page
  assert.equal((await b.req('GET', url, undefined, { 'if-none-match': etag })).statusCode, 304);
  await voteAs('Orla Once', 'teapot');
  await sleep(BOUND_MS + 50);
  const after = await b.req('GET', url, undefined, { 'if-none-match': etag });
  assert.equal(after.statusCode, 200, 'not a 304: the page now shows the vote');
  assert.equal(
    cheerio.load(after.body)('form.vote[action="/listings/teapot/vote"] button').attr('aria-pressed'),
    'true',
  );
  // nobody else gets any of it
  const anon = await new Browser().page(url);
  assert.doesNotMatch(anon.res.body, /Orla Once/);
  assert.ok(!anon.res.body.includes(token));
});

test('public API reads are shared by anonymous callers within the bound; a signed-in caller reads afresh', async () => {
  const read = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/v1/categories/tools', headers }).then((r) => {
      assert.equal(r.statusCode, 200);
      return r.json() as { items: Array<{ slug: string; tagline: string | null }> };
    });
  const tagline = (r: { items: Array<{ slug: string; tagline: string | null }> }) =>
    r.items.find((i) => i.slug === 'kettle')?.tagline;
  await read();
  await setTagline('kettle', 'Boils in seconds');
  const user = await makeUser(t.store);
  const { key } = await createApiKey(t.store.db, user.id, 'reader', ['account:read']);
  assert.equal(tagline(await read({ authorization: `Bearer ${key}` })), 'Boils in seconds', 'signed in: fresh');
  await sleep(BOUND_MS + 50);
  assert.equal(tagline(await read()), 'Boils in seconds', 'anonymous: within the bound');
});

test('the shared pages are bounded by memory and by age: a crawl through many pages keeps neither more bytes nor older pages', () => {
  const cache = new PageCache({} as never, 10_000);
  const entry = (at: number) => ({ at, page: Promise.resolve(null), bytes: 0 });
  const now = 1_000_000;
  for (let i = 0; i < 100; i++) {
    const e = entry(now);
    cache.set(`/listings/p${i}`, e, 1000, now);
    cache.sized(`/listings/p${i}`, e, 1_000);
  }
  assert.ok(cache.bytes <= 10_000, `${cache.bytes} bytes kept`);
  assert.equal(cache.size, 10, 'the least recently used went first');
  assert.ok(cache.get('/listings/p99', 1000, now), 'the newest is kept');
  assert.equal(cache.get('/listings/p0', 1000, now), undefined, 'the oldest is gone');
  // A second later, the next page stored sweeps every page older than the bound.
  const later = entry(now + 1000);
  cache.set('/listings/new', later, 1000, now + 1000);
  assert.equal(cache.size, 1);
  assert.equal(cache.bytes, 0);
});

test('a page kept, once it runs out, is kept again from its next request: a page asked for all the time is rendered once per bound, not twice', async () => {
  const url = '/categories/tools?per_page=24';
  const anon = new Browser();
  const misses = () => cacheCounts.shared_page.miss;
  await sleep(BOUND_MS + 50); // nothing kept from before
  let m = misses();
  await anon.page(url);
  await anon.page(url);
  assert.equal(misses() - m, 2, 'asked for once, answered and dropped; asked for again, kept');
  m = misses();
  await anon.page(url);
  assert.equal(misses(), m, 'served from the kept page');
  await sleep(BOUND_MS + 50); // it runs out
  m = misses();
  await anon.page(url);
  await anon.page(url);
  await anon.page(url);
  assert.equal(misses() - m, 1, 'rendered once and kept again: not answered once and rendered a second time');
  // A page that ran out a bound or more before it is asked for again is new again (a crawl keeps nothing).
  const cache = new PageCache({} as never);
  const now = 2_000_000;
  const e = { at: now, page: Promise.resolve(null), bytes: 0 };
  cache.set('/a', e, 1000, now);
  assert.equal(cache.get('/a', 1000, now + 1500), undefined, 'past the bound');
  assert.equal(cache.admit('/a', 1000, now + 1500), true, 'ran out 0.5 bound ago: kept at once');
  cache.set('/b', { at: now, page: Promise.resolve(null), bytes: 0 }, 1000, now);
  cache.sweep(1000, now + 1200); // swept out, ran out 0.2 bound ago
  assert.equal(cache.admit('/b', 1000, now + 1300), true, 'swept out: kept at once too');
  cache.set('/c', { at: now, page: Promise.resolve(null), bytes: 0 }, 1000, now);
  assert.equal(cache.get('/c', 1000, now + 2500), undefined);
  assert.equal(cache.admit('/c', 1000, now + 2500), false, 'ran out more than a bound ago: asked for once');
});

test('a listing page counts a view per request, whether it was rendered, kept or served from the kept page', async () => {
  const id = (
    await t.store.db.selectFrom('listings').select('id').where('slug', '=', 'teapot').executeTakeFirstOrThrow()
  ).id;
  const views = async () => {
    await t.server.deps.services.views.flush();
    const row = await t.store.db
      .selectFrom('listing_view_totals')
      .select('views')
      .where('listing_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.views);
  };
  const before = await views();
  const hits = cacheCounts.shared_page.hit;
  // the first request is rendered and answered, the second rendered and kept, the others served from it
  for (let i = 0; i < 5; i++)
    assert.equal((await t.app.inject({ url: '/listings/teapot', headers: { accept: 'text/html' } })).statusCode, 200);
  assert.ok(cacheCounts.shared_page.hit - hits >= 2, 'the later requests were served from the kept page');
  assert.equal((await views()) - before, 5);
});

/** A response's body as text, decompressed as its Content-Encoding says. */
function unpack(res: { headers: Record<string, unknown>; rawPayload: Buffer }): string {
  const decode = { br: brotliDecompressSync, gzip: gunzipSync, zstd: zstdDecompressSync }[
    String(res.headers['content-encoding']) as 'br' | 'gzip' | 'zstd'
  ];
  return (decode ? decode(res.rawPayload) : res.rawPayload).toString();
}

test('pages are written compressed as the browser asks: a kept page is compressed once for everyone signed out, is the same page, and carries nothing personal', async () => {
  const url = '/categories/tools?per_page=23';
  const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };
  await sleep(BOUND_MS + 50); // nothing kept from before
  // rendered (and kept) by a signed-in person's requests: their page is compressed for them alone
  const { b: alice } = await signedIn('Alice Zipped');
  for (let i = 0; i < 2; i++) {
    const mine = await alice.req('GET', url, undefined, BROWSER);
    assert.equal(mine.headers['content-encoding'], 'br');
    assert.match(unpack(mine), /Alice Zipped/);
    assert.match(String(mine.headers.vary), /accept-encoding/i);
    assert.match(String(mine.headers.vary), /cookie/i);
  }
  const plain = await new Browser().req('GET', url);
  assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: the page as it is');
  assert.match(String(plain.headers.vary), /accept-encoding/i, 'a CDN keeps the plain and compressed pages apart');
  assert.match(String(plain.headers.vary), /Origin/, "and keeps CORS's Vary");
  const c = cacheCounts.shared_page_compressed;
  const [hit, miss] = [c.hit, c.miss];
  const anon = new Browser();
  const first = await anon.req('GET', url, undefined, BROWSER);
  const second = await anon.req('GET', url, undefined, BROWSER);
  for (const res of [first, second]) {
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
    assert.equal(unpack(res), plain.body, 'the same page as written plain');
    assert.doesNotMatch(unpack(res), /Alice Zipped/);
    assert.equal(res.headers.etag, plain.headers.etag);
  }
  assert.deepEqual([c.hit - hit, c.miss - miss], [1, 1], 'compressed on the first request, then written as kept');
  // a browser that takes gzip only (or refuses brotli) gets gzip; one that takes neither, the plain page
  const gz = await anon.req('GET', url, undefined, { 'accept-encoding': 'br;q=0, gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(unpack(gz), plain.body);
  const none = await anon.req('GET', url, undefined, { 'accept-encoding': 'identity' });
  assert.equal(none.headers['content-encoding'], undefined);
  assert.equal(none.body, plain.body);
  // and it still answers 304 to the validator it gave
  const again = await anon.req('GET', url, undefined, { ...BROWSER, 'if-none-match': String(first.headers.etag) });
  assert.equal(again.statusCode, 304);
});

test("a browser that takes zstd (Chrome's and Firefox's Accept-Encoding) gets a page made for it in zstd, and a kept page's brotli copy; the same page", async () => {
  const url = '/categories/tools?per_page=21';
  const CHROME = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  await sleep(BOUND_MS + 50); // nothing kept from before
  const { b: bob } = await signedIn('Bob Zstd');
  // a signed-in person's page is compressed for them alone, per request: the fastest encoding they take
  const mine = await bob.req('GET', url, undefined, CHROME);
  assert.equal(mine.headers['content-encoding'], 'zstd');
  assert.match(unpack(mine), /Bob Zstd/);
  const plain = await new Browser().req('GET', url);
  const anon = new Browser();
  // kept for everyone signed out: compressed once, in the smallest encoding they take
  for (let i = 0; i < 2; i++) {
    const res = await anon.req('GET', url, undefined, CHROME);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(unpack(res), plain.body);
  }
  // and a client that takes only zstd gets a kept zstd copy of the same page
  const only = await anon.req('GET', url, undefined, { 'accept-encoding': 'zstd' });
  assert.equal(only.headers['content-encoding'], 'zstd');
  assert.equal(unpack(only), plain.body);
  assert.equal(Number(only.headers['content-length']), only.rawPayload.length);
});

test("what a page derives from a shared read is made once per read and handed on; a change to the read's data shows within the bound", async () => {
  const { readDerived } = await import('../../src/web/pages/shared.ts');
  const { listCategories } = await import('../../src/operations/categories.ts');
  await category(t.store.db, 'derived-cat', { name: 'Derived Before' });
  await sleep(BOUND_MS + 50); // the tree is read afresh
  let made = 0;
  const names = (r: { categories: Array<{ slug: string; name: string }> }) => {
    made++;
    return Object.freeze(r.categories.map((c) => c.name));
  };
  const req = { id: 'test', cookies: {} } as never;
  const got: Array<readonly string[]> = [];
  for (let i = 0; i < 6; i++) got.push(await readDerived(t.server.deps, req, listCategories, { query: {} }, names));
  // read once for the first caller, kept from the second: derived for each distinct result, not per caller
  // (2 here; a read ahead, past half the bound on a slow machine, makes one more result)
  assert.ok(made < got.length, `derived ${made} times for ${got.length} reads`);
  assert.ok(
    got.some((g, i) => i > 0 && g === got[i - 1]),
    'the same frozen value handed to the next caller',
  );
  assert.ok(got[5].includes('Derived Before'));
  // the search page's category filter is made this way: a rename shows there within the bound
  await t.store.db.updateTable('categories').set({ name: 'Derived After' }).where('slug', '=', 'derived-cat').execute();
  await sleep(BOUND_MS + 50);
  const page = cheerio.load((await t.app.inject({ url: '/search?q=kettle' })).body);
  const options = page('#search-category option')
    .map((_, o) => page(o).text())
    .get();
  assert.ok(options.includes('Derived After'), 'the renamed category is offered');
  assert.ok(!options.includes('Derived Before'));
  // and the option asked for stays selected
  const chosen = cheerio.load((await t.app.inject({ url: '/search?q=kettle&category=derived-cat' })).body);
  assert.equal(chosen('#search-category option[selected]').attr('value'), 'derived-cat');
});

test('a public API read shared within the bound is written compressed as the caller asks, the same answer as plain', async () => {
  await category(t.store.db, 'shelf', { name: 'Shelf' });
  for (let i = 0; i < 12; i++)
    await listing(t.store.db, {
      slug: `shelf-${i}`,
      name: `Shelf ${i}`,
      tagline: `Shelf item ${i}, a tagline long enough to make the answer worth compressing`,
      category: 'shelf',
      launched_at: new Date().toISOString(),
    });
  const url = '/api/v1/categories/shelf';
  const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
  const plain = await get({});
  assert.ok(plain.rawPayload.length > 1024, 'large enough to be compressed');
  assert.match(String(plain.headers.vary), /Origin, accept-encoding/, 'a cache keeps the plain and compressed apart');
  for (let i = 0; i < 3; i++) {
    // the first is read for this caller; the second is kept and shared; the third is written from it
    const res = await get({ 'accept-encoding': 'gzip, br' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.deepEqual(JSON.parse(brotliDecompressSync(res.rawPayload).toString()), plain.json());
    assert.equal(res.headers.etag, plain.headers.etag);
    assert.match(String(res.headers.vary), /Origin/);
    assert.match(String(res.headers.vary), /accept-encoding/);
  }
  const gz = await get({ 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(JSON.parse(gunzipSync(gz.rawPayload).toString()), plain.json());
});

test('a public API read shared within the bound is written plain as the very bytes of its text, whatever its characters', async () => {
  await category(t.store.db, 'kiosk', { name: 'Kiosk — cafés ☕' });
  for (let i = 0; i < 3; i++)
    await listing(t.store.db, {
      slug: `kiosk-${i}`,
      name: `Kiosk ${i} ☕`,
      tagline: `Crème brûlée — 東京 ${i}`,
      category: 'kiosk',
      launched_at: new Date().toISOString(),
    });
  const url = '/api/v1/categories/kiosk';
  const hits = cacheCounts.shared_result.hit;
  const answers = [];
  // the first is read for this caller; the second is kept and shared; the third is written from it
  for (let i = 0; i < 3; i++) answers.push(await t.app.inject({ method: 'GET', url }));
  assert.ok(cacheCounts.shared_result.hit > hits, 'the later answers come from the shared result');
  for (const res of answers) {
    assert.equal(res.statusCode, 200);
    assert.equal(Number(res.headers['content-length']), res.rawPayload.length, 'Content-Length counts bytes');
    assert.deepEqual(res.rawPayload, answers[0].rawPayload);
    assert.equal(res.headers.etag, answers[0].headers.etag);
  }
  const body = answers[2].json() as { name: string; items: Array<{ tagline: string }> };
  assert.equal(body.name, 'Kiosk — cafés ☕');
  assert.ok(body.items.some((l) => l.tagline === 'Crème brûlée — 東京 1'));
});

test('a kept page holds its text once: once its signed-out bytes are made, its parts are views of them, and people signed in still get their own', async () => {
  const slots = new Slots();
  const marker = slots.add(
    signedInText(raw('<a href="/sign-in">Sign in</a>'), raw('<a href="/account">Account</a>')),
  ).value;
  const text = `<main>${'<p>static text</p>'.repeat(30)}${marker}${'<p>more</p>'.repeat(30)}</main>`;
  const holes = holesOf(text, slots.list);
  const bytes = await fillSignedOut({} as never, {} as never, holes);
  assert.equal(bytes.toString(), text.replace(marker, '<a href="/sign-in">Sign in</a>'));
  assert.equal(holes.parts.length, 2);
  assert.ok(
    holes.parts.every((p) => p.buffer === bytes.buffer),
    'the parts have no bytes of their own',
  );
  const person = {
    user: { id: 1 },
    session: null,
    csrf: 'token',
    reactions: { asked: askedOf(slots.list), voted: new Set<string>(), following: new Set<string>() },
  };
  const mine = await fill({} as never, {} as never, holes, person as never);
  assert.equal(mine.toString(), text.replace(marker, '<a href="/account">Account</a>'));
  assert.equal(
    bytes.toString(),
    text.replace(marker, '<a href="/sign-in">Sign in</a>'),
    'the signed-out bytes unchanged',
  );
});

test('a kept page rendered again unchanged once it ran out keeps its Last-Modified (If-Modified-Since still answers 304) and its compressed copy; a change moves both', async () => {
  const url = '/categories/tools?per_page=22';
  const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };
  const anon = new Browser();
  await sleep(BOUND_MS + 50); // nothing kept from before
  await anon.req('GET', url, undefined, BROWSER); // asked for once: answered and dropped
  const first = await anon.req('GET', url, undefined, BROWSER); // asked again: kept, compressed once
  assert.equal(first.headers['content-encoding'], 'br');
  const c = cacheCounts.shared_page_compressed;
  await sleep(BOUND_MS + 50); // it runs out; nothing it shows changed
  let [hit, miss] = [c.hit, c.miss];
  const same = await anon.req('GET', url, undefined, BROWSER);
  assert.equal(same.statusCode, 200);
  assert.equal(same.headers.etag, first.headers.etag, 'the same page');
  assert.equal(
    same.headers['last-modified'],
    first.headers['last-modified'],
    'modified when it last changed, not when rendered',
  );
  assert.deepEqual([c.hit - hit, c.miss - miss], [1, 0], 'its compressed copy taken over, not made again');
  assert.equal(unpack(same), unpack(first));
  const since = await anon.req('GET', url, undefined, { 'if-modified-since': String(first.headers['last-modified']) });
  assert.equal(since.statusCode, 304, 'a cache holding the first answer revalidates it');

  await setTagline('kettle', 'Kettle, whistling');
  await sleep(BOUND_MS + 50);
  [hit, miss] = [c.hit, c.miss];
  const changed = await anon.req('GET', url, undefined, BROWSER);
  assert.match(unpack(changed), /Kettle, whistling/);
  assert.notEqual(changed.headers.etag, first.headers.etag);
  assert.notEqual(changed.headers['last-modified'], first.headers['last-modified'], 'a change moves Last-Modified');
  assert.deepEqual([c.hit - hit, c.miss - miss], [0, 1], 'compressed afresh');
  const stale = await anon.req('GET', url, undefined, { 'if-modified-since': String(first.headers['last-modified']) });
  assert.equal(stale.statusCode, 200, 'a cache holding the old answer gets the new one');
});
