// Repeated rows of a maker's form (links to profiles, FAQs, founders, milestones), shared by the edit
// page of a saved listing (edit.ts) and the draft's founders-and-more page (draft-more.ts). A group
// of rows is named once: its controls are `${name}-${part}-${i}`, their ids `${id}-${i}-${part}`
// (row i as shown). A posted group is read row by row; blank rows are skipped, so the operation's
// `<path>.<n>` (the n-th item sent) is mapped back to the row it came from (`Placed`), and an error
// is shown by its own row.
import type { z } from 'zod';
import { SOCIAL_PLATFORMS } from '../../operations/schemas.ts';
import type { ErrorDetail } from '../../operations/errors.ts';
import { html, raw, type SafeHtml } from '../layout.ts';
import { fieldMessage, invalidAttrs, one, type Form, type Problems } from './act.ts';

/** Empty rows offered under the current ones. */
export const EMPTY_ROWS = 3;
/** The most rows of one group a posted form is read for. */
export const MAX_ROWS = 50;

/**
 * The snapshot a form carries in its hidden `base` field (what it was filled with), when it is there
 * and of this shape; undefined otherwise (the caller then compares with the record as it is now).
 */
export function snapshotOf<T>(f: Form, shape: z.ZodType<T>): T | undefined {
  try {
    const b = shape.safeParse(JSON.parse(one(f, 'base')));
    return b.success ? b.data : undefined;
  } catch {
    return undefined; // no snapshot, or not JSON
  }
}

export const norm = (s: string): string => s.replace(/\r\n?/g, '\n').trim();
export const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
export const sortedEntries = (o: Record<string, string>) => Object.entries(o).sort(([x], [y]) => x.localeCompare(y));

export function option(value: string, label: string, selected: boolean): SafeHtml {
  return html`<option value="${value}"${selected ? raw(' selected') : ''}>${label}</option>`;
}

/** A group of rows on a form; `title` and `words` word its controls' labels ("Company link 2"; none: "Link 2"). */
export interface RowGroup<P extends string> {
  name: string;
  id: string;
  parts: readonly P[];
  title?: string;
  words?: Partial<Record<P, string>>;
}
export type Row<P extends string> = { i: number } & Record<P, string>;
/** Where the operation's paths of a group's items are on the form (the rows as posted). */
export type Placed = Map<string, { id: string; label: string }>;

export const rowName = <P extends string>(g: RowGroup<P>, i: number, part: P): string => `${g.name}-${part}-${i}`;
export const rowId = <P extends string>(g: RowGroup<P>, i: number, part: P): string => `${g.id}-${i}-${part}`;
export function rowLabel<P extends string>(
  g: RowGroup<P>,
  i: number,
  part: P,
  word: string = g.words?.[part] ?? part,
): string {
  return g.title ? `${g.title} ${word.toLowerCase()} ${i + 1}` : `${word[0].toUpperCase()}${word.slice(1)} ${i + 1}`;
}

/** True when the form has the group's rows (a form without them leaves that part as it is). */
export const groupOnForm = <P extends string>(f: Form, g: RowGroup<P>): boolean => rowName(g, 0, g.parts[0]) in f;

/** The rows of a group a form holds: the index of each, and its values as typed. */
export function rowsOf<P extends string>(f: Form, g: RowGroup<P>): Array<Row<P>> {
  const rows: Array<Row<P>> = [];
  for (let i = 0; i < MAX_ROWS; i++) {
    if (!g.parts.some((part) => rowName(g, i, part) in f)) continue;
    rows.push(
      Object.assign({ i }, Object.fromEntries(g.parts.map((part) => [part, one(f, rowName(g, i, part))]))) as Row<P>,
    );
  }
  return rows;
}

/**
 * The items of a group of rows, in order: a row with nothing typed is skipped, the others are built
 * and their parts placed at `${path}.<n>.<part>`; a `required` part left empty is the page's own
 * refusal (in `errors`) at that path.
 */
export function itemsFrom<P extends string, T>(
  f: Form,
  g: RowGroup<P>,
  path: string,
  at: Placed,
  build: (r: Row<P>) => T,
  required: readonly P[] = [],
  errors: ErrorDetail[] = [],
): T[] {
  const items: T[] = [];
  for (const r of rowsOf(f, g)) {
    if (g.parts.every((part) => !norm(r[part]))) continue;
    const n = items.length;
    for (const part of g.parts)
      at.set(`${path}.${n}.${part}`, { id: rowId(g, r.i, part), label: rowLabel(g, r.i, part) });
    for (const part of required)
      if (!norm(r[part])) errors.push({ path: `body.${path}.${n}.${part}`, message: 'must not be empty' });
    items.push(build(r));
  }
  return items;
}

/** The rows to show: as posted (a refused form), else the current items and empty rows up to `max`. */
export function shownRows<P extends string>(
  f: Form | null,
  g: RowGroup<P>,
  current: Array<Record<P, string>>,
  max = MAX_ROWS,
): Array<Record<P, string>> {
  if (f && groupOnForm(f, g)) return rowsOf(f, g);
  const empty = Object.fromEntries(g.parts.map((part) => [part, ''])) as Record<P, string>;
  return [
    ...current,
    ...Array.from({ length: Math.max(0, Math.min(EMPTY_ROWS, max - current.length)) }, () => ({ ...empty })),
  ];
}

// ------------------------------------------------------------------ links to profiles

export type SocialPart = 'platform' | 'link';

const PLATFORM_NAMES: Record<string, string> = {
  linkedin: 'LinkedIn',
  x: 'X (Twitter)',
  facebook: 'Facebook',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  threads: 'Threads',
  pinterest: 'Pinterest',
  github: 'GitHub',
  reddit: 'Reddit',
  medium: 'Medium',
  website: 'Website',
  custom: 'Other',
  productlaunch: 'Product launch site',
};
export const platformName = (p: string): string => PLATFORM_NAMES[p] ?? p;
const isPlatform = (p: string): boolean => (SOCIAL_PLATFORMS as readonly string[]).includes(p);

/**
 * The links of a group of social rows as the operation takes them (platform → link; a row without a
 * link is dropped), each placed at `${path}.<platform>`; a link without a platform, or a platform given
 * twice, is the page's own refusal at `${path}.<row>`.
 */
export function socialsFrom(
  f: Form,
  g: RowGroup<SocialPart>,
  path: string,
  at: Placed,
  errors: ErrorDetail[],
): Record<string, string> {
  const socials: Record<string, string> = {};
  for (const r of rowsOf(f, g)) {
    const platform = r.platform.trim();
    const link = r.link.trim();
    if (!link) continue;
    const platformField = { id: rowId(g, r.i, 'platform'), label: rowLabel(g, r.i, 'platform') };
    if (!platform) {
      at.set(`${path}.${r.i}`, platformField);
      errors.push({ path: `body.${path}.${r.i}`, message: 'choose the platform this link is on' });
    } else if (platform in socials) {
      at.set(`${path}.${r.i}`, platformField);
      errors.push({
        path: `body.${path}.${r.i}`,
        message: `${platformName(platform)} is given twice: keep one link a platform`,
      });
    } else {
      socials[platform] = link;
      at.set(`${path}.${platform}`, {
        id: rowId(g, r.i, 'link'),
        label: `${rowLabel(g, r.i, 'link')} (${platformName(platform)})`,
      });
    }
  }
  return socials;
}

/** Where an error of the whole map is (an unknown platform kept from older data): its row, else the first. */
export function socialsRefusedAt(f: Form | null, g: RowGroup<SocialPart>): { id: string; label: string } {
  const odd = f
    ? rowsOf(f, g).find((r) => r.link.trim() && r.platform.trim() && !isPlatform(r.platform.trim()))
    : undefined;
  const i = odd?.i ?? 0;
  return { id: rowId(g, i, 'platform'), label: rowLabel(g, i, 'platform') };
}

/** The rows of a map of links: its platforms in order, then empty rows. */
export const socialRowsOf = (links: Record<string, string> | null | undefined): Array<Record<SocialPart, string>> =>
  Object.entries(links ?? {}).map(([platform, link]) => ({ platform, link }));

export function socialRow(g: RowGroup<SocialPart>, i: number, platform: string, link: string, p: Problems): SafeHtml {
  const pid = rowId(g, i, 'platform');
  const lid = rowId(g, i, 'link');
  // A platform the list lacks (kept from older data) stays choosable, so the row shows it as it is.
  const platforms = platform && !isPlatform(platform) ? [...SOCIAL_PLATFORMS, platform] : SOCIAL_PLATFORMS;
  const which = g.title ? `${g.title.toLowerCase()} link` : 'link';
  return html`<div class="edit-row" id="${g.name}-${i}">
<div><label for="${pid}">Platform <span class="sr-only">of ${which} ${i + 1}</span></label>
<select id="${pid}" name="${rowName(g, i, 'platform')}"${invalidAttrs(p, pid)}>${option('', '— choose —', !platform)}${platforms.map((x) => option(x, platformName(x), x === platform))}</select>${fieldMessage(p, pid)}</div>
<div><label for="${lid}">Link <span class="sr-only">${g.title ? `(${g.title.toLowerCase()}) ` : ''}${i + 1}</span></label>
<input type="text" id="${lid}" name="${rowName(g, i, 'link')}" value="${link}" maxlength="500" inputmode="url" autocapitalize="none" spellcheck="false"${invalidAttrs(p, lid)}>${fieldMessage(p, lid)}</div></div>`;
}

// ------------------------------------------------------------------ FAQs

export type FaqPart = 'question' | 'answer';
export interface Faq {
  question: string;
  answer: string;
}
export const MAX_FAQS = 10;

/** The FAQs of a group of rows: rows with a question or an answer, in order (a row emptied of both is removed), placed at `${path}.<n>.<part>`. */
export function faqsFrom(
  f: Form,
  g: RowGroup<FaqPart>,
  path: string,
  at: Placed,
  required: readonly FaqPart[] = [],
  errors: ErrorDetail[] = [],
): Faq[] {
  return itemsFrom(f, g, path, at, (r) => ({ question: norm(r.question), answer: norm(r.answer) }), required, errors);
}

export const faqOf = (q: Faq): Faq => ({ question: q.question, answer: q.answer });

export function faqRow(g: RowGroup<FaqPart>, i: number, q: Faq, p: Problems): SafeHtml {
  const qid = rowId(g, i, 'question');
  const aid = rowId(g, i, 'answer');
  return html`<div class="faq-row" id="${g.name}-${i}">
<div><label for="${qid}">${rowLabel(g, i, 'question')}</label><input type="text" id="${qid}" name="${rowName(g, i, 'question')}" value="${q.question}" maxlength="300"${invalidAttrs(p, qid)}>${fieldMessage(p, qid)}</div>
<div><label for="${aid}">${rowLabel(g, i, 'answer')}</label><textarea id="${aid}" name="${rowName(g, i, 'answer')}" rows="3" maxlength="1500"${invalidAttrs(p, aid)}>${q.answer}</textarea>${fieldMessage(p, aid)}</div></div>`;
}
