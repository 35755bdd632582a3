// The paid sections of a saved listing, written on the website: the founder story
// (/my/listings/{id}/story, set_founder_story: PUT, the form replaces the whole story) and the
// milestones (/my/listings/{id}/milestones: the current ones from get_my_listing, each with a Delete
// button → delete_milestone, and "Add a milestone" → add_milestone). Both say whether the public
// sees the section (get_my_listing's `unlocked`): the owner can write it before it is unlocked.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import {
  addMilestone,
  deleteMilestone as deleteMilestoneOp,
  getMyListing,
  setFounderStory,
} from '../../operations/my-listings.ts';
import type { ResultOf } from '../../operations/define.ts';
import type { ApiError } from '../../operations/errors.ts';
import { csrfField, html, type SafeHtml } from '../layout.ts';
import { STORY_SECTIONS, type StoryKey } from '../../domain/vocabulary.ts';
import { entryOf, extLink, fmtDate, qs } from '../pages/shared.ts';
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
  when,
  type Form,
  type Problems,
  type SignedIn,
} from './act.ts';

/** A listing as get_my_listing answers it. */
type OwnListing = ResultOf<typeof getMyListing>;
type Milestone = OwnListing['milestones'][number];

const norm = (s: string): string => s.replace(/\r\n?/g, '\n').trim();

/** Whether the public sees a paid section of the listing, in words (the owner always sees it). */
function shownNote(l: OwnListing, section: 'story' | 'milestones', what: string): SafeHtml {
  const unlocked = l.unlocked.includes(section);
  const id = `${section}-visibility`;
  if (unlocked && l.status === 'live')
    return html`<p class="note" id="${id}" data-shown="yes"><strong>Shown publicly</strong> on <a href="/listings/${l.slug}">your listing page</a>.</p>`;
  if (unlocked)
    return html`<p class="note" id="${id}" data-shown="yes"><strong>Shown publicly once the listing is live</strong>: the section is unlocked.</p>`;
  const buy =
    l.status !== 'live' && l.plan !== 'paid'
      ? html` <a href="/my/listings/${l.listing_id}#launch">Buy a launch</a> to unlock it.`
      : '';
  return html`<p class="note" id="${id}" data-shown="no"><strong>Not shown publicly yet.</strong> ${what} appear on listings with a paid launch: you can write them now, and they are shown once the section is unlocked.${buy}</p>`;
}

function crumbs(l: OwnListing, here: string): SafeHtml {
  return html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/my/listings">Your listings</a> › <a href="/my/listings/${l.listing_id}">${l.name}</a> › <span aria-current="page">${here}</span></nav>`;
}

export const refusedHeading = (error: ApiError | null | undefined, what: string): string =>
  error?.status === 400 ? `${what} Please correct these:` : 'This could not be done:';

// ------------------------------------------------------------------ founder story

export const STORY_FIELDS: ReadonlyArray<readonly [StoryKey, string]> = [['title', 'Title'], ...STORY_SECTIONS];
const storyId = (k: string) => `s-${k}`;
export const storyFieldOf = (path: string) => {
  const f = STORY_FIELDS.find(([k]) => k === path);
  return f ? { id: storyId(f[0]), label: f[1] } : null;
};

const STORY_NOTICES: Record<string, { kind: 'success' | 'info'; text: string }> = {
  saved: { kind: 'success', text: 'Your story is saved.' },
  unchanged: { kind: 'info', text: 'Nothing changed: the story was as saved.' },
};

interface PageState {
  form?: Form;
  error?: ApiError | null;
  notice?: string;
}

/** The story's text under each key ('' where it has none). */
const storyText = (l: OwnListing, k: StoryKey): string => l.story?.[k] ?? '';

function storyPage(reply: FastifyReply, web: SignedIn, l: OwnListing, st: PageState = {}, status = 200): FastifyReply {
  const p = problems(st.error, storyFieldOf);
  const shownValue = (k: StoryKey): string => (st.form && k in st.form ? one(st.form, k) : storyText(l, k));
  const body = html`${crumbs(l, 'Founder story')}
<h1>Founder story: ${l.name}</h1>
${shownNote(l, 'story', 'Founder stories')}
<p>Tell how ${l.name} came to be, in your own words. Fill in the parts you like: saving replaces the whole story, and an emptied box is removed.${l.story?.updated_at ? html` Last saved ${when(l.story.updated_at)}.` : ''}</p>
${p.summary(refusedHeading(st.error, 'The story was not saved.'))}
<form method="post" action="/my/listings/${l.listing_id}/story" id="story-form" class="draft-form" novalidate>
${csrfField(web.csrf)}
${STORY_FIELDS.map(([k, label]) => storyField(k, label, shownValue(k), p))}
<div class="actions"><button type="submit">Save the story</button> <a href="/my/listings/${l.listing_id}">Back to the listing</a></div>
</form>`;
  return sendMakerPage(
    reply,
    web,
    { title: `Founder story: ${l.name}`, flash: entryOf(STORY_NOTICES, st.notice) ?? null },
    body,
    status,
  );
}

export function storyField(k: string, label: string, value: string, p: Problems): SafeHtml {
  const id = storyId(k);
  const control =
    k === 'title'
      ? html`<input type="text" id="${id}" name="${k}" value="${value}" maxlength="200"${invalidAttrs(p, id)}>`
      : html`<textarea id="${id}" name="${k}" rows="${k === 'story' ? 8 : 4}" maxlength="8000"${invalidAttrs(p, id)}>${value}</textarea>`;
  return html`<div class="draft-field" id="f-${k}"><label for="${id}">${label}${k === 'title' ? html` <span class="hint">(the story's heading)</span>` : ''}</label>${control}${fieldMessage(p, id)}</div>`;
}

async function postStory(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, id: string): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/my/listings/${id}/story`);
  if (!web) return reply;
  const l = await act(deps, req, web, getMyListing, { params: { listing_id: id } });
  const f = formOf(req);
  // PUT replaces the story: every key is sent, a key the form lacks keeps its current text.
  const body = Object.fromEntries(STORY_FIELDS.map(([k]) => [k, k in f ? norm(one(f, k)) : storyText(l, k)]));
  if (STORY_FIELDS.every(([k]) => body[k] === norm(storyText(l, k))))
    return reply.redirect(`/my/listings/${id}/story?notice=unchanged`, 303);
  const r = await attempt(deps, req, web, setFounderStory, { params: { listing_id: id }, body });
  if (!r.ok) return storyPage(reply, web, l, { form: f, error: r.error }, statusOf(reply, r.error));
  return reply.redirect(`/my/listings/${id}/story?notice=saved`, 303);
}

// ------------------------------------------------------------------ milestones

const MILESTONE_FIELDS: Record<string, { id: string; label: string }> = {
  date: { id: 'm-date', label: 'Date' },
  title: { id: 'm-title', label: 'Title' },
  description: { id: 'm-description', label: 'Description' },
  url: { id: 'm-url', label: 'Link' },
};
const milestoneFieldOf = (path: string) => MILESTONE_FIELDS[path.split('.')[0]] ?? null;

const MILESTONE_NOTICES: Record<string, { kind: 'success'; text: string }> = {
  added: { kind: 'success', text: 'The milestone is added.' },
  deleted: { kind: 'success', text: 'The milestone is deleted.' },
};

function milestoneItem(l: OwnListing, m: Milestone, web: SignedIn): SafeHtml {
  return html`<li id="milestone-${m.id}"><strong><time datetime="${m.date}">${fmtDate(m.date)}</time></strong> — ${m.url ? extLink(m.url, m.title) : m.title}
${m.description ? html`<br><span class="muted">${m.description}</span>` : ''}
<form method="post" action="/my/listings/${l.listing_id}/milestones/${m.id}/delete" class="inline">${csrfField(web.csrf)}<button type="submit" class="danger">Delete<span class="sr-only"> the milestone “${m.title}”</span></button></form></li>`;
}

/** `refused`: a refused add (the form kept) or a refused delete (shown at the top). */
function milestonesPage(
  reply: FastifyReply,
  web: SignedIn,
  l: OwnListing,
  st: PageState & { refusedDelete?: boolean } = {},
  status = 200,
): FastifyReply {
  const list = l.milestones;
  const p = problems(st.error, milestoneFieldOf);
  const addP = st.refusedDelete ? problems(null, () => null) : p;
  const v = (k: string) => (st.form ? one(st.form, k) : '');
  const F = MILESTONE_FIELDS;
  const body = html`${crumbs(l, 'Milestones')}
<h1>Milestones: ${l.name}</h1>
${shownNote(l, 'milestones', 'Milestones')}
${st.refusedDelete ? p.summary('The milestone was not deleted:') : ''}
<section aria-labelledby="list-h" id="milestones"><h2 id="list-h">Your milestones</h2>
${list.length ? html`<ol class="timeline" id="milestone-list">${list.map((m) => milestoneItem(l, m, web))}</ol>` : html`<p class="muted" id="no-milestones">No milestones yet.</p>`}</section>
<section aria-labelledby="add-h" class="panel" id="add"><h2 id="add-h">Add a milestone</h2>
${addP.summary(refusedHeading(st.error, 'The milestone was not added.'))}
<p>A date and what happened (a launch, a funding round, the 1,000th customer…); a listing has at most 50.</p>
<form method="post" action="/my/listings/${l.listing_id}/milestones" class="stack" novalidate>${csrfField(web.csrf)}
<div><label for="${F.date.id}">${F.date.label}</label><input type="date" id="${F.date.id}" name="date" value="${v('date')}" required${invalidAttrs(addP, F.date.id)}>${fieldMessage(addP, F.date.id)}</div>
<div><label for="${F.title.id}">${F.title.label}</label><input type="text" id="${F.title.id}" name="title" value="${v('title')}" maxlength="200" required${invalidAttrs(addP, F.title.id)}>${fieldMessage(addP, F.title.id)}</div>
<div><label for="${F.description.id}">${F.description.label} <span class="hint">(optional)</span></label><textarea id="${F.description.id}" name="description" rows="3" maxlength="2000"${invalidAttrs(addP, F.description.id)}>${v('description')}</textarea>${fieldMessage(addP, F.description.id)}</div>
<div><label for="${F.url.id}">${F.url.label} <span class="hint">(optional, https)</span></label><input type="text" id="${F.url.id}" name="url" value="${v('url')}" maxlength="500" inputmode="url" autocapitalize="none" spellcheck="false"${invalidAttrs(addP, F.url.id)}>${fieldMessage(addP, F.url.id)}</div>
<div><button type="submit">Add the milestone</button></div></form></section>
<p><a href="/my/listings/${l.listing_id}">Back to the listing</a></p>`;
  return sendMakerPage(
    reply,
    web,
    { title: `Milestones: ${l.name}`, flash: entryOf(MILESTONE_NOTICES, st.notice) ?? null },
    body,
    status,
  );
}

async function postMilestone(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  id: string,
): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/my/listings/${id}/milestones`);
  if (!web) return reply;
  const l = await act(deps, req, web, getMyListing, { params: { listing_id: id } });
  const f = formOf(req);
  const description = norm(one(f, 'description'));
  const url = one(f, 'url').trim();
  const body = {
    date: one(f, 'date').trim(),
    title: one(f, 'title').trim(),
    ...(description ? { description } : {}),
    ...(url ? { url } : {}),
  };
  const r = await attempt(deps, req, web, addMilestone, { params: { listing_id: id }, body });
  if (!r.ok) return milestonesPage(reply, web, l, { form: f, error: r.error }, statusOf(reply, r.error));
  return reply.redirect(`/my/listings/${id}/milestones?notice=added`, 303);
}

async function deleteMilestone(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  id: string,
  milestoneId: string,
): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/my/listings/${id}/milestones`);
  if (!web) return reply;
  // Another person's listing, or a milestone it does not have, is the operation's 404.
  const r = await attempt(deps, req, web, deleteMilestoneOp, {
    params: { listing_id: id, milestone_id: milestoneId },
  });
  if (!r.ok) {
    const l = await act(deps, req, web, getMyListing, { params: { listing_id: id } });
    return milestonesPage(reply, web, l, { error: r.error, refusedDelete: true }, statusOf(reply, r.error));
  }
  return reply.redirect(`/my/listings/${id}/milestones?notice=deleted`, 303);
}

// ------------------------------------------------------------------ routes

export function registerSectionPages(app: FastifyInstance, deps: AppDeps): void {
  const own = async (req: FastifyRequest, reply: FastifyReply, page: string) => {
    const { id } = req.params as { id: string };
    const web = await signedIn(deps, req, reply, `/my/listings/${id}/${page}`);
    if (!web) return null;
    return { web, l: await act(deps, req, web, getMyListing, { params: { listing_id: id } }) };
  };
  app.get('/my/listings/:id/story', async (req, reply) => {
    const o = await own(req, reply, 'story');
    return o ? storyPage(reply, o.web, o.l, { notice: qs(req, 'notice') }) : reply;
  });
  app.post('/my/listings/:id/story', async (req, reply) =>
    postStory(deps, req, reply, (req.params as { id: string }).id),
  );
  app.get('/my/listings/:id/milestones', async (req, reply) => {
    const o = await own(req, reply, 'milestones');
    return o ? milestonesPage(reply, o.web, o.l, { notice: qs(req, 'notice') }) : reply;
  });
  app.post('/my/listings/:id/milestones', async (req, reply) =>
    postMilestone(deps, req, reply, (req.params as { id: string }).id),
  );
  app.post('/my/listings/:id/milestones/:milestoneId/delete', async (req, reply) => {
    const { id, milestoneId } = req.params as { id: string; milestoneId: string };
    return deleteMilestone(deps, req, reply, id, milestoneId);
  });
}
