// A maker's drafts: /drafts (list_my_drafts) and /drafts/{id} (get_draft). While the site is read
// and the draft written (crawling, drafting) the page says so and reloads itself every 3 s; once
// ready (or failed) it is a form of the 18 profile fields, each with its state, the quotes from the
// site it was drafted from and a lock. Saving sends update_draft only the fields the person
// changed; "Restore the drafted value" sends `restore`; "Save as my listing" saves, then submit_draft.
// Under it, once the draft is ready, "Redraft from the website" (its own form, POST /drafts/{id}/regenerate)
// sends update_draft `regenerate` with the fields ticked (at most 5; a locked field is not offered).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { MAX_REGENERATE, getDraft, listMyDrafts, submitDraft, updateDraft } from '../../operations/drafts.ts';
import { listCategories } from '../../operations/categories.ts';
import type { ResultOf } from '../../operations/define.ts';
import { PROFILE_FIELDS, LIST_FIELDS, type FieldState, type ProfileField } from '../../domain/vocabulary.ts';
import type { ApiError } from '../../operations/errors.ts';
import { validationError } from '../../operations/errors.ts';
import { csrfField, html, raw, type SafeHtml } from '../layout.ts';
import { entryOf, extLink, fmtDate, pager, qs, read, withQuery } from '../pages/shared.ts';
import { FIELD_LABELS, STAGES } from '../pages/listing.ts';
import {
  act,
  all,
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
  when,
  type Form,
  type Problems,
  type SignedIn,
} from './act.ts';

/** A draft as get_draft and update_draft answer it. */
type Draft = ResultOf<typeof getDraft>;
type DraftFieldView = Draft['fields'][ProfileField];
type FieldValue = DraftFieldView['value'];

const isList = (f: ProfileField): boolean => (LIST_FIELDS as readonly string[]).includes(f);
const isDraftField = (f: string): f is ProfileField => (PROFILE_FIELDS as readonly string[]).includes(f);
const BUSY = new Set(['crawling', 'drafting']);

/** A field's state in words; the state's own name is kept in data-state. */
const STATE_WORDS: Record<FieldState, string> = {
  ai: 'Drafted from your site',
  not_found: 'Not found on your site',
  edited: 'Edited by you',
  manual: 'Typed by you',
  override: 'Locked by you',
  deleted: 'Removed by you',
};
/** States the person made: the drafted value can be restored. */
const RESTORABLE = new Set<FieldState>(['edited', 'manual', 'override', 'deleted']);

const HINTS: Partial<Record<ProfileField, string>> = {
  tagline: 'one line',
  short_description: 'a sentence or two',
  stage: 'how far along the business is',
  country: 'two-letter code, e.g. DE',
  founded_year: 'four digits, e.g. 2021',
  contact_email: 'a public address',
  demo_video_url: 'an https link to YouTube, Vimeo, Loom…',
  logo_url: 'an http(s) link to an image',
  pricing_model: 'e.g. Free, Freemium, Subscription',
};

export const NOTICES: Record<string, { kind: 'success' | 'info'; text: string }> = {
  saved: { kind: 'success', text: 'Your changes are saved.' },
  restored: { kind: 'success', text: 'The drafted value is back.' },
  regenerated: {
    kind: 'success',
    text: 'The fields you chose are redrafted from your website: each shows its new value and the quotes it came from.',
  },
  unchanged: { kind: 'info', text: 'Nothing changed: the form was as saved.' },
};

const controlId = (f: string) => `d-${f}`;

/** Where an error path of update_draft / submit_draft belongs: fields.<name>[.<i>] → that field's control. */
function draftFieldOf(path: string): { id: string; label: string } | null {
  const m = /^fields\.([a-z_]+)/.exec(path);
  return m && isDraftField(m[1]) ? { id: controlId(m[1]), label: FIELD_LABELS[m[1]] ?? m[1] } : null;
}

// ------------------------------------------------------------------ the form's values

/** The text a field's control shows: one item a line for lists. */
function textOf(v: FieldValue): string {
  return Array.isArray(v) ? v.join('\n') : (v ?? '');
}

/** The categories the form sent: the primary first, then the others (each once). */
function categoriesOf(f: Form): string[] {
  const primary = one(f, 'category_primary').trim();
  const more = all(f, 'categories_more')
    .map((s) => s.trim())
    .filter((s) => s && s !== primary);
  return [...(primary ? [primary] : []), ...new Set(more)];
}

/** A field's value as the form sent it (null: empty), in the shape update_draft takes. */
function sentValue(f: Form, field: ProfileField): FieldValue {
  if (field === 'categories') {
    const c = categoriesOf(f);
    return c.length ? c : null;
  }
  const text = one(f, field).replace(/\r\n?/g, '\n');
  if (isList(field)) {
    const items = text
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    return items.length ? items : null;
  }
  return text.trim() || null;
}

const same = (a: FieldValue, b: FieldValue): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(Array.isArray(b) && !b.length ? null : (b ?? null));

/** True when the form has the field's control (a field it lacks is left as it is). */
const onForm = (f: Form, field: ProfileField): boolean =>
  field === 'categories' ? 'category_primary' in f : field in f;

/** The fields the person changed (an emptied field → null), compared with the draft as it is now. */
function changedFields(draft: Draft, f: Form): Partial<Record<ProfileField, FieldValue>> {
  const out: Partial<Record<ProfileField, FieldValue>> = {};
  for (const field of PROFILE_FIELDS) {
    if (!onForm(f, field)) continue;
    const v = sentValue(f, field);
    if (!same(v, draft.fields[field].value)) out[field] = v;
  }
  return out;
}

// ------------------------------------------------------------------ rendering

function pageLabel(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search === '/' ? u.host : u.host + u.pathname + u.search;
  } catch {
    return url;
  }
}

function evidence(list: DraftFieldView['evidence']): SafeHtml {
  if (!list.length) return html``;
  return html`<div class="evidence"><p class="meta">Quoted from your site:</p><ul>${list.map((e) => html`<li><q>${e.quote}</q> — ${extLink(e.url, pageLabel(e.url))}</li>`)}</ul></div>`;
}

interface Category {
  name: string;
  label: string;
}

/**
 * What the form reads of list_categories: the names of the categories and their subcategories. (That
 * operation's result is typed by its own response schema; until it has one, this reads it.)
 */
const CategoryNames = z.object({
  categories: z.array(
    z.object({ name: z.string(), subcategories: z.array(z.object({ name: z.string() })).optional() }),
  ),
});

async function categoryOptions(deps: AppDeps, req: FastifyRequest): Promise<Category[]> {
  const r = CategoryNames.parse(await read(deps, req, listCategories));
  return r.categories.flatMap((c) => [
    { name: c.name, label: c.name },
    ...(c.subcategories ?? []).map((s) => ({ name: s.name, label: `${c.name} › ${s.name}` })),
  ]);
}

function option(value: string, label: string, selected: boolean): SafeHtml {
  return html`<option value="${value}"${selected ? raw(' selected') : ''}>${label}</option>`;
}

/** The control of one field, showing `value` (the draft's, or what the person sent). */
function control(field: ProfileField, value: FieldValue, cats: Category[], p: Problems): SafeHtml {
  const id = controlId(field);
  const bad = invalidAttrs(p, id);
  if (field === 'categories') {
    const chosen = Array.isArray(value) ? value : [];
    const known = new Set(cats.map((c) => c.name));
    const options = [...cats, ...chosen.filter((c) => !known.has(c)).map((c) => ({ name: c, label: c }))]; // a value the list lacks is kept
    return html`<label for="${id}" class="sub">Primary category</label>
<select id="${id}" name="category_primary"${bad}>${option('', '— none —', !chosen.length)}${options.map((c) => option(c.name, c.label, chosen[0] === c.name))}</select>
<label for="${id}-more" class="sub">More categories <span class="hint">(paid listings show up to 3 more; Ctrl or ⌘ to choose several)</span></label>
<select id="${id}-more" name="categories_more" multiple size="5">${options.map((c) => option(c.name, c.label, chosen.slice(1).includes(c.name)))}</select>`;
  }
  if (field === 'stage') {
    const cur = typeof value === 'string' ? value : '';
    const list: Array<[string, string]> = [['', '— not stated —'], ...Object.entries(STAGES)];
    if (cur && !list.some(([v]) => v === cur)) list.push([cur, cur]);
    return html`<select id="${id}" name="stage"${bad}>${list.map(([v, label]) => option(v, label, v === cur))}</select>`;
  }
  const text = textOf(value);
  if (isList(field)) {
    return html`<textarea id="${id}" name="${field}" rows="${Math.min(12, Math.max(3, text.split('\n').length + 1))}"${bad}>${text}</textarea>`;
  }
  if (field === 'description')
    return html`<textarea id="${id}" name="${field}" rows="8" maxlength="20000"${bad}>${text}</textarea>`;
  const type =
    field === 'contact_email' ? 'email' : field === 'demo_video_url' || field === 'logo_url' ? 'url' : 'text';
  return html`<input type="${type}" id="${id}" name="${field}" value="${text}" maxlength="500"${field === 'founded_year' ? raw(' inputmode="numeric"') : ''}${bad}>`;
}

function fieldBlock(draft: Draft, field: ProfileField, value: FieldValue, cats: Category[], p: Problems): SafeHtml {
  const s = draft.fields[field];
  const id = controlId(field);
  const label = FIELD_LABELS[field] ?? field;
  const locked = s.state === 'override';
  const hint = isList(field) ? 'one a line' : HINTS[field];
  return html`<div class="draft-field" id="f-${field}">
<div class="field-head">${field === 'categories' ? html`<span class="label">${label}</span>` : html`<label for="${id}">${label}${hint ? html` <span class="hint">(${hint})</span>` : ''}</label>`}
<span class="state" data-state="${s.state}">${STATE_WORDS[s.state] ?? s.state}</span></div>
${control(field, value, cats, p)}
${fieldMessage(p, id)}
${evidence(s.evidence)}
<div class="field-actions">
<label class="check"><input type="checkbox" name="lock" value="${field}"${locked ? raw(' checked disabled') : ''}> ${locked ? 'Locked against AI redrafts' : 'Lock against AI redrafts'}</label>
${RESTORABLE.has(s.state) ? html`<button type="submit" name="restore" value="${field}" class="secondary">Restore the drafted value<span class="sr-only"> of ${label}</span></button>${s.state === 'manual' ? html` <span class="hint">(the site did not state it: this empties the field)</span>` : ''}` : ''}
</div></div>`;
}

/** `?refresh=off` stops the page reloading itself (WCAG 2.2.1: a time limit the person can turn off). */
function busyBody(d: Draft, reloading: boolean): SafeHtml {
  const p = d.progress;
  const reading = d.status === 'crawling';
  return html`<div class="flash info" role="status" id="draft-progress">
<p><strong>${reading ? 'We are reading your website' : 'We are writing your draft'}</strong> (status: ${d.status}).</p>
${reading && p.pages_planned ? html`<p><progress max="${p.pages_planned}" value="${p.pages_read}"></progress> ${p.pages_read} of ${p.pages_planned} pages read</p>` : ''}
${
  reloading
    ? html`<p>This takes about a minute. This page reloads itself every 3 seconds; the form appears when the draft is ready. <a href="/drafts/${d.id}?refresh=off" id="refresh-toggle">Stop reloading</a></p>`
    : html`<p>This takes about a minute; the form appears when the draft is ready. <a href="/drafts/${d.id}?refresh=off" id="refresh-toggle">Look again</a> · <a href="/drafts/${d.id}">reload every 3 seconds</a></p>`
}</div>`;
}

function failedNote(d: Draft): SafeHtml {
  if (d.status !== 'failed' || !d.error) return html``;
  return html`<div class="flash error" role="alert" id="draft-failed"><p><strong>We could not read your website</strong> (<code>${d.error.reason}</code>): ${d.error.message}</p>
<p>You can fill in the profile below by hand: type at least the name and a category, then save it as your listing.</p></div>`;
}

/** The draft's product name, null until known. */
export function draftName(d: { fields: { name: { value: unknown } } }): string | null {
  const v = d.fields.name.value;
  return typeof v === 'string' && v ? v : null;
}

/** A submitted draft's listing: what is saved on the draft's pages updates it too (update_draft). */
export function listingNote(d: { listing_id: number | null }): SafeHtml {
  return d.listing_id
    ? html`<p class="note" id="draft-listing">Saved as <a href="/my/listings/${d.listing_id}">your listing</a>: the changes you save here update it too, as edits the site team reviews. What you changed on the listing since stays unless you change that field here again.</p>`
    : html``;
}

/** Where the regenerate form's refusal is shown: its group of checkboxes. */
const REGEN_ID = 'regen-fields';
const regenFieldOf = (path: string) =>
  path.startsWith('regenerate') ? { id: REGEN_ID, label: 'Fields to redraft' } : draftFieldOf(path);

/** "Redraft from the website": a checkbox a field (a locked one is shown, not offered), at most MAX_REGENERATE ticked. */
function regenerateForm(d: Draft, web: SignedIn, chosen: readonly string[], p: Problems): SafeHtml {
  const errorId = p.at(REGEN_ID).length ? ` ${REGEN_ID}-error` : '';
  return html`<form method="post" action="/drafts/${d.id}/regenerate" id="regenerate-form" class="draft-form" novalidate>
${csrfField(web.csrf)}
<fieldset class="draft-field" id="${REGEN_ID}" aria-describedby="regen-hint${errorId}">
<legend>Redraft from your website</legend>
<p class="hint" id="regen-hint">Tick up to ${MAX_REGENERATE} fields and we draft them again from the pages of your site already read (this takes a few seconds). What you typed in a ticked field is replaced by the new draft; a locked field is never redrafted (restore it first). Save the form above first: this sends only the fields ticked here.</p>
${fieldMessage(p, REGEN_ID)}
<ul class="checks">${PROFILE_FIELDS.map((f) => {
    const locked = d.fields[f].state === 'override';
    return html`<li><label class="check"><input type="checkbox" name="regenerate" value="${f}"${locked ? raw(' disabled') : chosen.includes(f) ? raw(' checked') : ''}> ${FIELD_LABELS[f] ?? f}${locked ? html` <span class="hint">(locked)</span>` : ''}</label></li>`;
  })}</ul>
<div class="actions"><button type="submit" class="secondary">Redraft from the website</button></div>
</fieldset>
</form>`;
}

interface DraftPageState {
  form?: Form;
  problems?: Problems;
  notice?: string;
  error?: ApiError | null;
  /** The fields ticked on a refused regenerate form (kept ticked), and what its refusal says was not done. */
  regen?: string[];
  what?: string;
}

async function draftPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  web: SignedIn,
  d: Draft,
  st: DraftPageState = {},
  status = 200,
): Promise<FastifyReply> {
  const name = draftName(d);
  const title = name ? `Draft: ${name}` : 'Your draft';
  const p = st.problems ?? problems(null, () => null);
  const notice = entryOf(NOTICES, st.notice);
  const head = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/drafts">Your drafts</a> › <span aria-current="page">${name ?? d.url}</span></nav>
<h1>${title}</h1>
<p class="meta">From ${extLink(d.url, d.url)} · started ${when(d.created_at)} · ${d.completeness}% complete</p>`;
  if (BUSY.has(d.status)) {
    const reloading = qs(req, 'refresh') !== 'off';
    return sendMakerPage(reply, web, { title, refresh: reloading }, html`${head}${busyBody(d, reloading)}`, status);
  }
  const cats = await categoryOptions(deps, req);
  const shownValue = (f: ProfileField): FieldValue =>
    st.form && onForm(st.form, f) ? sentValue(st.form, f) : d.fields[f].value;
  const body = html`${head}
${failedNote(d)}
${listingNote(d)}
<p>Every value below was drafted from your own site, with the words it was taken from; what the site does not state is left blank (<em>Not found on your site</em>). Change what you like: your values are marked as yours, and a locked field is never redrafted.</p>
${d.missing.length ? html`<p class="meta">Still missing: ${d.missing.map((m, i) => html`${i ? ', ' : ''}${FIELD_LABELS[m] ?? m}`)}.</p>` : ''}
${p.summary(st.error?.status === 400 ? `${st.what ?? 'Nothing was saved.'} Please correct these:` : 'This could not be done:')}
<form method="post" action="/drafts/${d.id}" id="draft-form" class="draft-form" novalidate>
${csrfField(web.csrf)}
<div class="actions"><button type="submit" name="action" value="save">Save changes</button></div>
${PROFILE_FIELDS.map((f) => fieldBlock(d, f, shownValue(f), cats, p))}
<div class="actions">
<button type="submit" name="action" value="save">Save changes</button>
<button type="submit" name="action" value="submit" class="secondary">Save as my listing</button>
<span class="hint">Saving as a listing publishes nothing yet: you choose the free plan or a paid launch next.</span>
</div>
</form>
${d.status === 'ready' ? regenerateForm(d, web, st.regen ?? [], p) : ''}
<p id="draft-more"><a href="/drafts/${d.id}/more">Founders, FAQs, links to your profiles, story and milestones</a>: edit them on their own page.</p>`;
  return sendMakerPage(reply, web, { title, flash: notice ?? null }, body, status);
}

// ------------------------------------------------------------------ routes

async function listPage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const web = await signedIn(deps, req, reply, req.url);
  if (!web) return reply;
  const page = qs(req, 'page') || undefined;
  const r = await act(deps, req, web, listMyDrafts, { query: { page } });
  const rows = r.items.map(
    (d) => html`<tr>
<td><a href="/drafts/${d.id}">${d.name ?? d.url}</a>${d.name ? html`<br><span class="meta">${d.url}</span>` : ''}</td>
<td><span class="state" data-state="${d.status}">${d.status}</span>${d.status === 'failed' && d.error ? html`<br><span class="meta">${d.error.reason}</span>` : ''}</td>
<td>${d.completeness}%</td><td>${fmtDate(d.created_at)}</td>
<td>${d.listing_id ? html`<a href="/my/listings/${d.listing_id}">Your listing</a>` : html`<span class="muted">not saved yet</span>`}</td></tr>`,
  );
  return sendMakerPage(
    reply,
    web,
    { title: 'Your drafts' },
    html`<h1>Your drafts</h1>
<p><a class="button" href="/submit">Submit a product</a></p>
${
  r.items.length
    ? html`<table><caption class="sr-only">Your drafts, newest first</caption>
<thead><tr><th scope="col">Product</th><th scope="col">Status</th><th scope="col">Complete</th><th scope="col">Started</th><th scope="col">Listing</th></tr></thead>
<tbody>${rows}</tbody></table>
${pager(r, (n) => withQuery('/drafts', { page: n }))}`
    : html`<p>You have no drafts yet. <a href="/submit">Submit a product</a> to draft one from its website.</p>`
}
<p><a href="/my/listings">Your listings</a> · <a href="/claims">Your claims</a></p>`,
  );
}

async function postDraft(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, id: string): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/drafts/${id}`);
  if (!web) return reply;
  const draft = await act(deps, req, web, getDraft, { params: { id } });
  const f = formOf(req);
  const restore = one(f, 'restore');
  const fields = changedFields(draft, f);
  if (isDraftField(restore)) delete fields[restore]; // restoring a field takes back what was typed in it
  // A name that is no field is sent as it is: the operation refuses it.
  const lock = all(f, 'lock').filter(
    (k) => k !== restore && !(isDraftField(k) && draft.fields[k].state === 'override'),
  );
  const body: Record<string, unknown> = {};
  if (Object.keys(fields).length) body.fields = fields;
  if (lock.length) body.lock_fields = lock;
  if (restore) body.restore = [restore];

  let current = draft;
  if (Object.keys(body).length) {
    const r = await attempt(deps, req, web, updateDraft, { params: { id }, body });
    if (!r.ok)
      return draftPage(
        deps,
        req,
        reply,
        web,
        draft,
        { form: f, error: r.error, problems: problems(r.error, draftFieldOf) },
        statusOf(reply, r.error),
      );
    current = r.value;
  }
  if (!restore && one(f, 'action') === 'submit') {
    const s = await attempt(deps, req, web, submitDraft, { params: { id } });
    if (!s.ok)
      return draftPage(
        deps,
        req,
        reply,
        web,
        current,
        { error: s.error, problems: problems(s.error, draftFieldOf) },
        statusOf(reply, s.error),
      );
    if (s.value.created) return reply.redirect(`/my/listings/${s.value.listing_id}?notice=saved`, 303);
    // The draft went to a listing that exists, as an edit: say what it changed and what the listing kept.
    const q = new URLSearchParams({ notice: 'resubmitted' });
    if (s.value.changed_fields.length) q.set('changed', s.value.changed_fields.join(','));
    if (s.value.kept_fields.length) q.set('kept', s.value.kept_fields.join(','));
    return reply.redirect(`/my/listings/${s.value.listing_id}?${q}`, 303);
  }
  return reply.redirect(
    `/drafts/${id}?notice=${restore ? 'restored' : Object.keys(body).length ? 'saved' : 'unchanged'}`,
    303,
  );
}

/** "Redraft from the website": update_draft `regenerate` with the fields ticked. */
async function postRegenerate(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  id: string,
): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/drafts/${id}`);
  if (!web) return reply;
  const draft = await act(deps, req, web, getDraft, { params: { id } });
  const chosen = [...new Set(all(formOf(req), 'regenerate'))];
  const refused = (error: ApiError) =>
    draftPage(
      deps,
      req,
      reply,
      web,
      draft,
      { error, problems: problems(error, regenFieldOf), regen: chosen, what: 'Nothing was redrafted.' },
      statusOf(reply, error),
    );
  // The form's own refusals, worded for it (the operation refuses more than MAX_REGENERATE too, as the API does).
  if (!chosen.length)
    return refused(
      validationError([{ path: 'body.regenerate', message: `tick the fields to redraft (up to ${MAX_REGENERATE})` }]),
    );
  if (chosen.length > MAX_REGENERATE)
    return refused(
      validationError([
        {
          path: 'body.regenerate',
          message: `at most ${MAX_REGENERATE} fields can be redrafted at once; you ticked ${chosen.length}`,
        },
      ]),
    );
  const r = await attempt(deps, req, web, updateDraft, { params: { id }, body: { regenerate: chosen } });
  if (!r.ok) return refused(r.error);
  return reply.redirect(`/drafts/${id}?notice=regenerated`, 303);
}

export function registerDraftPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/drafts', async (req, reply) => listPage(deps, req, reply));
  app.get('/drafts/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const web = await signedIn(deps, req, reply, `/drafts/${id}`);
    if (!web) return reply;
    const d = await act(deps, req, web, getDraft, { params: { id } });
    return draftPage(deps, req, reply, web, d, { notice: qs(req, 'notice') });
  });
  app.post('/drafts/:id', async (req, reply) => postDraft(deps, req, reply, (req.params as { id: string }).id));
  app.post('/drafts/:id/regenerate', async (req, reply) =>
    postRegenerate(deps, req, reply, (req.params as { id: string }).id),
  );
}
