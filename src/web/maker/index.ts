// The maker's side of the website, for a person signed in with a session cookie: submit a product
// (/submit), follow and edit its draft (/drafts; its founders, FAQs, links, story and milestones on /drafts/{id}/more), manage the listings (/my/listings; edit one, its
// founder story and milestones) and claims (/claims), answer the founder interview (/my/interview), enter programmes (/programmes/{slug}/enter, /my/programmes).
// Every page calls the operations as that person (act.ts); an operation's 404 is the site's 404
// page, like the public pages' errors.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { siteErrorHandler } from '../pages/errors.ts';
import { registerSubmitPage } from './submit.ts';
import { registerDraftPages } from './drafts.ts';
import { registerDraftMorePage } from './draft-more.ts';
import { registerMyListingPages } from './listings.ts';
import { registerClaimMakerPages } from './claims.ts';
import { registerListingEditPage } from './edit.ts';
import { registerSectionPages } from './sections.ts';
import { registerInterviewPage } from './interview.ts';
import { registerProgrammeEntryPages } from './programmes.ts';

export async function registerMakerPages(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(async (maker) => {
    maker.setErrorHandler((err: FastifyError, req, reply) => siteErrorHandler(deps, err, req, reply));
    registerSubmitPage(maker, deps);
    registerDraftPages(maker, deps);
    registerDraftMorePage(maker, deps);
    registerMyListingPages(maker, deps);
    registerClaimMakerPages(maker, deps);
    registerListingEditPage(maker, deps);
    registerSectionPages(maker, deps);
    registerInterviewPage(maker, deps);
    registerProgrammeEntryPages(maker, deps);
  });
}
