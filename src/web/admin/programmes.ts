// The site team's trophy pages (issue #21):
//   GET  /admin/programmes             every programme, a form for a new one, and the award signing keys
//   POST /admin/programmes             creates a programme (every field validated; nothing saved on an error)
//   GET  /admin/programmes/:id         edit a programme; its entries with the jury's places
//   POST /admin/programmes/:id         saves the programme
//   POST /admin/programmes/:id/places  saves the jury's places (jury programmes)
//   POST /admin/award-keys/rotate      retires the award signing key and makes a new one (old keys stay published)
// Admins only (guard.ts); every form is CSRF-checked.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { checkCsrf, type WebContext } from '../context.ts';
import { requireAdmin } from './guard.ts';
import { csrfField, html, raw, sendPage, type SafeHtml } from '../layout.ts';
import { isDateString } from '../../domain/weeks.ts';
import { isSlug } from '../../domain/vocabulary.ts';
import {
  WINNER_RULES,
  WINNER_RULE_WORDS,
  ruleWords,
  type ProgrammeRules,
  type WinnerRule,
} from '../../domain/programmes.ts';
import {
  categoryExists,
  entriesOf,
  insertProgramme,
  listProgrammeRows,
  programmeById,
  setEntryPlace,
  updateProgramme,
  type ProgrammeInput,
} from '../../store/repos/trophies.ts';
import { summariesByIds } from '../../store/repos/summary.ts';
import { publicKeys, rotateSigningKey } from '../../store/repos/award-keys.ts';
import { recordIdOf } from '../../operations/schemas.ts';

const PATH = '/admin/programmes';

type Values = Record<string, string>;
type Errors = Record<string, string>;
const FIELDS: Array<[name: string, label: string, hint: string]> = [
  ['name', 'Name', ''],
  ['slug', 'Slug', 'lower-case letters, digits and hyphens; its page is /programmes/{slug}'],
  ['description', 'Description', ''],
  ['starts_on', 'Entries open on', 'YYYY-MM-DD (UTC)'],
  ['ends_on', 'Ends on', 'YYYY-MM-DD (UTC); votes during the period count for community_votes'],
  ['launched_from', 'Launched on or after', 'optional, YYYY-MM-DD'],
  ['launched_to', 'Launched on or before', 'optional, YYYY-MM-DD'],
  ['categories', 'Categories', 'optional: category slugs separated by commas (a parent admits its subcategories)'],
  ['winners_count', 'Places awarded', '1 to 10'],
];

function valuesOf(p: ProgrammeInput): Values {
  return {
    name: p.name,
    slug: p.slug,
    description: p.description,
    starts_on: p.starts_on,
    ends_on: p.ends_on,
    launched_from: p.rules.launched_from ?? '',
    launched_to: p.rules.launched_to ?? '',
    categories: (p.rules.categories ?? []).join(', '),
    verified_only: p.rules.verified_only ? 'on' : '',
    winners: p.winners,
    winners_count: String(p.winners_count),
  };
}

/** The form's values as a programme, or the errors of each field. */
async function parseForm(
  deps: AppDeps,
  body: Record<string, unknown>,
): Promise<{ values: Values; errors: Errors; input?: ProgrammeInput }> {
  const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).trim() : '');
  const values: Values = {};
  for (const [name] of FIELDS) values[name] = str(name);
  values.verified_only = body.verified_only === 'on' ? 'on' : '';
  values.winners = str('winners');
  const errors: Errors = {};
  if (!values.name || values.name.length > 120) errors.name = 'Name: 1 to 120 characters.';
  if (!isSlug(values.slug) || values.slug.length > 80) errors.slug = 'Slug: lower-case letters, digits and hyphens.';
  if (values.description.length > 2000) errors.description = 'Description: at most 2000 characters.';
  for (const k of ['starts_on', 'ends_on'])
    if (!isDateString(values[k])) errors[k] = `${FIELDS.find((f) => f[0] === k)?.[1]}: a date YYYY-MM-DD.`;
  if (!errors.starts_on && !errors.ends_on && values.ends_on < values.starts_on)
    errors.ends_on = 'Ends on: not before the day entries open.';
  for (const k of ['launched_from', 'launched_to'])
    if (values[k] && !isDateString(values[k]))
      errors[k] = `${FIELDS.find((f) => f[0] === k)?.[1]}: a date YYYY-MM-DD, or empty.`;
  const cats = values.categories
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const c of cats)
    if (!isSlug(c) || !(await categoryExists(deps.store.db, c))) {
      errors.categories = `Categories: there is no category "${c}".`;
      break;
    }
  if (!(WINNER_RULES as readonly string[]).includes(values.winners))
    errors.winners = 'How winners are chosen: pick one.';
  const count = /^\d{1,2}$/.test(values.winners_count) ? Number(values.winners_count) : NaN;
  if (!(count >= 1 && count <= 10)) errors.winners_count = 'Places awarded: a whole number from 1 to 10.';
  if (Object.keys(errors).length) return { values, errors };
  const rules: ProgrammeRules = {};
  if (values.launched_from) rules.launched_from = values.launched_from;
  if (values.launched_to) rules.launched_to = values.launched_to;
  if (cats.length) rules.categories = cats;
  if (values.verified_only) rules.verified_only = true;
  return {
    values,
    errors,
    input: {
      slug: values.slug,
      name: values.name,
      description: values.description,
      starts_on: values.starts_on,
      ends_on: values.ends_on,
      rules,
      winners: values.winners as WinnerRule,
      winners_count: count,
    },
  };
}

function programmeForm(ctx: WebContext, action: string, values: Values, errors: Errors, submit: string): SafeHtml {
  const err = (n: string) =>
    errors[n] ? html`<span class="field-error" id="${n}-error" role="alert">${errors[n]}</span>` : '';
  const inv = (n: string) => (errors[n] ? raw(` aria-invalid="true" aria-describedby="${n}-error"`) : raw(''));
  return html`<form method="post" action="${action}" class="stack">${csrfField(ctx.csrf)}
${FIELDS.map(([n, label, hint]) =>
  n === 'description'
    ? html`<div><label for="p-${n}">${label}</label><textarea id="p-${n}" name="${n}" rows="3"${inv(n)}>${values[n] ?? ''}</textarea>${err(n)}</div>`
    : html`<div><label for="p-${n}">${label}${hint ? html` <span class="hint">(${hint})</span>` : ''}</label><input id="p-${n}" name="${n}" value="${values[n] ?? ''}"${inv(n)}>${err(n)}</div>`,
)}
<div><label class="check"><input type="checkbox" name="verified_only" id="p-verified_only"${values.verified_only ? raw(' checked') : ''}> Only listings whose ownership is verified</label></div>
<fieldset${inv('winners')}><legend>How winners are chosen</legend>
${WINNER_RULES.map((w) => html`<div class="choice"><label class="check"><input type="radio" name="winners" value="${w}" id="p-winners-${w}"${values.winners === w ? raw(' checked') : ''}> ${w === 'jury' ? 'A jury (places set here)' : 'Community votes'}</label><span class="hint">${WINNER_RULE_WORDS[w]}</span></div>`)}
${err('winners')}</fieldset>
<div><button type="submit">${submit}</button></div></form>`;
}

/** The page's message: a refused form says so; else what was just done, if anything. */
function flashOf(form: { errors: Errors } | undefined, done: string | undefined) {
  if (form) return { kind: 'error' as const, text: 'The programme was not saved: see the fields below.' };
  return done ? { kind: 'success' as const, text: done } : null;
}

async function listPage(
  deps: AppDeps,
  reply: FastifyReply,
  ctx: WebContext,
  form?: { values: Values; errors: Errors },
  flash?: string,
) {
  const [programmes, keys] = await Promise.all([listProgrammeRows(deps.store.db), publicKeys(deps.store.db)]);
  const values = form?.values ?? { winners: 'community_votes', winners_count: '3' };
  return sendPage(
    reply,
    {
      title: 'Programmes and award keys',
      user: ctx.user,
      csrf: ctx.csrf,
      noindex: true,
      flash: flashOf(form, flash),
    },
    html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/admin">Admin</a> › <span aria-current="page">Programmes</span></nav>
<h1>Programmes</h1>
${
  programmes.length
    ? html`<table><thead><tr><th scope="col">Programme</th><th scope="col">Period</th><th scope="col">Winners</th><th scope="col">Entries</th></tr></thead><tbody>${programmes.map((p) => html`<tr><td><a href="${PATH}/${p.id}">${p.name}</a> <span class="meta">/programmes/${p.slug}</span></td><td>${p.starts_on} – ${p.ends_on}</td><td>${p.winners_count} by ${p.winners === 'jury' ? 'jury' : 'community votes'}</td><td>${p.entries}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">No programmes yet.</p>`
}
<h2 id="new">New programme</h2>
${programmeForm(ctx, PATH, values, form?.errors ?? {}, 'Create the programme')}
<h2 id="keys">Award signing keys</h2>
<p>Launch of the Week awards are signed with the newest key; every key stays published at <a href="/.well-known/award-keys.json">/.well-known/award-keys.json</a> so earlier awards keep verifying.</p>
${
  keys.length
    ? html`<ul>${keys.map((k) => html`<li><code class="wrap">${k.jwk.kid}</code> — made ${k.created_at.slice(0, 10)}${k.retired_at ? `, retired ${k.retired_at.slice(0, 10)}` : ' (signing)'}</li>`)}</ul>`
    : html`<p class="muted">No key yet: one is made when the first award is signed.</p>`
}
<form method="post" action="/admin/award-keys/rotate">${csrfField(ctx.csrf)}<button type="submit">Rotate the signing key</button></form>`,
    form ? 400 : 200,
  );
}

async function editPage(
  deps: AppDeps,
  reply: FastifyReply,
  ctx: WebContext,
  id: number,
  form?: { values: Values; errors: Errors },
  flash?: string,
) {
  const p = await programmeById(deps.store.db, id);
  if (!p) return reply.callNotFound();
  const entries = await entriesOf(deps.store.db, { programmeIds: [id] });
  const summaries = await summariesByIds(
    deps.store.db,
    entries.map((e) => e.listing_id),
  );
  return sendPage(
    reply,
    {
      title: `Programme: ${p.name}`,
      user: ctx.user,
      csrf: ctx.csrf,
      noindex: true,
      flash: flashOf(form, flash),
    },
    html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/admin">Admin</a> › <a href="${PATH}">Programmes</a> › <span aria-current="page">${p.name}</span></nav>
<h1>${p.name}</h1>
<p><a href="/programmes/${p.slug}">Its public page</a></p>
<ul>${ruleWords(p).map((r) => html`<li>${r.text}</li>`)}</ul>
${programmeForm(ctx, `${PATH}/${id}`, form?.values ?? valuesOf(p), form?.errors ?? {}, 'Save the programme')}
<h2>Entries</h2>
${
  entries.length
    ? html`<form method="post" action="${PATH}/${id}/places">${csrfField(ctx.csrf)}
<table><thead><tr><th scope="col">Listing</th><th scope="col">Entered</th><th scope="col">Votes in the period</th>${p.winners === 'jury' ? html`<th scope="col">Place (jury)</th>` : ''}</tr></thead><tbody>
${entries.map((e) => html`<tr><td>${summaries.get(e.listing_id)?.name ?? e.listing_id}</td><td>${e.created_at.slice(0, 10)}</td><td>${e.period_votes}</td>${p.winners === 'jury' ? html`<td><label class="sr-only" for="place-${e.id}">Place</label><input id="place-${e.id}" name="place_${e.id}" size="3" value="${e.place ?? ''}"></td>` : ''}</tr>`)}
</tbody></table>${p.winners === 'jury' ? html`<p><button type="submit">Save the places</button></p>` : ''}</form>`
    : html`<p class="muted">No entries yet.</p>`
}`,
    form ? 400 : 200,
  );
}

export function registerAdminProgrammePages(app: FastifyInstance, deps: AppDeps): void {
  app.get(PATH, async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, PATH);
    if (!ctx) return reply;
    const q = req.query as Record<string, unknown>;
    return listPage(
      deps,
      reply,
      ctx,
      undefined,
      q.saved === '1'
        ? 'Programme created.'
        : q.rotated === '1'
          ? 'New signing key made; the old one stays published.'
          : undefined,
    );
  });
  app.post(PATH, async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, PATH);
    if (!ctx || !(await checkCsrf(deps, req, reply))) return reply;
    const form = await parseForm(deps, (req.body ?? {}) as Record<string, unknown>);
    if (!form.input) return listPage(deps, reply, ctx, form);
    const id = await insertProgramme(deps.store.db, form.input, new Date());
    if (id === undefined)
      return listPage(deps, reply, ctx, { values: form.values, errors: { slug: 'Slug: another programme has it.' } });
    return reply.redirect(`${PATH}?saved=1`, 303);
  });
  app.get(`${PATH}/:id`, async (req, reply) => {
    const id = recordIdOf((req.params as { id: string }).id);
    const ctx = await requireAdmin(deps, req, reply, req.url);
    if (!ctx) return reply;
    if (id === undefined) return reply.callNotFound();
    return editPage(
      deps,
      reply,
      ctx,
      id,
      undefined,
      (req.query as Record<string, unknown>).saved === '1' ? 'Saved.' : undefined,
    );
  });
  app.post(`${PATH}/:id`, async (req, reply) => {
    const id = recordIdOf((req.params as { id: string }).id);
    const ctx = await requireAdmin(deps, req, reply, req.url);
    if (!ctx || !(await checkCsrf(deps, req, reply))) return reply;
    if (id === undefined) return reply.callNotFound();
    const form = await parseForm(deps, (req.body ?? {}) as Record<string, unknown>);
    if (!form.input) return editPage(deps, reply, ctx, id, form);
    if (!(await updateProgramme(deps.store.db, id, form.input, new Date())))
      return editPage(deps, reply, ctx, id, {
        values: form.values,
        errors: { slug: 'Slug: another programme has it.' },
      });
    return reply.redirect(`${PATH}/${id}?saved=1`, 303);
  });
  app.post(`${PATH}/:id/places`, async (req, reply) => {
    const id = recordIdOf((req.params as { id: string }).id);
    const ctx = await requireAdmin(deps, req, reply, req.url);
    if (!ctx || !(await checkCsrf(deps, req, reply))) return reply;
    if (id === undefined) return reply.callNotFound();
    const body = (req.body ?? {}) as Record<string, unknown>;
    const entries = await entriesOf(deps.store.db, { programmeIds: [id] });
    for (const e of entries) {
      const v = body[`place_${e.id}`];
      if (typeof v !== 'string') continue;
      const place = /^\d{1,2}$/.test(v.trim()) && Number(v) >= 1 ? Number(v) : null;
      await setEntryPlace(deps.store.db, e.id, place);
    }
    return reply.redirect(`${PATH}/${id}?saved=1`, 303);
  });
  app.post('/admin/award-keys/rotate', async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, PATH);
    if (!ctx || !(await checkCsrf(deps, req, reply))) return reply;
    await rotateSigningKey(deps.store.db);
    return reply.redirect(`${PATH}?rotated=1#keys`, 303);
  });
}
