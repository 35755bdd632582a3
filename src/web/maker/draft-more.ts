// A draft's founders, links to profiles, FAQs, founder story and milestones, written on the website:
// /drafts/{id}/more is a form of those parts of update_draft, prefilled from get_draft, for a draft in
// any state. As on a saved listing's edit page (edit.ts), saving sends only what the person changed
// compared with what the form showed (a snapshot carried in the form): founders, FAQs and milestones
// whole (each replaces the list; emptied of rows, the list is cleared), each map of links whole, and
// of the story only the boxes changed (an emptied box is cleared). Once the draft is saved as a
// listing, update_draft updates the listing too; the page says so. Under that form, "Invite a co-founder"
// (its own form, POST /drafts/{id}/invites) sends invite_cofounder: the invited person gets a mail with
// a link to add their own founder profile (web/invites.ts). No operation lists the invites sent, so
// the page says what the last post did (a notice) and not which addresses were invited before.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { getDraft, inviteCofounder, updateDraft } from '../../operations/drafts.ts';
import type { ResultOf } from '../../operations/define.ts';
import type { StoryKey } from '../../domain/vocabulary.ts';
import type { ApiError, ErrorDetail } from '../../operations/errors.ts';
import { validationError } from '../../operations/errors.ts';
import { MAX_INVITES } from '../../services/drafting.ts';
import { csrfField, html, type PageOptions, type SafeHtml } from '../layout.ts';
import { entryOf, extLink, qs } from '../pages/shared.ts';
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
import { draftName, listingNote, NOTICES } from './drafts.ts';
import { refusedHeading, STORY_FIELDS, storyField, storyFieldOf } from './sections.ts';
import {
  faqOf,
  faqRow,
  faqsFrom,
  groupOnForm,
  itemsFrom,
  MAX_FAQS,
  norm,
  rowId,
  rowLabel,
  rowName,
  sameJson,
  shownRows,
  socialRow,
  socialRowsOf,
  socialsFrom,
  snapshotOf,
  socialsRefusedAt,
  sortedEntries,
  type Faq,
  type FaqPart,
  type Placed,
  type Row,
  type RowGroup,
  type SocialPart,
} from './rows.ts';

/** A draft as get_draft answers it. */
type Draft = ResultOf<typeof getDraft>;

type FounderPart = 'name' | 'title' | 'bio';
type MilestonePart = 'date' | 'title' | 'description' | 'url';
interface Founder {
  name: string;
  title?: string;
  bio?: string;
}
interface Milestone {
  date: string;
  title: string;
  description?: string;
  url?: string;
}

/** update_draft's limits: founders (the first is the primary one) and milestones. */
const MAX_FOUNDERS = 6;
const MAX_MILESTONES = 50;

const FOUNDERS: RowGroup<FounderPart> = {
  name: 'founder',
  id: 'dm-founder',
  parts: ['name', 'title', 'bio'],
  title: 'Founder',
  words: { title: 'role' },
};
const COMPANY_SOCIALS: RowGroup<SocialPart> = {
  name: 'company-social',
  id: 'dm-csocial',
  parts: ['platform', 'link'],
  title: 'Company',
};
const FOUNDER_SOCIALS: RowGroup<SocialPart> = {
  name: 'founder-social',
  id: 'dm-fsocial',
  parts: ['platform', 'link'],
  title: 'Founder',
};
const FAQS: RowGroup<FaqPart> = { name: 'faq', id: 'dm-faq', parts: ['question', 'answer'] };
const MILESTONES: RowGroup<MilestonePart> = {
  name: 'milestone',
  id: 'dm-milestone',
  parts: ['date', 'title', 'description', 'url'],
  title: 'Milestone',
  words: { url: 'link' },
};
const SOCIAL_GROUPS = [
  ['company_socials', COMPANY_SOCIALS],
  ['founder_socials', FOUNDER_SOCIALS],
] as const;
type SocialsKey = (typeof SOCIAL_GROUPS)[number][0];

const text = (v: unknown): string => (typeof v === 'string' ? norm(v) : '');
/** The optional parts that have a value (update_draft takes an absent key, not an empty one). */
const present = (o: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v));

const founderOf = (p: Founder): Founder => ({
  name: text(p.name),
  ...present({ title: text(p.title), bio: text(p.bio) }),
});
const milestoneOf = (m: Milestone): Milestone => ({
  date: text(m.date),
  title: text(m.title),
  ...present({ description: text(m.description), url: text(m.url) }),
});

// ------------------------------------------------------------------ what the form changed

/** What the form was filled with (its hidden `base`): saving compares with this, not with the draft as it is when the form comes back. */
interface Base {
  founders: Founder[];
  company_socials: Record<string, string>;
  founder_socials: Record<string, string>;
  faqs: Faq[];
  story: Record<string, string>;
  milestones: Milestone[];
}

const Str = z.string();
const Links = z.record(Str, Str);
const BaseShape = z.object({
  founders: z.array(z.object({ name: Str, title: Str.optional(), bio: Str.optional() })),
  company_socials: Links,
  founder_socials: Links,
  faqs: z.array(z.object({ question: Str, answer: Str })),
  story: z.record(Str, Str),
  milestones: z.array(z.object({ date: Str, title: Str, description: Str.optional(), url: Str.optional() })),
});

/** What the form is filled from: the draft (get_draft) or the snapshot the form carried. */
interface BaseSource {
  founders: Founder[];
  company_socials: Record<string, string>;
  founder_socials: Record<string, string>;
  faqs: Faq[];
  story: Partial<Record<StoryKey, string>>;
  milestones: Milestone[];
}

/** The parts of a draft (get_draft's, or a snapshot's) as the form shows and sends them. */
function baseOf(d: BaseSource): Base {
  return {
    founders: d.founders.map(founderOf),
    company_socials: { ...d.company_socials },
    founder_socials: { ...d.founder_socials },
    faqs: d.faqs.map((q) => ({ question: text(q.question), answer: text(q.answer) })),
    story: Object.fromEntries(STORY_FIELDS.map(([k]) => [k, text(d.story[k])])),
    milestones: d.milestones.map(milestoneOf),
  };
}

/** The form's snapshot, or the draft's parts now when it has none or it is not one. */
function baseFrom(f: Form, d: Draft): Base {
  return baseOf(snapshotOf(f, BaseShape) ?? d);
}

interface Submission {
  body: Partial<Base>;
  errors: ErrorDetail[];
  at: Placed;
}

const founderFrom = (r: Row<FounderPart>): Founder => founderOf(r);
const milestoneFrom = (r: Row<MilestonePart>): Milestone => milestoneOf(r);

function submission(base: Base, f: Form): Submission {
  const out: Submission = { body: {}, errors: [], at: new Map() };
  // Founders, FAQs and milestones: the rows with something typed, in order (the first founder is the primary one).
  if (groupOnForm(f, FOUNDERS)) {
    const founders = itemsFrom(f, FOUNDERS, 'founders', out.at, founderFrom, ['name'], out.errors);
    if (!sameJson(founders, base.founders)) out.body.founders = founders;
  }
  for (const [key, g] of SOCIAL_GROUPS) {
    if (!groupOnForm(f, g)) continue;
    const links = socialsFrom(f, g, key, out.at, out.errors);
    if (!sameJson(sortedEntries(links), sortedEntries(base[key]))) out.body[key] = links;
  }
  if (groupOnForm(f, FAQS)) {
    const faqs = faqsFrom(f, FAQS, 'faqs', out.at, ['question', 'answer'], out.errors);
    if (!sameJson(faqs, base.faqs)) out.body.faqs = faqs;
  }
  const story = Object.fromEntries(
    STORY_FIELDS.filter(([k]) => k in f && norm(one(f, k)) !== (base.story[k] ?? '')).map(([k]) => [
      k,
      norm(one(f, k)),
    ]),
  );
  if (Object.keys(story).length) out.body.story = story;
  if (groupOnForm(f, MILESTONES)) {
    const milestones = itemsFrom(f, MILESTONES, 'milestones', out.at, milestoneFrom, ['date', 'title'], out.errors);
    if (!sameJson(milestones, base.milestones)) out.body.milestones = milestones;
  }
  return out;
}

/** Where an error path of update_draft is on this form: a row as posted, a story box, else the part's first row. */
function moreFieldOf(at: Placed, f: Form | null): (path: string) => { id: string; label: string } | null {
  const first = <P extends string>(g: RowGroup<P>, part: P) => ({ id: rowId(g, 0, part), label: rowLabel(g, 0, part) });
  return (path) => {
    const [part] = path.split('.');
    const placed = at.get(path);
    if (placed) return placed;
    if (part === 'story') return storyFieldOf(path.slice('story.'.length));
    if (part === 'company_socials') return socialsRefusedAt(f, COMPANY_SOCIALS);
    if (part === 'founder_socials') return socialsRefusedAt(f, FOUNDER_SOCIALS);
    if (part === 'founders') return first(FOUNDERS, 'name');
    if (part === 'faqs') return first(FAQS, 'question');
    if (part === 'milestones') return first(MILESTONES, 'date');
    return null;
  };
}

// ------------------------------------------------------------------ the page

/** The result of invite_cofounder, by its `status` and `resent` (a fixed table: ?notice= names an entry, never text). */
const INVITE_NOTICES: Record<string, NonNullable<PageOptions['flash']>> = {
  invited: {
    kind: 'success',
    text: 'Your invite is sent: your co-founder gets an email with a link to add their own founder profile.',
  },
  'invite-queued': {
    kind: 'success',
    text: 'Your invite is written and queued to be emailed: your co-founder gets a link to add their own founder profile.',
  },
  'invite-resent': {
    kind: 'success',
    text: 'A fresh invite is on its way to that address; the link in the earlier mail no longer works. It is still one invite.',
  },
  'invite-failed': {
    kind: 'error',
    text: 'Your invite is saved, but the email could not be sent just now. Send it again later: the same address is not counted twice.',
  },
};
const INVITE_ID = 'invite-email';
const inviteFieldOf = (path: string) => (path === 'email' ? { id: INVITE_ID, label: 'Their email address' } : null);

function inviteForm(d: Draft, web: SignedIn, email: string, p: Problems): SafeHtml {
  const hint = html`We email them a personal link to add their own founder profile (name, role and bio) to this draft${d.listing_id ? ' and your listing' : ''}. At most ${MAX_INVITES} invites a draft; inviting the same address again sends a fresh link and is not counted twice.`;
  return html`<form method="post" action="/drafts/${d.id}/invites" id="invite-form" class="draft-form" novalidate>
${csrfField(web.csrf)}
${part('invite', 'Invite a co-founder', hint, [
  html`<div><label for="${INVITE_ID}">Their email address</label>
<input type="email" id="${INVITE_ID}" name="email" value="${email}" maxlength="254" autocomplete="off" autocapitalize="none" spellcheck="false"${invalidAttrs(p, INVITE_ID)}>${fieldMessage(p, INVITE_ID)}</div>
<div class="actions"><button type="submit">Send the invite</button></div>`,
])}
</form>`;
}

type Kind = 'text' | 'textarea' | 'date' | 'url';

/** One labelled control of a row, with its message. */
function rowControl<P extends string>(
  g: RowGroup<P>,
  i: number,
  part: P,
  label: string,
  value: string,
  p: Problems,
  kind: Kind,
  max?: number,
): SafeHtml {
  const id = rowId(g, i, part);
  const name = rowName(g, i, part);
  const bad = invalidAttrs(p, id);
  const control =
    kind === 'textarea'
      ? html`<textarea id="${id}" name="${name}" rows="3" maxlength="${max ?? ''}"${bad}>${value}</textarea>`
      : kind === 'date'
        ? html`<input type="date" id="${id}" name="${name}" value="${value}"${bad}>`
        : kind === 'url'
          ? html`<input type="text" id="${id}" name="${name}" value="${value}" maxlength="${max ?? ''}" inputmode="url" autocapitalize="none" spellcheck="false"${bad}>`
          : html`<input type="text" id="${id}" name="${name}" value="${value}" maxlength="${max ?? ''}"${bad}>`;
  return html`<div><label for="${id}">${label}</label>${control}${fieldMessage(p, id)}</div>`;
}

function founderRow(i: number, r: Record<FounderPart, string>, p: Problems): SafeHtml {
  return html`<fieldset class="edit-row" id="founder-${i}"><legend>Founder ${i + 1}${i === 0 ? ' (the primary one)' : ''}</legend>
${rowControl(FOUNDERS, i, 'name', 'Name', r.name, p, 'text', 160)}
${rowControl(FOUNDERS, i, 'title', 'Role', r.title, p, 'text', 160)}
${rowControl(FOUNDERS, i, 'bio', 'Bio', r.bio, p, 'textarea', 3000)}</fieldset>`;
}

function milestoneRow(i: number, r: Record<MilestonePart, string>, p: Problems): SafeHtml {
  return html`<fieldset class="edit-row" id="milestone-${i}"><legend>Milestone ${i + 1}</legend>
${rowControl(MILESTONES, i, 'date', 'Date', r.date, p, 'date')}
${rowControl(MILESTONES, i, 'title', 'Title', r.title, p, 'text', 200)}
${rowControl(MILESTONES, i, 'description', 'Description (optional)', r.description, p, 'textarea', 2000)}
${rowControl(MILESTONES, i, 'url', 'Link (optional, https)', r.url, p, 'url', 500)}</fieldset>`;
}

/** A part of the form: its heading, a hint and its rows, as one labelled group. */
function part(id: string, heading: string, hint: SafeHtml | string, rows: SafeHtml[]): SafeHtml {
  return html`<h2 id="${id}-h">${heading}</h2>
<div class="draft-field" id="${id}" role="group" aria-labelledby="${id}-h" aria-describedby="${id}-hint">
<p class="hint" id="${id}-hint">${hint}</p>
${rows}</div>`;
}

interface MoreState {
  form?: Form;
  error?: ApiError | null;
  problems?: Problems;
  notice?: string;
  /** A refused invite: the address typed (kept in its box), and the summary's heading. */
  invite?: string;
  what?: string;
}

function morePage(reply: FastifyReply, web: SignedIn, d: Draft, st: MoreState = {}, status = 200): FastifyReply {
  const name = draftName(d) ?? d.url;
  const f = st.form ?? null;
  const p = st.problems ?? problems(null, () => null);
  const now = baseOf(d);
  const founders = shownRows(
    f,
    FOUNDERS,
    now.founders.map((x) => ({ title: '', bio: '', ...x })),
    MAX_FOUNDERS,
  );
  const socials = (key: SocialsKey, g: RowGroup<SocialPart>) =>
    shownRows(f, g, socialRowsOf(now[key])).map((r, i) => socialRow(g, i, r.platform, r.link, p));
  const faqs = shownRows(f, FAQS, now.faqs.map(faqOf), MAX_FAQS);
  const milestones = shownRows(
    f,
    MILESTONES,
    now.milestones.map((m) => ({ description: '', url: '', ...m })),
    MAX_MILESTONES,
  );
  const storyText = (k: string): string => (f && k in f ? one(f, k) : (now.story[k] ?? ''));
  const title = `Founders, FAQs and more: ${name}`;
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/drafts">Your drafts</a> › <a href="/drafts/${d.id}">${name}</a> › <span aria-current="page">Founders, FAQs and more</span></nav>
<h1>${title}</h1>
<p class="meta">Draft from ${extLink(d.url, d.url)}</p>
${listingNote(d)}
<p>Change what you like and save: only what you changed is sent. Founders, FAQs and milestones are saved as the rows show them, in order; empty a row to remove it, and save to get more empty rows. An emptied story box is cleared.</p>
${p.summary(refusedHeading(st.error, st.what ?? 'Nothing was saved.'))}
<form method="post" action="/drafts/${d.id}/more" id="more-form" class="draft-form" novalidate>
${csrfField(web.csrf)}
<input type="hidden" name="base" value="${f && 'base' in f ? one(f, 'base') : JSON.stringify(now)}">
<div class="actions"><button type="submit">Save changes</button></div>
${part(
  'founders',
  'Founders',
  html`At most ${MAX_FOUNDERS}; the first is the primary founder. Each needs a name; the role and bio are optional. Or <a href="#invite-h">invite a co-founder</a> to add their own profile.`,
  founders.map((r, i) => founderRow(i, r, p)),
)}
${part('founder-socials', "The founders' profiles", 'Links to the founders’ own profiles: one link a platform (http or https). Empty a link to remove it.', socials('founder_socials', FOUNDER_SOCIALS))}
${part('company-socials', "Links to the company's profiles", 'One link a platform (http or https). Empty a link to remove it.', socials('company_socials', COMPANY_SOCIALS))}
${part(
  'faqs',
  'Questions and answers (FAQs)',
  `At most ${MAX_FAQS}, each with a question and an answer. Empty both to remove one.`,
  faqs.map((q, i) => faqRow(FAQS, i, q, p)),
)}
<h2 id="story-h">Founder story</h2>
<p class="hint">How the product came to be, in your own words. Fill in the parts you like.</p>
${STORY_FIELDS.map(([k, label]) => storyField(k, label, storyText(k), p))}
${part(
  'milestones',
  'Milestones',
  `A date and what happened (a launch, a funding round, the 1,000th customer…); at most ${MAX_MILESTONES}.`,
  milestones.map((r, i) => milestoneRow(i, r, p)),
)}
<div class="actions"><button type="submit">Save changes</button> <a href="/drafts/${d.id}">Back to the draft</a></div>
</form>
${inviteForm(d, web, st.invite ?? '', p)}`;
  return sendMakerPage(
    reply,
    web,
    { title, flash: entryOf(NOTICES, st.notice) ?? entryOf(INVITE_NOTICES, st.notice) ?? null },
    body,
    status,
  );
}

// ------------------------------------------------------------------ routes

async function postMore(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, id: string): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/drafts/${id}/more`);
  if (!web) return reply;
  // Another person's draft (or no such draft) is the operation's 404, before anything is tried.
  const d = await act(deps, req, web, getDraft, { params: { id } });
  const f = formOf(req);
  const sent = submission(baseFrom(f, d), f);
  const refused = (error: ApiError) =>
    morePage(
      reply,
      web,
      d,
      { form: f, error, problems: problems(error, moreFieldOf(sent.at, f)) },
      statusOf(reply, error),
    );
  if (sent.errors.length) return refused(validationError(sent.errors));
  if (!Object.keys(sent.body).length) return reply.redirect(`/drafts/${id}/more?notice=unchanged`, 303);
  const r = await attempt(deps, req, web, updateDraft, { params: { id }, body: sent.body });
  if (!r.ok) return refused(r.error);
  return reply.redirect(`/drafts/${id}/more?notice=saved`, 303);
}

/** "Invite a co-founder": invite_cofounder with the address typed; refused (a bad address, the 11th invite), the page again with the reason by the box. */
async function postInvite(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, id: string): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/drafts/${id}/more`);
  if (!web) return reply;
  const d = await act(deps, req, web, getDraft, { params: { id } });
  const email = one(formOf(req), 'email').trim();
  const r = await attempt(deps, req, web, inviteCofounder, {
    params: { id },
    body: { email },
  });
  if (!r.ok)
    return morePage(
      reply,
      web,
      d,
      { error: r.error, problems: problems(r.error, inviteFieldOf), invite: email, what: 'The invite was not sent.' },
      statusOf(reply, r.error),
    );
  const notice =
    r.value.status === 'send_failed'
      ? 'invite-failed'
      : r.value.resent
        ? 'invite-resent'
        : r.value.status === 'sent'
          ? 'invited'
          : 'invite-queued';
  return reply.redirect(`/drafts/${id}/more?notice=${notice}`, 303);
}

export function registerDraftMorePage(app: FastifyInstance, deps: AppDeps): void {
  app.get('/drafts/:id/more', async (req, reply) => {
    const { id } = req.params as { id: string };
    const web = await signedIn(deps, req, reply, `/drafts/${id}/more`);
    if (!web) return reply;
    const d = await act(deps, req, web, getDraft, { params: { id } });
    return morePage(reply, web, d, { notice: qs(req, 'notice') });
  });
  app.post('/drafts/:id/more', async (req, reply) => postMore(deps, req, reply, (req.params as { id: string }).id));
  app.post('/drafts/:id/invites', async (req, reply) =>
    postInvite(deps, req, reply, (req.params as { id: string }).id),
  );
}
