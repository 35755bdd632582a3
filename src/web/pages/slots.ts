// How the personal slots of the public pages render (web/personal.ts): the header's account area, vote
// and follow buttons, the claim box and signed-in text, signed out and for a person.
import { renderMe } from '../layout.ts';
import { claimBox } from '../maker/claims.ts';
import type { SlotRenderers } from '../personal.ts';
import { followForm } from './listing.ts';
import { voteFormBytes, voteFormText } from './shared.ts';

export const slotRenderers: SlotRenderers = {
  me: (web, current) => renderMe(web.user, web.user ? web.csrf : undefined, current),
  vote: (s, web, voted) => voteFormBytes(web, s, voted),
  voteText: (s, web, voted) => voteFormText(web, s, voted),
  follow: (s, web, following) => followForm(web, s, following),
  claim: (deps, web, s) => claimBox(deps, web, s),
};
