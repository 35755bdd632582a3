// A draft reaching its listing (issue #19 item 8: a draft never silently overwrites a listing).
//
//   first submit_draft          creates the listing from the draft (everything), unless the website is
//                               already listed: another person's public listing → 409 with the listing
//                               and how to claim it (services/same-site.ts); the maker's own listing of
//                               the site → the draft is a resubmission onto it (below).
//   update_draft, once submitted the fields and sections sent reach the listing at once (spec 4.4), as an
//                               edit by its owner: a version row with before/after, unreviewed, in the
//                               site team's edit review (services/listing-edits.ts editFromDraft).
//   submit_draft again          proposes only what changed in the draft since it last reached the
//                               listing. Every change made with update_draft after the first submit has
//                               already reached it (above), so a second submit writes nothing: the
//                               maker's later edits on the listing (update_my_listing, the edit page)
//                               are kept, and the answer names them (kept_fields).
//   a new draft of a site the   proposes the fields the maker set by hand in the new draft (edited,
//   maker already has listed    manual, deleted, override) and fills the fields the listing has empty;
//                               the AI's other values do not replace what the listing shows.
//
// To put a draft's value back over a later edit on the listing, the maker sends that field in
// update_draft (even unchanged): that is the explicit replacement, and it is a reviewed edit too.
import type { Transaction } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { Config } from '../config.ts';
import type { ListingStatus, ProfileField } from '../domain/vocabulary.ts';
import { PROFILE_FIELDS } from '../domain/vocabulary.ts';
import {
  ALL_SECTIONS,
  saveListingFromDraft,
  updateDraft,
  type CategoryRef,
  type Draft,
  type FieldValue,
  type SyncSections,
} from '../store/repos/drafts.ts';
import { findOwnListing } from '../store/repos/my-listings.ts';
import { PRIMARY_CATEGORY, editFromDraft, listingValues, sameValue } from './listing-edits.ts';
import { alreadyListed, siteListings } from './same-site.ts';

/** The draft states that are the maker's own decision about a field (not the AI's value). */
const MAKERS_STATES = new Set(['edited', 'manual', 'deleted', 'override']);

/** A draft field's name in the version rows (the categories reach the listing as its primary category). */
const listingFieldOf = (f: ProfileField): string => (f === 'categories' ? PRIMARY_CATEGORY : f);
const draftFieldOf = (f: string): ProfileField | undefined =>
  f === PRIMARY_CATEGORY
    ? 'categories'
    : (PROFILE_FIELDS as readonly string[]).includes(f)
      ? (f as ProfileField)
      : undefined;

/** What the draft would write into the listing, per profile field, as the listing stores it (undefined: it writes nothing). */
function wouldWrite(d: Draft, f: ProfileField, primary: CategoryRef | undefined): unknown {
  const v: FieldValue = d.fields[f].value;
  const text = typeof v === 'string' && v.trim() !== '' ? v : null;
  switch (f) {
    case 'name':
      return text ?? undefined; // a listing always keeps a name
    case 'categories':
      return primary?.slug; // … and a primary category
    case 'founded_year':
      return text && /^\d{4}$/.test(text) ? Number(text) : null;
    case 'features':
    case 'usps':
    case 'keywords':
    case 'tags':
      return Array.isArray(v) ? v : [];
    default:
      return text;
  }
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export interface SubmitOutcome {
  listing_id: number;
  slug: string;
  status: ListingStatus;
  created: boolean;
  version_id: number | null;
  changed_fields: ProfileField[];
  kept_fields: ProfileField[];
}

/** The profile fields where the listing shows something else than the draft would write. */
async function keptFields(trx: Transaction<DB>, d: Draft, listingId: number, primary: CategoryRef | undefined) {
  const cur = (await listingValues(trx, listingId)) ?? {};
  return PROFILE_FIELDS.filter((f) => {
    const w = wouldWrite(d, f, primary);
    return w !== undefined && !sameValue(cur[listingFieldOf(f)], w);
  });
}

const asDraftFields = (changed: string[]): ProfileField[] =>
  PROFILE_FIELDS.filter((f) => changed.some((c) => draftFieldOf(c) === f));

/**
 * submit_draft's write (inside its transaction; the draft is checked, `matched` are its categories in our
 * tree, at least one). See the head of this file for what each case writes.
 */
export async function submitToListing(
  trx: Transaction<DB>,
  deps: { engine: Engine; config: Pick<Config, 'publicUrl'> },
  d: Draft,
  now: string,
  matched: CategoryRef[],
): Promise<SubmitOutcome> {
  const primary = matched[0];
  const same = d.listing_id !== null ? await findOwnListing(trx, d.listing_id, d.user_id) : undefined;
  if (same) {
    return {
      listing_id: same.id,
      slug: same.slug,
      status: same.status,
      created: false,
      version_id: null,
      changed_fields: [],
      kept_fields: await keptFields(trx, d, same.id, primary),
    };
  }
  // Not submitted yet (or its listing moved to another account by a claim): is the website listed?
  const { own, other } = await siteListings(trx, d.url, d.user_id);
  if (own) {
    const cur = (await listingValues(trx, own.id)) ?? {};
    const fields = PROFILE_FIELDS.filter((f) => {
      const w = wouldWrite(d, f, primary);
      if (w === undefined) return false;
      return MAKERS_STATES.has(d.fields[f].state) || (isEmpty(cur[listingFieldOf(f)]) && !isEmpty(w));
    });
    const attached: Draft = { ...d, listing_id: own.id };
    const edit = await editFromDraft(
      trx,
      deps.engine,
      own.id,
      d.user_id,
      now,
      async () => {
        if (fields.length) await saveListingFromDraft(trx, attached, now, { fields }, matched);
      },
      d.id,
    );
    await updateDraft(trx, d.id, { listing_id: own.id, updated_at: now });
    return {
      listing_id: own.id,
      slug: own.slug,
      status: own.status,
      created: false,
      version_id: edit?.versionId ?? null,
      changed_fields: asDraftFields(edit?.changed ?? []),
      kept_fields: await keptFields(trx, attached, own.id, primary),
    };
  }
  if (other) throw alreadyListed(deps.config, d.url, other);
  const saved = await saveListingFromDraft(trx, { ...d, listing_id: null }, now, ALL_SECTIONS, matched);
  await updateDraft(trx, d.id, { listing_id: saved.listing_id, updated_at: now });
  return { ...saved, version_id: null, changed_fields: [], kept_fields: [] };
}

/**
 * update_draft (and an accepted co-founder invite) on a submitted draft: what changed reaches the listing
 * at once, as an edit by its owner (version row, edit review). Nothing when the listing is no longer the
 * maker's (a claim moved it): the draft never writes another person's listing, nor makes a second one.
 */
export async function syncDraftEdit(
  trx: Transaction<DB>,
  engine: Engine,
  d: Draft,
  now: string,
  sections: SyncSections,
): Promise<void> {
  if (d.listing_id === null) return;
  await editFromDraft(
    trx,
    engine,
    d.listing_id,
    d.user_id,
    now,
    async () => {
      await saveListingFromDraft(trx, d, now, sections);
    },
    d.id,
  );
}
