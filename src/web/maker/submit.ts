// /submit: a maker gives the product's website; submit_listing starts reading it and the person is
// sent to the draft's page (/drafts/{id}), which follows the reading and then offers the form.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { submitListing } from '../../operations/drafts.ts';
import { csrfField, html } from '../layout.ts';
import {
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
  type Problems,
  type SignedIn,
} from './act.ts';

const URL_FIELD = { id: 'submit-url', label: 'Website address' };

function submitPage(reply: FastifyReply, web: SignedIn, url: string, p: Problems, status = 200): FastifyReply {
  return sendMakerPage(
    reply,
    web,
    { title: 'Submit a product', narrow: true },
    html`
<h1>Submit a product</h1>
<p class="lede">Give your product's website. We read it (politely: robots.txt, a dozen pages at most) and draft its profile in about a minute, quoting your site for every value. What the site does not say stays blank.</p>
<p>Nothing is published and nothing is charged: you check and edit the draft first.</p>
${p.summary('The address was not accepted:')}
<form method="post" action="/submit" class="stack" novalidate>
${csrfField(web.csrf)}
<div><label for="${URL_FIELD.id}">${URL_FIELD.label} <span class="hint">(e.g. https://example.com)</span></label>
<input type="text" id="${URL_FIELD.id}" name="url" value="${url}" maxlength="2048" inputmode="url" autocapitalize="none" spellcheck="false" required${invalidAttrs(p, URL_FIELD.id)}>
${fieldMessage(p, URL_FIELD.id)}</div>
<div><button type="submit">Draft my listing</button></div>
</form>
<p><a href="/drafts">Your drafts</a> · <a href="/my/listings">Your listings</a></p>`,
    status,
  );
}

async function postSubmit(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, '/submit');
  if (!web) return reply;
  const url = one(formOf(req), 'url').trim();
  const r = await attempt(deps, req, web, submitListing, { body: { url } });
  if (r.ok) return reply.redirect(`/drafts/${r.value.id}`, 303);
  return submitPage(
    reply,
    web,
    url,
    problems(r.error, (path) => (path === 'url' ? URL_FIELD : null)),
    statusOf(reply, r.error),
  );
}

export function registerSubmitPage(app: FastifyInstance, deps: AppDeps): void {
  app.get('/submit', async (req, reply) => {
    const web = await signedIn(deps, req, reply, '/submit');
    if (!web) return reply;
    return submitPage(
      reply,
      web,
      '',
      problems(null, () => null),
    );
  });
  app.post('/submit', async (req, reply) => postSubmit(deps, req, reply));
}
