// Claims (spec parts 2, 3, 4.6): a signed-in person proves control of an existing listing's domain
// and becomes its owner; the listing gets its Verified badge. Verified is not the same as paid.
//
//   dns    a TXT record  launchlist-verification=<token>  at  _launchlist.<domain>
//   meta   <meta name="launchlist-verification" content="<token>">  in the <head> of the homepage
//   file   <origin>/.well-known/launchlist-verification.txt  containing exactly the token
//   email  a link mailed to an address at the domain; the person who opens it confirms (web page)
//
// Every fetch of the claimed site goes through the guarded fetcher (public addresses only, size and
// time caps). DNS is read with node:dns/promises resolveTxt, injectable for tests
// (services.claims.resolveTxt). One check per claim per 10 s (services.claims.checkIntervalMs).
import { createHash, randomBytes } from 'node:crypto';
import { Resolver as DnsResolver } from 'node:dns/promises';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Ctx } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { ApiError, conflict, invalid, notFound } from '../operations/errors.ts';
import type { Engine } from '../store/connect.ts';
import type { DB } from '../store/types.ts';
import { summariesByIds, type ListingSummary } from '../store/repos/summary.ts';
import { guardedFetch, isFetchError, type Resolver } from '../drafting/crawler/guarded-fetch.ts';
import { loadHtml } from '../drafting/extract/html.ts';
import { normaliseDomain } from '../domain/urls.ts';
import { sendMail } from '../mail/index.ts';
import type { ClaimOptions } from './options.ts';
import {
  EXPIRED_ERROR,
  expireEmailClaims,
  findClaim,
  findClaimByToken,
  findOwnClaim,
  findPendingClaim,
  insertClaim,
  listingById,
  listOwnClaims,
  markVerified,
  publicListingBySlug,
  recordCheckFailure,
  resendEmailClaim,
  reserveCheck,
  userContact,
  type ClaimListing,
  type ClaimRow,
} from '../store/repos/claims.ts';
import type { ClaimMethod, ClaimStatus } from '../domain/claims.ts';

export const LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const CHECK_INTERVAL_MS = 10_000;
/** A pending email claim may be re-sent to another address at most once a minute. */
export const RESEND_INTERVAL_MS = 60_000;
export const FILE_PATH = '/.well-known/launchlist-verification.txt';
export const FILE_MAX_BYTES = 4096;
export const HOME_MAX_BYTES = 1024 * 1024;
export const DNS_PREFIX = '_launchlist';
export const TOKEN_PREFIX = 'launchlist-verification';

export const VERIFIED_NOTE =
  'Verified proves that you control the domain: the listing moves to your account and shows the Verified badge. Verified is not the same as paid: it unlocks no paid plan or section; those come only from orders.';

/** Test and tuning hooks, attached as services.claims. */

type Deps = { db: Kysely<DB>; engine: Engine; config: Config; services?: { claims: ClaimOptions } };

const optionsOf = (services: { claims: ClaimOptions } | undefined): ClaimOptions => services?.claims ?? {};

let systemDns: DnsResolver | undefined;
const systemResolveTxt = (host: string): Promise<string[][]> => {
  systemDns ??= new DnsResolver({ timeout: 5000, tries: 2 });
  return systemDns.resolveTxt(host);
};

export const hashLinkToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const newVerificationToken = (): string => randomBytes(16).toString('hex');
const newLinkToken = (): string => randomBytes(32).toString('base64url');

// ---------------------------------------------------------------------------------------------
// The claim as the API shows it

export type Instructions =
  | { record_type: 'TXT'; host: string; value: string; how: string }
  | { tag: string; where: string; url: string; how: string }
  | { url: string; content: string; how: string }
  | { sent_to: string | null; note: string; expires_at: string | null; how: string };

export type ClaimView = {
  id: number;
  status: ClaimStatus;
  method: ClaimMethod;
  listing: ListingSummary | null;
  email: string | null;
  created_at: string;
  verified_at: string | null;
  checked_at: string | null;
  last_error: string | null;
  expires_at: string | null;
  instructions: Instructions;
  note: string;
};

/** The domain a claim proves control of: the listing's normalised domain. */
export function domainOf(listing: { url: string; domain: string }): string {
  return (listing.domain || normaliseDomain(listing.url) || hostOf(listing.url)).toLowerCase();
}
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return url;
  }
}
/** The listing's homepage: the origin of its url. */
export function homepageOf(url: string): string {
  return new URL(url).origin + '/';
}
/** Same site: both hosts normalise to one domain, or the final one is a subdomain of the first. */
function sameSite(startUrl: string, finalUrl: string): boolean {
  const a = normaliseDomain(startUrl) ?? hostOf(startUrl);
  const b = normaliseDomain(finalUrl) ?? hostOf(finalUrl);
  return a === b || b.endsWith('.' + a);
}

export function instructionsOf(
  claim: Pick<ClaimRow, 'method' | 'token' | 'email' | 'expires_at'>,
  listing: { url: string; domain: string },
): Instructions {
  const domain = domainOf(listing);
  switch (claim.method) {
    case 'dns':
      return {
        record_type: 'TXT',
        host: `${DNS_PREFIX}.${domain}`,
        value: `${TOKEN_PREFIX}=${claim.token}`,
        how: `At the DNS provider of ${domain}, add a TXT record on the name ${DNS_PREFIX}.${domain} (many providers want only "${DNS_PREFIX}" as the host) with the value above, wait until it is published, then call verify_claim. The apex ${domain} is not checked. You may remove the record once the claim is verified.`,
      };
    case 'meta': {
      const home = homepageOf(listing.url);
      return {
        tag: `<meta name="${TOKEN_PREFIX}" content="${claim.token}">`,
        where: `in the <head> of ${home}`,
        url: home,
        how: `Put the tag inside the <head> of the page served at ${home} (exactly that address; redirects within ${domain} are followed), then call verify_claim.`,
      };
    }
    case 'file': {
      const url = new URL(listing.url).origin + FILE_PATH;
      return {
        url,
        content: claim.token,
        how: `Serve a plain-text file at ${url} whose whole content is the token (surrounding whitespace is ignored; at most ${FILE_MAX_BYTES} bytes), then call verify_claim.`,
      };
    }
    case 'email':
      return {
        sent_to: claim.email,
        note: 'open the link in the email within 24 h',
        expires_at: claim.expires_at,
        how: `We emailed a link to ${claim.email}. Whoever reads that mailbox opens the link and confirms on the page; that verifies the claim. verify_claim does not check email claims. To send the link to another address at ${domain}, call claim_listing again with that address.`,
      };
  }
}

function viewOf(
  claim: ClaimRow,
  listing: { url: string; domain: string } | undefined,
  summary: ListingSummary | undefined,
  nowIso: string,
): ClaimView {
  const lapsed =
    claim.status === 'pending' && claim.method === 'email' && claim.expires_at !== null && claim.expires_at < nowIso;
  return {
    id: claim.id,
    status: lapsed ? 'expired' : claim.status,
    method: claim.method,
    listing: summary ?? null,
    email: claim.email,
    created_at: claim.created_at,
    verified_at: claim.verified_at,
    checked_at: claim.checked_at,
    last_error: lapsed ? EXPIRED_ERROR : claim.last_error,
    expires_at: claim.method === 'email' ? claim.expires_at : null,
    instructions: listing
      ? instructionsOf(claim, listing)
      : { sent_to: claim.email, note: 'the listing no longer exists', expires_at: null, how: '' },
    note: VERIFIED_NOTE,
  };
}

async function viewsOf(db: Kysely<DB>, claims: ClaimRow[], nowIso: string): Promise<ClaimView[]> {
  if (claims.length === 0) return [];
  const ids = [...new Set(claims.map((c) => c.listing_id))];
  const summaries = await summariesByIds(db, ids);
  const listings = new Map(
    (await db.selectFrom('listings').select(['id', 'url', 'domain']).where('id', 'in', ids).execute()).map((l) => [
      l.id,
      l,
    ]),
  );
  return claims.map((c) => viewOf(c, listings.get(c.listing_id), summaries.get(c.listing_id), nowIso));
}

async function viewOne(db: Kysely<DB>, claim: ClaimRow, nowIso: string): Promise<ClaimView> {
  return (await viewsOf(db, [claim], nowIso))[0];
}

// ---------------------------------------------------------------------------------------------
// claim_listing

export interface ClaimInput {
  slug: string;
  method: ClaimMethod;
  email?: string;
}

const isUniqueViolation = (e: unknown) => /unique|duplicate/i.test(String((e as Error)?.message ?? e));

function rateLimited(ms: number, message: string): ApiError {
  const secs = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError('rate_limited', `${message} Try again in ${secs} s.`, undefined, { 'Retry-After': String(secs) });
}

export async function claimListing(ctx: Ctx, input: ClaimInput): Promise<ClaimView> {
  const user = userOf(ctx);
  if (input.method === 'email' && !input.email) {
    invalid(
      'body.email',
      "is required when method is email: an address at the listing's domain, where we send the link",
    );
  }
  // 400, not 404: the slug is in the body, and the spec declares 404 only for identifiers in the path (7).
  const listing =
    (await publicListingBySlug(ctx.db, input.slug)) ??
    invalid(
      'body.slug',
      `no published listing ${JSON.stringify(input.slug)} exists (live, scheduled or awaiting its badge); search_listings gives the slugs`,
    );
  const domain = domainOf(listing);
  let email: string | null = null;
  if (input.method === 'email') {
    email = input.email!.trim().toLowerCase();
    const at = email.slice(email.lastIndexOf('@') + 1);
    if (!(at === domain || at.endsWith('.' + domain))) {
      invalid(
        'body.email',
        `must be an address at the listing's domain ${domain} or a subdomain of it (for example name@${domain}); ${at} is not`,
      );
    }
  }
  if (listing.owner_id === user.userId && listing.verified_at !== null) {
    conflict(
      `You already own ${listing.slug} and it is verified: there is nothing to claim. Manage it with get_my_listing (listing_id ${listing.id}).`,
    );
  }
  const now = ctx.now();
  const nowIso = now.toISOString();
  await expireEmailClaims(ctx.db, nowIso, { userId: user.userId });

  const existing = await findPendingClaim(ctx.db, user.userId, listing.id, input.method);
  if (existing) return again(ctx, existing, listing, email, now);

  const linkToken = input.method === 'email' ? newLinkToken() : null;
  let claim: ClaimRow;
  try {
    claim = await insertClaim(ctx.db, {
      user_id: user.userId,
      listing_id: listing.id,
      method: input.method,
      email,
      token: linkToken ? hashLinkToken(linkToken) : newVerificationToken(),
      status: 'pending',
      created_at: nowIso,
      verified_at: null,
      checked_at: null,
      last_error: null,
      expires_at: linkToken ? new Date(now.getTime() + LINK_TTL_MS).toISOString() : null,
    });
  } catch (e) {
    // A concurrent identical request created it first: return that one (one pending claim per person, listing and method).
    if (!isUniqueViolation(e)) throw e;
    const raced = await findPendingClaim(ctx.db, user.userId, listing.id, input.method);
    if (!raced) throw e;
    return viewOne(ctx.db, raced, nowIso);
  }
  if (linkToken) await mailLink(ctx, claim, listing, linkToken);
  return viewOne(ctx.db, claim, nowIso);
}

/** The same pending claim again; an email claim with another address gets a fresh link there. */
async function again(
  ctx: Ctx,
  existing: ClaimRow,
  listing: ClaimListing,
  email: string | null,
  now: Date,
): Promise<ClaimView> {
  const nowIso = now.toISOString();
  if (existing.method !== 'email' || existing.email === email) return viewOne(ctx.db, existing, nowIso);
  const sentAt = Date.parse(existing.expires_at ?? nowIso) - LINK_TTL_MS;
  const wait = sentAt + RESEND_INTERVAL_MS - now.getTime();
  if (wait > 0)
    throw rateLimited(
      wait,
      `A link for this claim was emailed to ${existing.email} less than a minute ago; it can be sent to another address once a minute.`,
    );
  const token = newLinkToken();
  await resendEmailClaim(ctx.db, existing.id, {
    email: email!,
    token: hashLinkToken(token),
    expires_at: new Date(now.getTime() + LINK_TTL_MS).toISOString(),
  });
  const updated = (await findClaim(ctx.db, existing.id))!;
  await mailLink(ctx, updated, listing, token);
  return viewOne(ctx.db, updated, nowIso);
}

async function mailLink(ctx: Ctx, claim: ClaimRow, listing: ClaimListing, token: string): Promise<void> {
  const user = userOf(ctx);
  const who = user.name ? `${user.name} (${user.email})` : user.email;
  const link = `${ctx.config.publicUrl}/claims/verify/${token}`;
  await sendMail(
    { db: ctx.db, config: ctx.config },
    {
      to: claim.email!,
      subject: `Confirm that ${who} may claim ${listing.name} on Launchlist`,
      text: [
        'Hello,',
        '',
        `${who} asked to become the owner of the listing ${listing.name} (${listing.url}) on Launchlist, and named this address at ${domainOf(listing)} to confirm it.`,
        'If you agree, open this link within 24 hours and confirm on the page:',
        '',
        link,
        '',
        'Confirming moves the listing to that account and shows the Verified badge on it. (Verified is not the same as paid.)',
        'If you do not know this person, ignore this email: nothing happens without your confirmation.',
      ].join('\n'),
    },
  );
}

// ---------------------------------------------------------------------------------------------
// list_my_claims

export async function listMyClaims(
  ctx: Ctx,
  page: { limit: number; offset: number },
): Promise<{ items: ClaimView[]; total: number }> {
  const user = userOf(ctx);
  const nowIso = ctx.now().toISOString(); // a lapsed email link shows as expired (viewOf); reading writes nothing
  const { rows, total } = await listOwnClaims(ctx.db, user.userId, page);
  return { items: await viewsOf(ctx.db, rows, nowIso), total };
}

// ---------------------------------------------------------------------------------------------
// verify_claim

type CheckResult = { ok: true } | { ok: false; error: string };
const fail = (error: string): CheckResult => ({ ok: false, error });
const quote = (s: string) => JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s);

export async function verifyClaim(ctx: Ctx, id: number): Promise<ClaimView> {
  const user = userOf(ctx);
  const opts = optionsOf(ctx.services);
  const now = ctx.now();
  const nowIso = now.toISOString();
  await expireEmailClaims(ctx.db, nowIso, { id });
  const claim = (await findOwnClaim(ctx.db, id, user.userId)) ?? notFound('claim', id);
  if (claim.status === 'verified') return viewOne(ctx.db, claim, nowIso);
  if (claim.status !== 'pending') {
    conflict(
      `Claim ${id} is ${claim.status}${claim.last_error ? ` (${claim.last_error})` : ''}; it cannot be checked again. Start a new claim with claim_listing.`,
    );
  }
  if (claim.method === 'email') {
    conflict(
      `Claim ${id} is an email claim: it is verified when someone opens the link in the email sent to ${claim.email} and confirms on that page (within 24 h). verify_claim checks only dns, meta and file claims.`,
    );
  }
  const interval = opts.checkIntervalMs ?? CHECK_INTERVAL_MS;
  if (!(await reserveCheck(ctx.db, id, nowIso, new Date(now.getTime() - interval).toISOString()))) {
    const cur = (await findClaim(ctx.db, id))!;
    if (cur.status !== 'pending') return viewOne(ctx.db, cur, nowIso); // another request finished it meanwhile
    const wait = Date.parse(cur.checked_at ?? nowIso) + interval - now.getTime();
    throw rateLimited(
      wait,
      `Claim ${id} was last checked at ${cur.checked_at}; each claim is checked at most once every ${Math.round(interval / 1000)} s so that sites and DNS servers are not hammered.`,
    );
  }
  const listing = (await listingById(ctx.db, claim.listing_id)) ?? notFound('claim', id);
  let result: CheckResult;
  try {
    result = await runCheck(ctx, opts, claim, listing);
  } catch (e) {
    await recordCheckFailure(
      ctx.db,
      id,
      nowIso,
      'the check could not be completed because of an error on our side; try again later',
    );
    throw e;
  }
  if (result.ok) await completeVerification(ctx, claim, nowIso);
  else await recordCheckFailure(ctx.db, id, nowIso, result.error);
  return viewOne(ctx.db, (await findClaim(ctx.db, id))!, nowIso);
}

async function runCheck(ctx: Ctx, opts: ClaimOptions, claim: ClaimRow, listing: ClaimListing): Promise<CheckResult> {
  if (claim.method === 'dns') return checkDns(domainOf(listing), claim.token, opts.resolveTxt ?? systemResolveTxt);
  const fetchOpts = {
    allowHosts: ctx.config.FETCH_ALLOW_HOSTS,
    timeoutMs: opts.fetchTimeoutMs ?? 10_000,
    ...(opts.resolve ? { resolve: opts.resolve } : {}),
  };
  if (claim.method === 'meta') return checkMeta(homepageOf(listing.url), claim.token, fetchOpts);
  return checkFile(new URL(listing.url).origin + FILE_PATH, claim.token, fetchOpts);
}

export async function checkDns(
  domain: string,
  token: string,
  resolveTxt: (host: string) => Promise<string[][]>,
): Promise<CheckResult> {
  const host = `${DNS_PREFIX}.${domain}`;
  const want = `${TOKEN_PREFIX}=${token}`;
  let records: string[][];
  try {
    records = await resolveTxt(host);
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NOTFOUND'].includes(code)) {
      return fail(
        `no TXT record ${want} at ${host}: the name has no TXT records (DNS changes can take a while to appear)`,
      );
    }
    return fail(`the DNS look-up of TXT records at ${host} failed (${code || (e as Error).message}); try again later`);
  }
  const values = records.map((chunks) => chunks.join('').trim());
  if (values.includes(want)) return { ok: true };
  const found = values.length ? `found ${values.slice(0, 5).map(quote).join(', ')}` : 'the name has no TXT records';
  return fail(`no TXT record ${want} at ${host}: ${found}`);
}

type FetchOpts = { allowHosts: readonly string[]; timeoutMs: number; resolve?: Resolver };

function fetchProblem(what: string, url: string, e: unknown): CheckResult {
  const reason = (e as { reason?: string }).reason;
  const why =
    reason === 'address_not_public'
      ? `refused: ${(e as Error).message} (only public internet addresses are fetched)`
      : (e as Error).message;
  return fail(`could not read ${what} ${url}: ${why}`);
}

export async function checkMeta(home: string, token: string, opts: FetchOpts): Promise<CheckResult> {
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch(home, { ...opts, accept: 'html', maxBytes: HOME_MAX_BYTES, truncate: true });
  } catch (e) {
    if (isFetchError(e)) return fetchProblem('the homepage', home, e);
    throw e;
  }
  if (!sameSite(home, res.url))
    return fail(
      `the homepage ${home} redirected to ${res.url}, which is not on ${normaliseDomain(home) ?? hostOf(home)}; the tag must be served there`,
    );
  const $ = loadHtml(res.body);
  const ours = (sel: string) =>
    $(sel)
      .filter((_, el) => ($(el).attr('name') ?? '').trim().toLowerCase() === TOKEN_PREFIX)
      .map((_, el) => ($(el).attr('content') ?? '').trim())
      .get() as string[];
  const inHead = ours('head meta');
  if (inHead.includes(token)) return { ok: true };
  if (inHead.length)
    return fail(
      `the homepage ${res.url} has a ${TOKEN_PREFIX} meta tag, but its content is ${quote(inHead[0])}, not ${token}`,
    );
  if (ours('meta').includes(token))
    return fail(`the homepage ${res.url} has the ${TOKEN_PREFIX} meta tag outside its <head>; move it inside <head>`);
  return fail(
    `the homepage ${res.url} has no ${TOKEN_PREFIX} meta tag; add <meta name="${TOKEN_PREFIX}" content="${token}"> inside its <head>`,
  );
}

export async function checkFile(url: string, token: string, opts: FetchOpts): Promise<CheckResult> {
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch(url, { ...opts, accept: 'any', maxBytes: FILE_MAX_BYTES });
  } catch (e) {
    if (isFetchError(e)) return fetchProblem('the file', url, e);
    throw e;
  }
  if (!sameSite(url, res.url))
    return fail(
      `${url} redirected to ${res.url}, which is not on ${normaliseDomain(url) ?? hostOf(url)}; serve the file there`,
    );
  const body = res.body.trim();
  if (body === token) return { ok: true };
  return fail(
    body
      ? `the file at ${url} contains ${quote(body)}, not the token ${token}`
      : `the file at ${url} is empty; it must contain the token ${token}`,
  );
}

/** Verified: the listing moves to the claimant in one transaction; the previous owner is told by mail. */
async function completeVerification(deps: Deps, claim: ClaimRow, nowIso: string): Promise<boolean> {
  const moved = await deps.db.transaction().execute((trx) => markVerified(trx, deps.engine, claim, nowIso));
  if (!moved) return false;
  if (moved.previousOwnerId !== null && moved.previousOwnerId !== claim.user_id) {
    const prev = await userContact(deps.db, moved.previousOwnerId);
    if (prev) {
      const l = moved.listing;
      await sendMail(
        { db: deps.db, config: deps.config },
        {
          to: prev.email,
          subject: `${l.name} on Launchlist has moved to another account`,
          text: [
            `Hello ${prev.name || ''}`.trim() + ',',
            '',
            `On ${nowIso.slice(0, 16).replace('T', ' ')} UTC another Launchlist account proved control of ${domainOf(l)} (${methodName(claim.method)}) and is now the owner of ${l.name}: ${deps.config.publicUrl}/listings/${l.slug}`,
            'The listing is no longer in your account.',
            `If you still control ${domainOf(l)}, you can claim the listing back with claim_listing (API or MCP). If you did not expect this, check who can change the DNS, website or mail of your domain.`,
          ].join('\n'),
        },
      );
    }
  }
  return true;
}

function methodName(m: ClaimMethod): string {
  return m === 'dns'
    ? 'by a DNS TXT record'
    : m === 'meta'
      ? 'by a meta tag on the homepage'
      : m === 'file'
        ? 'by a file on the website'
        : 'by a link emailed to an address at the domain';
}

// ---------------------------------------------------------------------------------------------
// The email link page (src/web/claims.ts)

export interface EmailClaimLookup {
  claim: ClaimRow;
  /** pending (link usable), verified, failed, expired. */
  state: ClaimStatus;
  listing: ClaimListing;
  claimant: { name: string; email: string } | null;
}

/** The claim behind an emailed link, or undefined for an unknown link. Reads only (a lapsed link shows as expired). */
export async function findEmailClaim(
  db: Kysely<DB>,
  token: string,
  now = new Date(),
): Promise<EmailClaimLookup | undefined> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return undefined;
  const found = await findClaimByToken(db, hashLinkToken(token));
  if (!found) return undefined;
  const lapsed = found.status === 'pending' && found.expires_at !== null && found.expires_at < now.toISOString();
  const listing = await listingById(db, found.listing_id);
  if (!listing) return undefined;
  const claimant = await userContact(db, found.user_id);
  return {
    claim: found,
    state: lapsed ? 'expired' : found.status,
    listing,
    claimant: claimant ? { name: claimant.name, email: claimant.email } : null,
  };
}

/** The confirm button of the email link page: verifies the claim (ownership moves). */
export async function confirmEmailClaim(deps: Deps, token: string, now = new Date()): Promise<EmailClaimLookup> {
  const found = await findEmailClaim(deps.db, token, now);
  if (!found) return notFound('claim link', 'link');
  if (found.state === 'expired' && found.claim.status === 'pending') {
    await expireEmailClaims(deps.db, now.toISOString(), { id: found.claim.id });
    return (await findEmailClaim(deps.db, token, now))!;
  }
  if (found.state !== 'pending') return found;
  await completeVerification(deps, found.claim, now.toISOString());
  const after = (await findEmailClaim(deps.db, token, now))!;
  if (after.state === 'verified' && after.claimant) {
    await sendMail(
      { db: deps.db, config: deps.config },
      {
        to: after.claimant.email,
        subject: `Your claim of ${after.listing.name} on Launchlist is verified`,
        text: [
          'Hello,',
          '',
          `${after.claim.email} confirmed your claim of ${after.listing.name}. The listing is now in your account and shows the Verified badge: ${deps.config.publicUrl}/listings/${after.listing.slug}`,
          VERIFIED_NOTE,
        ].join('\n'),
      },
    );
  }
  return after;
}
