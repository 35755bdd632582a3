// Programmes (issue #21): admin-defined, with entry rules a listing must meet to enter, and a way of
// choosing winners. Pure: the rules, their wording and the entry check.

export const WINNER_RULES = ['community_votes', 'jury'] as const;
export type WinnerRule = (typeof WINNER_RULES)[number];

export const WINNER_RULE_WORDS: Readonly<Record<WinnerRule, string>> = {
  community_votes:
    'the entries with the most community votes cast during the programme period win, in that order (ties: the earlier entry)',
  jury: 'a jury of the site team picks the winners when the period has ended',
};

/** What a listing must meet to enter. Every rule given must hold; an empty object admits every live listing. */
export interface ProgrammeRules {
  /** Launched on or after this date (YYYY-MM-DD). */
  launched_from?: string;
  /** Launched on or before this date (YYYY-MM-DD). */
  launched_to?: string;
  /** In at least one of these categories (slugs; a parent category admits its subcategories). */
  categories?: string[];
  /** Ownership proved (a verified listing). */
  verified_only?: boolean;
}

/** The rule names, as refusals name them. */
export const RULE_NAMES = ['period', 'live', 'launched_from', 'launched_to', 'categories', 'verified_only'] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** The rules in words, one sentence per rule (the programme period first). */
export function ruleWords(p: { starts_on: string; ends_on: string; rules: ProgrammeRules }): Array<{
  rule: RuleName;
  text: string;
}> {
  const r = p.rules;
  const out: Array<{ rule: RuleName; text: string }> = [
    { rule: 'period', text: `Entries are open from ${p.starts_on} to ${p.ends_on} (UTC).` },
    { rule: 'live', text: 'The listing is live on Launchlist and yours.' },
  ];
  if (r.launched_from && r.launched_to) {
    const year = r.launched_from.slice(0, 4);
    const text =
      r.launched_from === `${year}-01-01` && r.launched_to === `${year}-12-31`
        ? `Launched in ${year}.`
        : `Launched between ${r.launched_from} and ${r.launched_to}.`;
    out.push({ rule: 'launched_from', text });
  } else if (r.launched_from) out.push({ rule: 'launched_from', text: `Launched on or after ${r.launched_from}.` });
  else if (r.launched_to) out.push({ rule: 'launched_to', text: `Launched on or before ${r.launched_to}.` });
  if (r.categories?.length)
    out.push({ rule: 'categories', text: `In one of the categories: ${r.categories.join(', ')}.` });
  if (r.verified_only) out.push({ rule: 'verified_only', text: 'Ownership of the listing is verified.' });
  return out;
}

export interface EntryFacts {
  status: string;
  /** launched_at, ISO timestamp, or null. */
  launched_at: string | null;
  /** Slugs of the listing's categories and of their parents. */
  categories: string[];
  verified: boolean;
}

/** Why a listing may not enter (the first rule it breaks), or null when it may. `today` is YYYY-MM-DD (UTC). */
export function entryRefusal(
  p: { starts_on: string; ends_on: string; rules: ProgrammeRules },
  l: EntryFacts,
  today: string,
): { rule: RuleName; message: string } | null {
  const r = p.rules;
  if (today < p.starts_on) return { rule: 'period', message: `entries open on ${p.starts_on}` };
  if (today > p.ends_on) return { rule: 'period', message: `entries closed on ${p.ends_on}` };
  if (l.status !== 'live') return { rule: 'live', message: `the listing is ${l.status}, not live` };
  const launched = l.launched_at?.slice(0, 10) ?? null;
  if (r.launched_from && (launched === null || launched < r.launched_from))
    return {
      rule: 'launched_from',
      message: `the listing must have launched on or after ${r.launched_from}${launched ? ` (it launched on ${launched})` : ''}`,
    };
  if (r.launched_to && (launched === null || launched > r.launched_to))
    return {
      rule: 'launched_to',
      message: `the listing must have launched on or before ${r.launched_to}${launched ? ` (it launched on ${launched})` : ''}`,
    };
  if (r.categories?.length && !r.categories.some((c) => l.categories.includes(c)))
    return { rule: 'categories', message: `the listing must be in one of the categories ${r.categories.join(', ')}` };
  if (r.verified_only && !l.verified)
    return { rule: 'verified_only', message: 'the listing’s ownership must be verified' };
  return null;
}

/** Where a programme stands on `today` (YYYY-MM-DD). */
export function programmeState(
  p: { starts_on: string; ends_on: string },
  today: string,
): 'upcoming' | 'open' | 'ended' {
  if (today < p.starts_on) return 'upcoming';
  if (today > p.ends_on) return 'ended';
  return 'open';
}

// ------------------------------------------------------------------ milestones that count as trophies

/**
 * A milestone counts as a trophy when its title names an achievement: customers, users, revenue (MRR,
 * ARR), funding, downloads, stars, an award or a win, profitability or an acquisition.
 */
export const TROPHY_MILESTONE =
  /(?:^|\W)(customers?|users?|subscribers?|downloads?|installs?|stars?|mrr|arr|revenue|profitable|funding|raised|seed round|series [a-d]|acquired|award(?:ed|s)?|won|winner|#1)(?!\w)/i;

export function isTrophyMilestone(title: string): boolean {
  return TROPHY_MILESTONE.test(title);
}
