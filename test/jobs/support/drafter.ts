// A small, deterministic drafter for workflow tests (the real extractor is tested in test/drafting):
// name from the home page <title>, tagline from its meta description, features from its list items,
// every value with a quote checked by the real evidence verifier. Records every call.
import * as cheerio from 'cheerio';
import { verifyEvidence, verifyItems } from '../../../src/drafting/extract/evidence.ts';
import {
  PROFILE_FIELDS,
  notFound,
  type Draft as ProfileDraft,
  type ProfileFields,
} from '../../../src/drafting/extract/types.ts';
import type { Drafter } from '../../../src/services/options.ts';

export interface TestDrafter {
  drafter: Drafter;
  calls: Array<{ urls: string[]; fields?: readonly string[] }>;
  /** When set, drafting waits for this promise (to observe the `drafting` status). */
  gate?: Promise<void>;
  /** Makes the next value of `tagline` differ (to see regenerate pick up a new draft). */
  taglineSuffix: string;
}

export function testDrafter(): TestDrafter {
  const t: TestDrafter = {
    calls: [],
    taglineSuffix: '',
    drafter: async (pages, opts) => {
      t.calls.push({ urls: pages.map((p) => p.url), fields: opts.fields });
      if (t.gate) await t.gate;
      const home = pages[0];
      const $ = cheerio.load(home.html);
      const fields = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, notFound()])) as ProfileFields;
      const title = $('title').first().text().trim();
      fields.name = verifyEvidence(title, [{ quote: title, url: home.url }], pages);
      const desc = ($('meta[name=description]').attr('content') ?? '').trim();
      fields.tagline = verifyEvidence(desc ? desc + t.taglineSuffix : desc, [{ quote: desc, url: home.url }], pages);
      const items = $('ul.features li')
        .map((_, el) => $(el).text().trim())
        .get();
      fields.features = verifyItems(
        items.map((v) => ({ value: v, evidence: [{ quote: v, url: home.url }] })),
        pages,
      ).field;
      const pricing = pages.find((p) => p.url.endsWith('/pricing'));
      if (pricing)
        fields.pricing_summary = verifyEvidence(
          'Free for individuals; team plan $8 per user per month',
          [{ quote: 'Team plan $8 per user per month', url: pricing.url }],
          pages,
        );
      return {
        fields,
        faqs: [],
        founders: [],
        socials: {},
        socials_evidence: {},
        milestones: [],
        ignored_pages: [],
      } satisfies ProfileDraft;
    },
  };
  return t;
}
