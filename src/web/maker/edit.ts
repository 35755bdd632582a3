// Editing a saved listing on the website: /my/listings/{id}/edit is a form of everything
// update_my_listing edits — the profile `fields`, the links to the company's profiles (`socials`) and
// the FAQs — prefilled from get_my_listing. Saving sends only what the person changed: each field
// compared with what the form was filled with (a snapshot carried in the form, so a change made
// meanwhile elsewhere is not written back over; an emptied field is null: cleared), `socials` and `faqs`
// whole and only when changed (each replaces all). A form as it was sends nothing ("Nothing
// changed"). `apply_to` (copying fields to the company's listings on other sites) is left to the API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { getMyListing, updateMyListing } from '../../operations/my-listings.ts';
import type { ResultOf } from '../../operations/define.ts';
import type { ApiError, ErrorDetail } from '../../operations/errors.ts';
import { validationError } from '../../operations/errors.ts';
import { csrfField, html, raw, type SafeHtml } from '../layout.ts';
import { FIELD_LABELS } from '../pages/listing.ts';
import { entryOf, qs } from '../pages/shared.ts';
import {
  act,
  attempt,
  fieldMessage,
  formOf,
  invalidAttrs,
  one,
  problems,
  sendMakerPage,
  signedIn,
  signedInPost,
  statusOf,
  type Form,
  type Problems,
  type SignedIn,
} from './act.ts';
import {
  faqOf,
  faqRow,
  faqsFrom,
  groupOnForm,
  MAX_FAQS,
  norm,
  rowId,
  sameJson,
  shownRows,
  snapshotOf,
  socialRow,
  socialRowsOf,
  socialsFrom,
  socialsRefusedAt,
  sortedEntries,
  type Faq,
  type FaqPart,
  type Placed,
  type RowGroup,
  type SocialPart,
} from './rows.ts';

/** A listing as get_my_listing answers it. */
type OwnListing = ResultOf<typeof getMyListing>;

// ------------------------------------------------------------------ the fields

/** The keys of update_my_listing's `fields`. */
const FIELD_KEYS = [
  'tagline',
  'short_description',
  'description',
  'features',
  'usps',
  'keywords',
  'pricing_model',
  'pricing_summary',
  'country',
  'city',
  'founded_year',
  'contact_email',
  'demo_video_url',
  'headline',
  'summary',
  'seo_title',
  'seo_description',
] as const;
type FieldKey = (typeof FIELD_KEYS)[number];
const isFieldKey = (k: string): k is FieldKey => (FIELD_KEYS as readonly string[]).includes(k);

type Kind = 'text' | 'textarea' | 'email' | 'url' | 'year' | 'list';
interface FieldSpec {
  kind: Kind;
  max?: number;
  hint?: string;
  label?: string;
}

/** Each field's control, its limit (the operation's) and hint. */
const SPEC: Record<FieldKey, FieldSpec> = {
  tagline: { kind: 'text', max: 200, hint: 'one line' },
  short_description: { kind: 'textarea', max: 300, hint: 'a sentence or two' },
  description: { kind: 'textarea', max: 20000 },
  features: { kind: 'list', hint: 'one a line, at most 20' },
  usps: { kind: 'list', hint: 'one a line, at most 20' },
  keywords: { kind: 'list', hint: 'one a line, at most 20' },
  pricing_model: { kind: 'text', max: 40, hint: 'e.g. Free, Freemium, Subscription' },
  pricing_summary: { kind: 'text', max: 300 },
  country: { kind: 'text', max: 2, hint: 'two-letter code, e.g. DE' },
  city: { kind: 'text', max: 120 },
  founded_year: { kind: 'year', hint: 'four digits, e.g. 2021' },
  contact_email: { kind: 'email', max: 254, hint: 'a public address' },
  demo_video_url: { kind: 'url', max: 500, hint: 'an https link to YouTube, Vimeo, Loom…' },
  headline: { kind: 'text', max: 200, label: 'Headline' },
  summary: { kind: 'textarea', max: 20000, label: 'Summary' },
  seo_title: { kind: 'text', max: 200, label: 'Title for search engines' },
  seo_description: { kind: 'textarea', max: 320, label: 'Description for search engines' },
};
const labelOf = (k: FieldKey): string => SPEC[k].label ?? FIELD_LABELS[k] ?? k;

const GROUPS: ReadonlyArray<{ id: string; heading: string; fields: FieldKey[] }> = [
  {
    id: 'about',
    heading: 'About the product',
    fields: ['tagline', 'short_description', 'description', 'features', 'usps', 'keywords'],
  },
  { id: 'pricing', heading: 'Pricing', fields: ['pricing_model', 'pricing_summary'] },
  {
    id: 'company',
    heading: 'The company',
    fields: ['country', 'city', 'founded_year', 'contact_email', 'demo_video_url'],
  },
  {
    id: 'seo',
    heading: 'Headline, summary and search engines',
    fields: ['headline', 'summary', 'seo_title', 'seo_description'],
  },
];

const controlId = (k: string) => `e-${k}`;
/** The rows of links (`social-platform-<i>`, `social-link-<i>`) and of FAQs (`faq-question-<i>`, `faq-answer-<i>`). */
const SOCIALS: RowGroup<SocialPart> = { name: 'social', id: 'e-social', parts: ['platform', 'link'] };
const FAQS: RowGroup<FaqPart> = { name: 'faq', id: 'e-faq', parts: ['question', 'answer'] };

type Value = string | number | string[] | null;

/** A field's value in get_my_listing (some sit in nested objects there). */
function currentOf(l: OwnListing, k: FieldKey): Value {
  switch (k) {
    case 'pricing_model':
      return l.pricing.model;
    case 'pricing_summary':
      return l.pricing.summary;
    case 'demo_video_url':
      return l.links.demo_video;
    case 'seo_title':
      return l.seo.title;
    case 'seo_description':
      return l.seo.description;
    default:
      return l[k];
  }
}

/** The text a control shows: one item a line for lists. */
function textOf(v: Value): string {
  if (v === null || v === undefined) return '';
  return Array.isArray(v) ? v.join('\n') : String(v);
}

/** A list as the operation keeps it: items trimmed, blanks and repeats (any case) dropped. */
function listOf(text: string): string[] {
  const seen = new Set<string>();
  return norm(text)
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => {
      if (!s || seen.has(s.toLowerCase())) return false;
      seen.add(s.toLowerCase());
      return true;
    });
}

// ------------------------------------------------------------------ what the form changed

interface Submission {
  /** The body for update_my_listing: only what changed. */
  body: { fields?: Partial<Record<FieldKey, Value>>; socials?: Record<string, string>; faqs?: Faq[] };
  /** The page's own refusals (a value the form cannot send as the operation takes it), as the operation words paths. */
  errors: ErrorDetail[];
  /** Where the operation's paths of socials and FAQs are on this form (the rows as posted). */
  at: Placed;
}

/**
 * What the form was filled with when it was shown, carried in it as a hidden field: saving compares the
 * typed values with these, not with the listing as it is when the form comes back, so a field changed
 * meanwhile elsewhere (the API, another tab) is only overwritten when the person changed it here too.
 */
interface Base {
  fields: Partial<Record<FieldKey, Value>>;
  socials: Record<string, string>;
  faqs: Faq[];
}

function baseOf(l: OwnListing): Base {
  return {
    fields: Object.fromEntries(FIELD_KEYS.map((k) => [k, currentOf(l, k)])),
    socials: { ...l.socials },
    faqs: l.faqs.map(faqOf),
  };
}

const Str = z.string();
const BaseShape = z.object({
  fields: z.partialRecord(z.enum(FIELD_KEYS), z.union([z.null(), Str, z.number(), z.array(Str)])),
  socials: z.record(Str, Str),
  faqs: z.array(z.object({ question: Str, answer: Str })),
});

/** The form's snapshot (its hidden `base`), or the listing's values now when it has none or it is not one. */
function baseFrom(f: Form, l: OwnListing): Base {
  const b = snapshotOf(f, BaseShape);
  return b ? { fields: b.fields, socials: b.socials, faqs: b.faqs.map(faqOf) } : baseOf(l);
}

function submission(base: Base, f: Form): Submission {
  const out: Submission = { body: {}, errors: [], at: new Map() };
  const fields: Partial<Record<FieldKey, Value>> = {};
  for (const k of FIELD_KEYS) {
    if (!(k in f)) continue; // a control the form lacks leaves its field as it is
    const cur = k in base.fields ? (base.fields[k] ?? null) : null;
    const typed = one(f, k);
    if (SPEC[k].kind === 'list') {
      const items = listOf(typed);
      if (!sameJson(items, Array.isArray(cur) ? cur : [])) fields[k] = items.length ? items : null;
      continue;
    }
    const text = norm(typed);
    if (text === norm(textOf(cur))) continue;
    if (!text) fields[k] = null;
    else if (SPEC[k].kind === 'year') {
      if (/^[0-9]{1,9}$/.test(text)) fields[k] = Number(text);
      else out.errors.push({ path: `body.fields.${k}`, message: 'must be a year written in digits, e.g. 2021' });
    } else fields[k] = text;
  }
  if (Object.keys(fields).length) out.body.fields = fields;

  // Socials: a row is a platform and its link; an empty link drops the platform.
  if (groupOnForm(f, SOCIALS)) {
    const socials = socialsFrom(f, SOCIALS, 'socials', out.at, out.errors);
    if (!sameJson(sortedEntries(socials), sortedEntries(base.socials))) out.body.socials = socials;
  }

  // FAQs: rows with a question or an answer, in order; a row emptied of both is removed.
  if (groupOnForm(f, FAQS)) {
    const faqs = faqsFrom(f, FAQS, 'faqs', out.at);
    if (!sameJson(faqs, base.faqs)) out.body.faqs = faqs;
  }
  return out;
}

/** Where an error path of update_my_listing is on the form: fields.<key>[.<i>], socials.<platform>, faqs.<i>.<part>. */
function editFieldOf(at: Submission['at'], f: Form | null): (path: string) => { id: string; label: string } | null {
  return (path) => {
    const placed = at.get(path);
    if (placed) return placed;
    const field = /^fields\.([a-z_]+)/.exec(path);
    if (field && isFieldKey(field[1])) return { id: controlId(field[1]), label: labelOf(field[1]) };
    // An unknown platform (kept from an older listing) is refused as the whole object: its row, else the first.
    if (path === 'socials' || path.startsWith('socials.')) return socialsRefusedAt(f, SOCIALS);
    if (path === 'faqs' || path.startsWith('faqs.')) return { id: rowId(FAQS, 0, 'question'), label: 'Question 1' };
    return null;
  };
}

// ------------------------------------------------------------------ the page

const NOTICES: Record<string, { kind: 'success' | 'info'; text: string }> = {
  saved: { kind: 'success', text: 'Your changes are published.' },
  unchanged: { kind: 'info', text: 'Nothing changed: the form was as saved.' },
};

function control(k: FieldKey, text: string, p: Problems): SafeHtml {
  const id = controlId(k);
  const s = SPEC[k];
  const bad = invalidAttrs(p, id);
  const max = s.max ? raw(` maxlength="${s.max}"`) : raw('');
  switch (s.kind) {
    case 'list':
      return html`<textarea id="${id}" name="${k}" rows="${Math.min(12, Math.max(3, text.split('\n').length + 1))}"${bad}>${text}</textarea>`;
    case 'textarea':
      return html`<textarea id="${id}" name="${k}" rows="${(s.max ?? 0) > 1000 ? 8 : 3}"${max}${bad}>${text}</textarea>`;
    case 'email':
      return html`<input type="email" id="${id}" name="${k}" value="${text}"${max} autocomplete="off"${bad}>`;
    case 'url':
      return html`<input type="text" id="${id}" name="${k}" value="${text}"${max} inputmode="url" autocapitalize="none" spellcheck="false"${bad}>`;
    case 'year':
      return html`<input type="text" id="${id}" name="${k}" value="${text}" maxlength="4" inputmode="numeric"${bad}>`;
    default:
      return html`<input type="text" id="${id}" name="${k}" value="${text}"${max}${bad}>`;
  }
}

function fieldBlock(k: FieldKey, text: string, p: Problems): SafeHtml {
  const hint = SPEC[k].hint;
  return html`<div class="draft-field" id="f-${k}"><label for="${controlId(k)}">${labelOf(k)}${hint ? html` <span class="hint">(${hint})</span>` : ''}</label>
${control(k, text, p)}${fieldMessage(p, controlId(k))}</div>`;
}

interface EditState {
  form?: Form;
  error?: ApiError | null;
  problems?: Problems;
  notice?: string;
}

function editPage(reply: FastifyReply, web: SignedIn, l: OwnListing, st: EditState = {}, status = 200): FastifyReply {
  const id = l.listing_id;
  const f = st.form ?? null;
  const p = st.problems ?? problems(null, () => null);
  const textFor = (k: FieldKey): string => (f && k in f ? one(f, k) : textOf(currentOf(l, k)));
  const socials = shownRows(f, SOCIALS, socialRowsOf(l.socials));
  const faqs = shownRows(f, FAQS, l.faqs.map(faqOf), MAX_FAQS);
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/my/listings">Your listings</a> › <a href="/my/listings/${id}">${l.name}</a> › <span aria-current="page">Edit</span></nav>
<h1>Edit ${l.name}</h1>
<p>Change what you like and save: only what you changed is sent. Edits are published at once${l.status === 'live' ? html` on <a href="/listings/${l.slug}">your listing page</a>` : ''} and kept in the version history; the site team sees a copy of each change. Empty a field to clear it.</p>
${p.summary(st.error?.status === 400 ? 'Nothing was saved. Please correct these:' : 'This could not be done:')}
<form method="post" action="/my/listings/${id}/edit" id="edit-form" class="draft-form" novalidate>
${csrfField(web.csrf)}
<input type="hidden" name="base" value="${f && 'base' in f ? one(f, 'base') : JSON.stringify(baseOf(l))}">
<div class="actions"><button type="submit">Save changes</button></div>
${GROUPS.map((g) => html`<h2 id="${g.id}-h">${g.heading}</h2>${g.fields.map((k) => fieldBlock(k, textFor(k), p))}`)}
<h2 id="socials-h">Links to your profiles</h2>
<div class="draft-field" id="socials" role="group" aria-labelledby="socials-h" aria-describedby="socials-hint">
<p class="hint" id="socials-hint">One link a platform (http or https). Empty a link to remove it; save to get more empty rows.</p>
${socials.map((r, i) => socialRow(SOCIALS, i, r.platform, r.link, p))}</div>
<h2 id="faqs-h">Questions and answers (FAQs)</h2>
<div class="draft-field" id="faqs" role="group" aria-labelledby="faqs-h" aria-describedby="faqs-hint">
<p class="hint" id="faqs-hint">At most ${MAX_FAQS}, each with a question and an answer. Empty both to remove one; save to get more empty rows.</p>
${faqs.map((q, i) => faqRow(FAQS, i, q, p))}</div>
<div class="actions"><button type="submit">Save changes</button> <a href="/my/listings/${id}">Back to the listing</a></div>
</form>
<p class="meta" id="apply-to-note">Copying the headline, summary and search-engine fields to this company's listings on other sites is done through the API: <a href="/docs#/My%20listings/update_my_listing">update_my_listing</a> with <code>apply_to</code>.</p>`;
  return sendMakerPage(
    reply,
    web,
    { title: `Edit ${l.name}`, flash: entryOf(NOTICES, st.notice) ?? null },
    body,
    status,
  );
}

// ------------------------------------------------------------------ routes

async function postEdit(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, id: string): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/my/listings/${id}/edit`);
  if (!web) return reply;
  // Another person's listing (or no such listing) is the operation's 404, before anything is tried.
  const l = await act(deps, req, web, getMyListing, { params: { listing_id: id } });
  const f = formOf(req);
  const sent = submission(baseFrom(f, l), f);
  const refused = (error: ApiError) =>
    editPage(
      reply,
      web,
      l,
      { form: f, error, problems: problems(error, editFieldOf(sent.at, f)) },
      statusOf(reply, error),
    );
  if (sent.errors.length) return refused(validationError(sent.errors));
  if (!Object.keys(sent.body).length) return reply.redirect(`/my/listings/${id}/edit?notice=unchanged`, 303);
  const r = await attempt(deps, req, web, updateMyListing, {
    params: { listing_id: id },
    body: sent.body,
  });
  if (!r.ok) return refused(r.error);
  return reply.redirect(`/my/listings/${id}/edit?notice=${r.value.changed_fields.length ? 'saved' : 'unchanged'}`, 303);
}

export function registerListingEditPage(app: FastifyInstance, deps: AppDeps): void {
  app.get('/my/listings/:id/edit', async (req, reply) => {
    const { id } = req.params as { id: string };
    const web = await signedIn(deps, req, reply, `/my/listings/${id}/edit`);
    if (!web) return reply;
    const l = await act(deps, req, web, getMyListing, { params: { listing_id: id } });
    return editPage(reply, web, l, { notice: qs(req, 'notice') });
  });
  app.post('/my/listings/:id/edit', async (req, reply) =>
    postEdit(deps, req, reply, (req.params as { id: string }).id),
  );
}
