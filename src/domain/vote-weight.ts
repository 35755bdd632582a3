// How much one community vote counts (issue #21). Pure: the rules, their defaults and their wording;
// the settings come from config.ts (VOTE_WEIGHT_* …), the context from the vote itself.
//
// A vote's weight is the product of the factors that apply to it, clamped to [0, 1]:
//   unconfirmed_email  the account's email address is not confirmed        × VOTE_WEIGHT_UNCONFIRMED (0)
//   new_account        the account is younger than VOTE_NEW_ACCOUNT_HOURS  × VOTE_WEIGHT_NEW_ACCOUNT (0.25)
//   hasty              cast less than VOTE_MIN_PAGE_MS after the page was served, or with no proof of the
//                      page (a form posted without its signed page time)   × VOTE_WEIGHT_HASTY (0.5)
//   under_review       found by the detection job (a burst of fresh accounts on one network, or a ring of
//                      accounts voting for the same listings), waiting for an admin × VOTE_WEIGHT_UNDER_REVIEW (0.5)
//   coordinated        an admin reviewed it and discounted it               × 0
// An admin's "restore" removes under_review (and coordinated) for good. Nothing else plays a part:
// what a listing's maker paid for, its plan and its placements never reach this function.

/** The public reason categories of a discounted vote (vote_integrity.by_reason). */
export const VOTE_REASONS = ['unconfirmed_email', 'new_account', 'hasty', 'under_review', 'coordinated'] as const;
export type VoteReason = (typeof VOTE_REASONS)[number];

export const VOTE_REASON_TEXT: Record<VoteReason, string> = {
  unconfirmed_email: 'the account’s email address was not confirmed',
  new_account: 'the account was new when it voted',
  hasty: 'cast too soon after the page was opened, or without the page',
  under_review: 'part of a pattern our detection found, waiting for review',
  coordinated: 'reviewed by the site team and found coordinated',
};

/** Admin review state of a vote. */
export type VoteReview = 'pending' | 'discounted' | 'restored' | null;

export interface VoteContext {
  /** Hours between the account's creation and the vote. */
  accountAgeHours: number | null;
  emailConfirmed: boolean | null;
  /** Milliseconds between the page being served and the vote; null when the form carried no valid page time. */
  pageMs: number | null;
  review: VoteReview;
}

export interface VoteWeightSettings {
  unconfirmedWeight: number;
  newAccountHours: number;
  newAccountWeight: number;
  minPageMs: number;
  hastyWeight: number;
  underReviewWeight: number;
}

export const DEFAULT_VOTE_WEIGHTS: VoteWeightSettings = {
  unconfirmedWeight: 0,
  newAccountHours: 72,
  newAccountWeight: 0.25,
  minPageMs: 3000,
  hastyWeight: 0.5,
  underReviewWeight: 0.5,
};

export interface VoteWeight {
  /** In [0, 1], rounded to 4 decimals so sums agree across engines. */
  weight: number;
  /** The reason whose factor is the smallest, when weight < 1 (ties: the later in VOTE_REASONS). */
  reason: VoteReason | null;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/**
 * The weight of one vote. A vote with no recorded context (cast before weights existed) counts 1:
 * null age, confirmation and page time are only discounted for votes that recorded them, except that
 * `pageMs === null` on a vote with a recorded age means the form carried no valid page time (hasty).
 */
export function weighVote(c: VoteContext, s: VoteWeightSettings = DEFAULT_VOTE_WEIGHTS): VoteWeight {
  const legacy = c.accountAgeHours === null && c.emailConfirmed === null;
  const factors: Array<[VoteReason, number]> = [];
  if (c.emailConfirmed === false) factors.push(['unconfirmed_email', clamp01(s.unconfirmedWeight)]);
  if (c.accountAgeHours !== null && c.accountAgeHours < s.newAccountHours)
    factors.push(['new_account', clamp01(s.newAccountWeight)]);
  if (!legacy && (c.pageMs === null || c.pageMs < s.minPageMs)) factors.push(['hasty', clamp01(s.hastyWeight)]);
  if (c.review === 'pending') factors.push(['under_review', clamp01(s.underReviewWeight)]);
  if (c.review === 'discounted') factors.push(['coordinated', 0]);
  let weight = 1;
  let reason: VoteReason | null = null;
  let smallest = 1;
  for (const [r, f] of factors) {
    weight *= f;
    if (f < 1 && f <= smallest) {
      smallest = f;
      reason = r;
    }
  }
  weight = Math.round(clamp01(weight) * 10_000) / 10_000;
  return { weight, reason: weight < 1 ? reason : null };
}

/** The rules as sentences, for the public "how ranking works" page and the API descriptions. */
export function voteWeightRules(s: VoteWeightSettings = DEFAULT_VOTE_WEIGHTS): string[] {
  return [
    `Every vote starts at 1. A vote from an account whose email address is not confirmed counts × ${s.unconfirmedWeight}.`,
    `A vote from an account younger than ${s.newAccountHours} hours counts × ${s.newAccountWeight}.`,
    `A vote cast less than ${s.minPageMs / 1000} s after the listing's page was served, or posted without the page, counts × ${s.hastyWeight}.`,
    `Votes our detection job flags (many new accounts voting from one network within a short time, or a group of accounts voting for the same set of listings) count × ${s.underReviewWeight} until the site team reviews them; the team then discounts them (× 0) or restores them (full weight). Every decision is logged.`,
    'The factors multiply; a weight is always between 0 and 1. Payments, plans and placements play no part in a vote’s weight or in any community ranking.',
  ];
}
