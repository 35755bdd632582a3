// /my/interview: the founder interview on the website. The questions are list_interview_questions',
// each with a box prefilled with the person's current answer. No operation reads a person's answers
// back (answer_interview returns them only after a write), so the page reads them for the signed-in
// person from the repository. Saving sends answer_interview only the answers that changed: a new or
// edited answer, and an emptied box for a question answered before (the operation's "an empty answer
// withdraws it"); at most 30 answers a call, so a longer change is sent in turns.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { answerInterview, listInterviewQuestions } from '../../operations/site.ts';
import type { ResultOf } from '../../operations/define.ts';
import type { ApiError } from '../../operations/errors.ts';
import { answersOf } from '../../store/repos/my-listings.ts';
import { csrfField, html, type SafeHtml } from '../layout.ts';
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
  when,
  type Form,
  type Problems,
  type SignedIn,
} from './act.ts';

type Question = ResultOf<typeof listInterviewQuestions>['items'][number];
type Answer = ResultOf<typeof answerInterview>['answers'][number];

/** answer_interview's limit of answers in one call. */
const PER_CALL = 30;

const NOTICES: Record<string, { kind: 'success' | 'info'; text: string }> = {
  saved: { kind: 'success', text: 'Your answers are saved.' },
  unchanged: { kind: 'info', text: 'Nothing changed: the answers were as saved.' },
};

const answerId = (q: number) => `q-${q}`;
const norm = (s: string): string => s.replace(/\r\n?/g, '\n').trim();

async function loaded(
  deps: AppDeps,
  req: FastifyRequest,
  web: SignedIn,
): Promise<{ questions: Question[]; answers: Map<number, Answer> }> {
  const [q, a] = await Promise.all([
    act(deps, req, web, listInterviewQuestions),
    answersOf(deps.store.db, web.user.id),
  ]);
  return { questions: q.items, answers: new Map(a.map((x) => [x.question_id, x])) };
}

function questionBlock(q: Question, value: string, saved: Answer | undefined, p: Problems): SafeHtml {
  const id = answerId(q.id);
  return html`<div class="draft-field" id="f-q-${q.id}"><label for="${id}">${q.question}</label>
<textarea id="${id}" name="answer-${q.id}" rows="5" maxlength="4000"${invalidAttrs(p, id)}>${value}</textarea>${fieldMessage(p, id)}
${saved ? html`<p class="meta">Answered ${when(saved.updated_at)}</p>` : ''}</div>`;
}

interface State {
  form?: Form;
  error?: ApiError | null;
  problems?: Problems;
  partly?: boolean;
  notice?: string;
}

function interviewPage(
  reply: FastifyReply,
  web: SignedIn,
  questions: Question[],
  answers: Map<number, Answer>,
  st: State = {},
  status = 200,
): FastifyReply {
  const p = st.problems ?? problems(null, () => null);
  const shownValue = (q: Question): string =>
    st.form && `answer-${q.id}` in st.form ? one(st.form, `answer-${q.id}`) : (answers.get(q.id)?.answer ?? '');
  const heading =
    st.error?.status === 400
      ? st.partly
        ? 'Some answers were saved; these were not:'
        : 'Nothing was saved. Please correct these:'
      : 'This could not be done:';
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/my/listings">Your listings</a> › <span aria-current="page">Founder interview</span></nav>
<h1>Founder interview</h1>
<p>Answer the questions you like, in your own words; leave the others empty. Saving keeps the answers you changed, and an answer you empty is withdrawn.</p>
${p.summary(heading)}
${
  questions.length
    ? html`<form method="post" action="/my/interview" id="interview-form" class="draft-form" novalidate>
${csrfField(web.csrf)}
${questions.map((q) => questionBlock(q, shownValue(q), answers.get(q.id), p))}
<div class="actions"><button type="submit">Save my answers</button></div>
</form>`
    : html`<p class="muted" id="no-questions">There are no interview questions at the moment.</p>`
}
<p><a href="/my/listings">Your listings</a> · <a href="/drafts">Your drafts</a></p>`;
  return sendMakerPage(
    reply,
    web,
    { title: 'Founder interview', flash: entryOf(NOTICES, st.notice) ?? null },
    body,
    status,
  );
}

async function postInterview(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, '/my/interview');
  if (!web) return reply;
  const { questions, answers } = await loaded(deps, req, web);
  const f = formOf(req);
  const changed: Array<{ question_id: number; answer: string }> = [];
  for (const q of questions) {
    const key = `answer-${q.id}`;
    if (!(key in f)) continue;
    const text = norm(one(f, key));
    if (text !== (answers.get(q.id)?.answer ?? '')) changed.push({ question_id: q.id, answer: text });
  }
  if (!changed.length) return reply.redirect('/my/interview?notice=unchanged', 303);
  for (let from = 0; from < changed.length; from += PER_CALL) {
    const part = changed.slice(from, from + PER_CALL);
    const r = await attempt(deps, req, web, answerInterview, { body: { answers: part } });
    if (!r.ok) {
      // answers.<i>.… names the i-th answer of this call: its question's box.
      const fieldOf = (path: string) => {
        const m = /^answers\.(\d+)/.exec(path);
        const q = m ? questions.find((x) => x.id === part[Number(m[1])]?.question_id) : undefined;
        return q ? { id: answerId(q.id), label: q.question } : null;
      };
      const now = from ? (await loaded(deps, req, web)).answers : answers;
      return interviewPage(
        reply,
        web,
        questions,
        now,
        { form: f, error: r.error, problems: problems(r.error, fieldOf), partly: from > 0 },
        statusOf(reply, r.error),
      );
    }
  }
  return reply.redirect('/my/interview?notice=saved', 303);
}

export function registerInterviewPage(app: FastifyInstance, deps: AppDeps): void {
  app.get('/my/interview', async (req, reply) => {
    const web = await signedIn(deps, req, reply, '/my/interview');
    if (!web) return reply;
    const { questions, answers } = await loaded(deps, req, web);
    return interviewPage(reply, web, questions, answers, { notice: qs(req, 'notice') });
  });
  app.post('/my/interview', async (req, reply) => postInterview(deps, req, reply));
}
