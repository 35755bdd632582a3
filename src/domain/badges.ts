// Embeddable badges: which badges exist, their SVG images, the ready-to-paste HTML, and the check
// that a homepage shows one. Pure functions, no I/O.

export const BADGE_SHAPES = ['standard', 'outline', 'pill', 'banner', 'square'] as const;
export const BADGE_MODES = ['light', 'dark', 'auto'] as const;
export const BADGE_SIZES = ['s', 'm', 'l'] as const;
export const BADGE_KINDS = [
  'listed',
  'launched',
  'upcoming',
  'featured',
  'verified',
  'launch_of_the_week_1',
  'launch_of_the_week_2',
  'launch_of_the_week_3',
] as const;

export type BadgeShape = (typeof BADGE_SHAPES)[number];
export type BadgeMode = (typeof BADGE_MODES)[number];
export type BadgeSize = (typeof BADGE_SIZES)[number];
export type BadgeKind = (typeof BADGE_KINDS)[number];
export interface BadgeStyle {
  shape: BadgeShape;
  mode: BadgeMode;
  size: BadgeSize;
}

export const DEFAULT_STYLE: BadgeStyle = { shape: 'standard', mode: 'auto', size: 'm' };
export const SITE_NAME = 'Launchlist';

export function isBadgeKind(s: string): s is BadgeKind {
  return (BADGE_KINDS as readonly string[]).includes(s);
}

interface KindText {
  caption: string; // small upper-case line
  title: string; // large line
  sentence: string; // one-line form (pill, alt text)
  description: string; // when the badge applies
}

export function awardRankOf(kind: BadgeKind): number | null {
  const m = /^launch_of_the_week_(\d)$/.exec(kind);
  return m ? Number(m[1]) : null;
}

export function badgeText(kind: BadgeKind): KindText {
  const rank = awardRankOf(kind);
  if (rank) {
    return {
      caption: 'LAUNCH OF THE WEEK',
      title: `#${rank} on ${SITE_NAME}`,
      sentence: `#${rank} Launch of the Week`,
      description: `Won Launch of the Week #${rank} on ${SITE_NAME} (ranked by community votes cast in its launch week).`,
    };
  }
  switch (kind) {
    case 'listed':
      return {
        caption: 'LISTED ON',
        title: SITE_NAME,
        sentence: `Listed on ${SITE_NAME}`,
        description: `The listing is in the ${SITE_NAME} directory. Free listings show this badge on their homepage to go live.`,
      };
    case 'launched':
      return {
        caption: 'LAUNCHED ON',
        title: SITE_NAME,
        sentence: `Launched on ${SITE_NAME}`,
        description: `The listing has launched on ${SITE_NAME} and is live.`,
      };
    case 'upcoming':
      return {
        caption: 'LAUNCHING SOON ON',
        title: SITE_NAME,
        sentence: `Launching on ${SITE_NAME}`,
        description: `The listing is scheduled for an upcoming launch week on ${SITE_NAME}.`,
      };
    case 'featured':
      return {
        caption: 'FEATURED ON',
        title: SITE_NAME,
        sentence: `Featured on ${SITE_NAME}`,
        description: `The listing is featured on ${SITE_NAME} (a paid placement).`,
      };
    case 'verified':
      return {
        caption: 'VERIFIED ON',
        title: SITE_NAME,
        sentence: `Verified on ${SITE_NAME}`,
        description: `The company has proved it owns the listing's website. Verified is not the same as paid.`,
      };
    default:
      throw new RangeError(`unknown badge ${kind as string}`);
  }
}

// Sizes: the viewBox is fixed per shape; width/height scale with the size.
const BASE: Record<BadgeShape, { w: number; h: number }> = {
  standard: { w: 250, h: 54 },
  outline: { w: 250, h: 54 },
  pill: { w: 250, h: 40 },
  banner: { w: 360, h: 64 },
  square: { w: 128, h: 128 },
};
const SCALE: Record<BadgeSize, number> = { s: 0.8, m: 1, l: 1.25 };

export function badgeDimensions(shape: BadgeShape, size: BadgeSize): { width: number; height: number } {
  const b = BASE[shape];
  return { width: Math.round(b.w * SCALE[size]), height: Math.round(b.h * SCALE[size]) };
}

interface Palette {
  bg: string;
  border: string;
  caption: string;
  title: string;
}
const LIGHT: Palette = { bg: '#FFFFFF', border: '#D9DEE5', caption: '#5B6472', title: '#111827' };
const DARK: Palette = { bg: '#111827', border: '#374151', caption: '#AAB4C3', title: '#F9FAFB' };

function accentOf(kind: BadgeKind): string {
  switch (kind) {
    case 'launch_of_the_week_1':
      return '#C99A06';
    case 'launch_of_the_week_2':
      return '#8A94A3';
    case 'launch_of_the_week_3':
      return '#B0652D';
    case 'featured':
      return '#7C3AED';
    case 'verified':
      return '#0E9F6E';
    case 'upcoming':
      return '#2563EB';
    default:
      return '#E8542C';
  }
}

export const FONT_STACK = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** A generous estimate of how wide a line is in a system sans-serif (sized for the wider fonts, e.g. DejaVu Sans). */
function textWidth(s: string, fontSize: number, bold: boolean, letterSpacing = 0): number {
  let units = 0;
  for (const ch of s) {
    if (/[iIl.,:;'|!]/.test(ch)) units += 0.34;
    else if (/[mwMW@]/.test(ch)) units += 0.98;
    else if (/[A-Z#0-9&<>]/.test(ch)) units += 0.72;
    else if (ch === ' ') units += 0.34;
    else units += 0.6;
  }
  return units * fontSize * (bold ? 1.06 : 1) + letterSpacing * Math.max(0, [...s].length - 1);
}

/** One line of text that stays inside `max` units: the font shrinks (down to 60 %), then the text is cut with an ellipsis. */
function text(
  s: string,
  o: {
    x: number;
    y: number;
    size: number;
    weight: number;
    cls: string;
    max: number;
    anchor?: 'start' | 'middle';
    spacing?: number;
  },
): string {
  const bold = o.weight >= 600;
  let size = o.size;
  let line = s;
  const spacingTotal = (o.spacing ?? 0) * Math.max(0, [...s].length - 1);
  const w = textWidth(line, size, bold, o.spacing ?? 0);
  if (w > o.max) {
    size = Math.max(o.size * 0.6, (o.size * (o.max - spacingTotal)) / (w - spacingTotal) - 0.01);
    const chars = [...s];
    while (chars.length > 1 && textWidth(line, size, bold, o.spacing ?? 0) > o.max + 0.01) {
      chars.pop();
      line = chars.join('').trimEnd() + '…';
    }
  }
  const spacing = o.spacing ? ` letter-spacing="${o.spacing}"` : '';
  const anchor = o.anchor === 'middle' ? ' text-anchor="middle"' : '';
  return `<text class="${o.cls}" x="${o.x}" y="${o.y}" font-size="${+size.toFixed(2)}" font-weight="${o.weight}"${spacing}${anchor}>${escapeXml(line)}</text>`;
}

/** The round mark: the accent disc with a glyph (an upward chevron, a check, a star or the award rank). */
function mark(kind: BadgeKind, cx: number, cy: number, r: number): string {
  const k = r / 15;
  const p = (x: number, y: number) => `${+(cx + x * k).toFixed(2)} ${+(cy + y * k).toFixed(2)}`;
  let glyph: string;
  const rank = awardRankOf(kind);
  if (rank)
    glyph = `<text x="${cx}" y="${+(cy + 6 * k).toFixed(2)}" font-size="${+(17 * k).toFixed(2)}" font-weight="800" text-anchor="middle" fill="#FFFFFF">${rank}</text>`;
  else if (kind === 'verified')
    glyph = `<path d="M${p(-6, 0)} L${p(-1.5, 5)} L${p(7, -5)}" fill="none" stroke="#FFFFFF" stroke-width="${+(3 * k).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round"/>`;
  else if (kind === 'featured')
    glyph = `<path d="M${p(0, -8)} L${p(2.4, -2.6)} L${p(8, -2.4)} L${p(3.7, 1.3)} L${p(5, 7)} L${p(0, 3.9)} L${p(-5, 7)} L${p(-3.7, 1.3)} L${p(-8, -2.4)} L${p(-2.4, -2.6)} Z" fill="#FFFFFF"/>`;
  else
    glyph = `<path d="M${p(-6.5, 4)} L${p(0, -3)} L${p(6.5, 4)}" fill="none" stroke="#FFFFFF" stroke-width="${+(3.2 * k).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round"/><path d="M${p(-4, 8)} L${p(4, 8)}" stroke="#FFFFFF" stroke-width="${+(2.4 * k).toFixed(2)}" stroke-linecap="round"/>`;
  return `<circle class="acc" cx="${cx}" cy="${cy}" r="${r}"/>${glyph}`;
}

function styleBlock(mode: BadgeMode, accent: string, outline: boolean): string {
  const rules = (p: Palette) =>
    `.bg{fill:${outline ? 'none' : p.bg}}.bd{fill:none;stroke:${outline ? accent : p.border}}.cap{fill:${p.caption}}.ttl{fill:${p.title}}`;
  const base = `text{font-family:${FONT_STACK}}.acc{fill:${accent}}`;
  if (mode === 'light') return `<style>${base}${rules(LIGHT)}</style>`;
  if (mode === 'dark') return `<style>${base}${rules(DARK)}</style>`;
  return `<style>${base}${rules(LIGHT)}@media (prefers-color-scheme: dark){${rules(DARK)}}</style>`;
}

export interface RenderBadgeInput extends BadgeStyle {
  kind: BadgeKind;
  /** The listing's name, shown on the banner shape (escaped). */
  listingName: string;
}

/** A complete, standalone SVG document for one badge. */
export function renderBadgeSvg(input: RenderBadgeInput): string {
  const { kind, shape, mode, size } = input;
  const t = badgeText(kind);
  const { w, h } = BASE[shape];
  const { width, height } = badgeDimensions(shape, size);
  const accent = accentOf(kind);
  const outline = shape === 'outline';
  const label = `${t.sentence}: ${input.listingName}`;
  const parts: string[] = [];
  const frame = (rx: number) =>
    `<rect class="bg" x="1" y="1" width="${w - 2}" height="${h - 2}" rx="${rx}"/><rect class="bd" x="1" y="1" width="${w - 2}" height="${h - 2}" rx="${rx}" stroke-width="${outline ? 2 : 1}"/>`;
  switch (shape) {
    case 'standard':
    case 'outline':
      parts.push(frame(10), mark(kind, 28, 27, 16));
      parts.push(text(t.caption, { x: 54, y: 22, size: 9.5, weight: 600, cls: 'cap', max: w - 66, spacing: 0.8 }));
      parts.push(text(t.title, { x: 54, y: 42, size: 19, weight: 700, cls: 'ttl', max: w - 66 }));
      break;
    case 'pill':
      parts.push(frame(19), mark(kind, 21, 20, 13));
      parts.push(text(t.sentence, { x: 42, y: 25, size: 14, weight: 600, cls: 'ttl', max: w - 56 }));
      break;
    case 'banner': {
      parts.push(frame(12), mark(kind, 33, 32, 20));
      parts.push(
        text(
          `${t.caption}${t.title === SITE_NAME ? ' ' + SITE_NAME.toUpperCase() : ' · #' + (awardRankOf(kind) ?? '') + ' ON ' + SITE_NAME.toUpperCase()}`,
          { x: 66, y: 25, size: 10, weight: 600, cls: 'cap', max: w - 80, spacing: 0.8 },
        ),
      );
      parts.push(text(input.listingName, { x: 66, y: 47, size: 20, weight: 700, cls: 'ttl', max: w - 80 }));
      break;
    }
    case 'square': {
      const rank = awardRankOf(kind);
      parts.push(frame(18), mark(kind, 64, 46, 24));
      parts.push(
        text(t.caption, {
          x: 64,
          y: 89,
          size: 8.5,
          weight: 600,
          cls: 'cap',
          max: w - 16,
          anchor: 'middle',
          spacing: 0.5,
        }),
      );
      parts.push(
        text(rank ? `#${rank}` : t.title, {
          x: 64,
          y: 110,
          size: rank ? 20 : 16,
          weight: 700,
          cls: 'ttl',
          max: w - 16,
          anchor: 'middle',
        }),
      );
      break;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeXml(label)}"><title>${escapeXml(label)}</title>${styleBlock(mode, accent, outline)}${parts.join('')}</svg>`;
}

/** Public page of a listing. */
export function listingPageUrl(publicUrl: string, slug: string): string {
  return `${publicUrl.replace(/\/$/, '')}/listings/${slug}`;
}

/** URL of a badge image: GET /badges/{slug}/{badge}.svg?shape=&mode=&size= */
export function badgeSvgUrl(publicUrl: string, slug: string, kind: BadgeKind, style: BadgeStyle): string {
  return `${publicUrl.replace(/\/$/, '')}/badges/${slug}/${kind}.svg?shape=${style.shape}&mode=${style.mode}&size=${style.size}`;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Where a badge links: `href` when given (an award badge: the award's verification page), else the listing page, with ?ref=badge. */
function badgeHref(o: { publicUrl: string; slug: string; href?: string }): string {
  return `${o.href ?? listingPageUrl(o.publicUrl, o.slug)}?ref=badge`;
}

/**
 * Ready-to-paste HTML: a link to the listing page (or `href`, ?ref=badge) around the image. In `auto` mode a
 * <picture> serves the dark image when the visitor prefers a dark colour scheme, the light one otherwise.
 */
export function badgeEmbedHtml(
  o: { publicUrl: string; slug: string; kind: BadgeKind; listingName: string; href?: string } & BadgeStyle,
): string {
  const { width, height } = badgeDimensions(o.shape, o.size);
  const href = badgeHref(o);
  const alt = `${badgeText(o.kind).sentence}: ${o.listingName}`;
  const img = (mode: BadgeMode) =>
    `<img src="${escapeAttr(badgeSvgUrl(o.publicUrl, o.slug, o.kind, { ...o, mode }))}" alt="${escapeAttr(alt)}" width="${width}" height="${height}" style="border:0">`;
  const inner =
    o.mode === 'auto'
      ? `<picture><source media="(prefers-color-scheme: dark)" srcset="${escapeAttr(badgeSvgUrl(o.publicUrl, o.slug, o.kind, { ...o, mode: 'dark' }))}">${img('light')}</picture>`
      : img(o.mode);
  return `<a href="${escapeAttr(href)}" target="_blank" rel="noopener" title="${escapeAttr(alt)}">${inner}</a>`;
}

/** Markdown form (for READMEs): a linked image. */
export function badgeMarkdown(
  o: { publicUrl: string; slug: string; kind: BadgeKind; listingName: string; href?: string } & BadgeStyle,
): string {
  const alt = `${badgeText(o.kind).sentence}: ${o.listingName}`.replace(/[[\]]/g, '');
  return `[![${alt}](${badgeSvgUrl(o.publicUrl, o.slug, o.kind, o)})](${badgeHref(o)})`;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/gi, '&')
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&sol;/gi, '/')
    .replace(/&colon;/gi, ':');
}

/**
 * True when a homepage's HTML links to our page of this listing or embeds one of its badge images
 * (any scheme; `www.` ignored; comments and scripts ignored). Used by the free-listing badge check.
 */
export function homepageHasBadge(html: string, publicUrl: string, slug: string): boolean {
  let base: URL;
  try {
    base = new URL(publicUrl);
  } catch {
    return false;
  }
  const host = base.host.toLowerCase().replace(/^www\./, '');
  const prefix = base.pathname.replace(/\/$/, '').toLowerCase();
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = `^(?:https?:)?//(?:www\\.)?${esc(host)}${esc(prefix)}`;
  const page = new RegExp(`${at}/listings/${esc(slug)}(?:[/?#]|$)`);
  const image = new RegExp(`${at}/badges/${esc(slug)}/[a-z0-9_]+\\.svg(?:[?#]|$)`);
  const cleaned = html.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<script\b[\s\S]*?<\/script\s*>/gi, ' ');
  const attr = /<(a|img|source|link|area)\b[^>]*?>/gi;
  const value = /\s(href|src|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
  for (const tag of cleaned.matchAll(attr)) {
    const name = tag[1].toLowerCase();
    for (const m of tag[0].matchAll(value)) {
      const key = m[1].toLowerCase();
      const raw = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '').trim();
      const candidates = key === 'srcset' ? raw.split(',').map((c) => c.trim().split(/\s+/)[0]) : [raw];
      for (const c of candidates) {
        const v = c.toLowerCase();
        if (key === 'href' && (name === 'a' || name === 'area') && page.test(v)) return true;
        if ((key === 'src' || key === 'srcset') && (name === 'img' || name === 'source') && image.test(v)) return true;
      }
    }
  }
  return false;
}
