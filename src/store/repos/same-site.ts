// The listings of one website (domain/urls.ts siteKeyOf: registrable domain + path), in any status:
// the duplicate check of submit_listing and submit_draft (services/same-site.ts decides what blocks).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB } from '../types.ts';
import { sameSite, siteKeyOf, type SiteKey } from '../../domain/urls.ts';
import type { ListingStatus } from '../../domain/vocabulary.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface SameSiteListing {
  id: number;
  slug: string;
  name: string;
  url: string;
  status: ListingStatus;
  owner_id: number | null;
}

/**
 * Every listing whose website is `site`, oldest first. `listings.domain` holds the host (no `www.`), so
 * the candidates are the registrable domain itself and its subdomains; their own address then decides
 * (a subdomain that is a site of its own under a private suffix, or another path, is not the same site).
 * The subdomain match (`LIKE '%.domain'`) cannot seek in the domain index, so the candidates' ids are read
 * first from that index alone (SQLite scans the covering index, ~7 ms at 100,000 listings, not the wide
 * rows, ~5 times that), then their rows by id. It runs once per submitted product.
 */
export async function listingsOfSite(db: Db, site: SiteKey): Promise<SameSiteListing[]> {
  const ids = (
    await db
      .selectFrom('listings')
      .select('id')
      .where((eb) => eb.or([eb('domain', '=', site.domain), eb('domain', 'like', `%.${site.domain}`)]))
      .execute()
  )
    .map((r) => r.id)
    .sort((a, b) => a - b); // sorted here: an ORDER BY id would make SQLite walk the table in id order instead
  const rows: Array<Omit<SameSiteListing, 'status'> & { status: string }> = [];
  // In chunks: a host that is itself a public suffix (github.io) has every site under it as a candidate.
  for (let i = 0; i < ids.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('listings')
        .select(['id', 'slug', 'name', 'url', 'status', 'owner_id'])
        .where('id', 'in', ids.slice(i, i + 500))
        .orderBy('id')
        .execute()),
    );
  return rows.filter((r) => {
    const key = siteKeyOf(r.url);
    return key !== null && sameSite(key, site);
  }) as SameSiteListing[];
}

/**
 * Serialises the publications of one website until the transaction ends, so that of two people
 * publishing their saved listings of the same site at the same moment, the second sees the first's and
 * is refused. PostgreSQL: a transaction-scoped advisory lock on the site key (two transactions at READ
 * COMMITTED would otherwise each see the other's listing still unpublished). SQLite runs one write
 * transaction at a time: nothing to do.
 */
export async function lockSite(trx: Db, engine: Engine, url: string): Promise<void> {
  const site = siteKeyOf(url);
  if (engine !== 'postgres' || !site) return;
  const key = `site:${site.domain}:${site.port}${site.path}`;
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
