/**
 * logo_url and demo_video_url.
 *
 * Logo, in order: JSON-LD Organization/Brand logo; <meta property="og:logo"> / itemprop=logo; an
 * <img> that says it is the site's logo (id/class/alt/src with "logo", in the header or linking
 * home, named after the product; third-party and sponsor logos excluded); og:image / twitter:image
 * only when the file name says logo and not client/partner/customer logos. A favicon or touch icon
 * is never a logo. The value is the absolute URL; the evidence quote is the attribute value.
 *
 * Demo video: embeds and links on video sites (YouTube, Vimeo, Loom, Wistia) — iframes, Wistia
 * async embeds, og:video, JSON-LD VideoObject, and links whose text says demo/video/tour — on the
 * home page and product pages. Decorative <video> files are not video-site links and are ignored.
 */
import type { Element } from 'domhandler';
import { ev, type Ctx } from './context.ts';
import { metaContent, normalizeSpace, resolveUrl, textOf } from './html.ts';
import { docOrder, inChrome, inNav, jsonLdTypes, precedingHeading, type ParsedPage } from './page.ts';
import { squash } from './text.ts';
import { found, notFound, type Evidence, type FieldDraft } from './types.ts';

const THIRD_PARTY_LOGO =
  /\b(?:github|gitlab|twitter|x-logo|facebook|linkedin|instagram|youtube|discord|slack|apple|google|microsoft|android|app-?store|play-?store|producthunt|product-?hunt|hacker-?news|stripe|paypal|patreon|ko-?fi|opencollective|visa|mastercard|powered|badge|shields\.io)\b/i;
const FOREIGN_CONTEXT =
  /\b(?:sponsor\w*|partners?|customers?|clients?|trusted by|used by|as seen|featured|press|media|integrations?|backers?|investors?|awards?|testimonials?|logos)\b/i;

function firstImageUrl(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return firstImageUrl(v[0]);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.url === 'string') return o.url;
    if (typeof o.contentUrl === 'string') return o.contentUrl;
  }
  return null;
}

export function extractLogo(ctx: Ctx): FieldDraft<string> {
  const home = ctx.home;
  const $ = home.$;
  const name = ctx.name ? squash(ctx.name) : '';
  const mk = (raw: string, page: ParsedPage = home): FieldDraft<string> | null => {
    const abs = resolveUrl(raw, page.url);
    return abs ? found(abs, [ev(page, raw.trim())]) : null;
  };

  for (const n of home.jsonld) {
    if (!jsonLdTypes(n).some((t) => /Organization|Corporation|Brand|LocalBusiness|NGO|OnlineBusiness/.test(t)))
      continue;
    const logo = firstImageUrl(n.logo);
    if (logo) {
      const r = mk(logo);
      if (r) return r;
    }
  }
  const ogLogo = metaContent($, 'og:logo');
  if (ogLogo) {
    const r = mk(ogLogo);
    if (r) return r;
  }
  const itemLogo = $('[itemprop="logo"]').first();
  const itemLogoSrc = itemLogo.attr('src') ?? itemLogo.attr('content') ?? itemLogo.attr('href');
  if (itemLogoSrc) {
    const r = mk(itemLogoSrc);
    if (r) return r;
  }

  // <img> logos
  let best: { src: string; score: number } | null = null;
  $('img[src], img[data-src]').each((_, node) => {
    const el = node as Element;
    const img = $(el);
    const src = (img.attr('src') || img.attr('data-src') || '').trim();
    if (!src || src.startsWith('data:')) return;
    const alt = normalizeSpace(img.attr('alt') ?? '');
    const idc = `${img.attr('id') ?? ''} ${img.attr('class') ?? ''}`;
    const parentIdc = ($(el).parents().toArray() as Element[])
      .slice(0, 3)
      .map((p) => `${p.attribs?.id ?? ''} ${p.attribs?.class ?? ''}`)
      .join(' ');
    const file = src.split(/[?#]/)[0].split('/').pop() ?? '';
    const saysLogo =
      /logo|brand/i.test(idc) || /logo/i.test(alt) || /logo/i.test(file) || /\b(?:logo|brand)\b/i.test(parentIdc);
    if (!saysLogo) return;
    let score = 0;
    if (/logo/i.test(idc)) score += 1.5;
    if (/logo/i.test(alt)) score += 1;
    if (/logo/i.test(file)) score += 1;
    // a file of the site's own named just "logo" is the site's logo wherever the page shows it
    const own = (() => {
      try {
        return new URL(src, home.url).host === new URL(home.url).host;
      } catch {
        return false;
      }
    })();
    if (
      own &&
      /^logo(?:[-_.@](?:\d+x|small|large|dark|light|white|black|color|colour|full|main))*\.(?:png|svg|webp|jpe?g|gif|avif)$/i.test(
        file,
      )
    )
      score += 1;
    if (/\b(?:logo|brand|navbar-brand|site-title)\b/i.test(parentIdc)) score += 1;
    // the top of the page: the header landmark, navigation, or anything before the first heading
    const firstHeading = $('h1, h2').first().get(0) as Element | undefined;
    const inHeader =
      $(el).closest('header, [role="banner"]').length > 0 ||
      inNav($, el) ||
      (firstHeading !== undefined && docOrder(home, el) < docOrder(home, firstHeading));
    if (inHeader) score += 1.5;
    const link = $(el).closest('a[href]');
    if (link.length) {
      const href = resolveUrl(link.attr('href'), home.url);
      if (
        href &&
        new URL(href).pathname.replace(/index\.html?$/, '') === '/' &&
        new URL(href).host === new URL(home.url).host
      )
        score += 2;
      else if (href && new URL(href).host !== new URL(home.url).host) score -= 2;
    }
    if (name && (squash(alt).includes(name) || squash(file).includes(name))) score += 2;
    if (THIRD_PARTY_LOGO.test(file) || THIRD_PARTY_LOGO.test(alt)) score -= 4;
    const heading = precedingHeading($, el);
    if (FOREIGN_CONTEXT.test(parentIdc) || (heading && FOREIGN_CONTEXT.test(textOf(heading.get(0))))) score -= 4;
    if (name && alt && /logo/i.test(alt) && !squash(alt).includes(name) && squash(alt).replace(/logo$/, '').length > 2)
      score -= 2;
    if (!best || score > best.score) best = { src, score };
  });
  const b = best as { src: string; score: number } | null;
  if (b && b.score >= 2) {
    const r = mk(b.src);
    if (r) return r;
  }

  // og:image only when it is clearly a logo
  for (const key of ['og:image', 'og:image:url', 'twitter:image', 'twitter:image:src']) {
    const v = metaContent($, key);
    if (!v) continue;
    const file = v.split(/[?#]/)[0].split('/').pop() ?? '';
    if (
      /logo/i.test(file) &&
      !/clients?|customers?|partners?|sponsors?|logos|[-_]bar\b|strip|wall|cloud|collage/i.test(file)
    ) {
      const r = mk(v);
      if (r) return r;
    }
  }
  // a favicon or a touch icon is an icon, not the logo: never drafted as logo_url
  return notFound<string>();
}

// ---------------------------------------------------------------------------------------------

const VIDEO_URL =
  /^https?:\/\/(?:(?:www\.|m\.)?youtube(?:-nocookie)?\.com\/(?:embed\/|watch\?|v\/|shorts\/|live\/)|youtu\.be\/|(?:player\.)?vimeo\.com\/(?:video\/)?\d+|(?:www\.)?loom\.com\/(?:share|embed)\/|(?:fast\.)?wistia\.(?:com|net)\/(?:embed\/)?(?:medias|iframe)\/|[\w-]+\.wistia\.com\/medias\/|(?:www\.)?dailymotion\.com\/(?:embed\/)?video\/|(?:www\.)?tella\.tv\/video\/|(?:app\.)?arcade\.software\/|(?:www\.)?youtube\.com\/playlist\?)/i;
const DEMO_WORDS =
  /\b(?:demo|video|watch|tour|walkthrough|walk-through|see (?:it|how)|in action|how it works|overview|trailer|intro(?:duction)?|screencast|tutorial|showcase)\b/i;

export function extractDemoVideo(ctx: Ctx): FieldDraft<string> {
  const pages = ctx.pages.filter(
    (p) => p.isHome || p.kind === 'features' || p.kind === 'about' || p.kind === 'why' || p.kind === 'other',
  );
  for (const page of pages) {
    const $ = page.$;
    const hits: Array<{ url: string; evidence: Evidence; score: number }> = [];
    $('iframe[src], iframe[data-src], embed[src]').each((_, node) => {
      const el = node as Element;
      const raw = ($(el).attr('src') || $(el).attr('data-src') || '').trim();
      const abs = resolveUrl(raw, page.url);
      if (!abs || !VIDEO_URL.test(abs)) return;
      if (inChrome($, el)) return;
      hits.push({ url: abs, evidence: ev(page, raw), score: 3 });
    });
    // Wistia async embeds: class="wistia_embed wistia_async_<id>"
    $('[class*="wistia_async_"]').each((_, node) => {
      const cls = $(node).attr('class') ?? '';
      const m = /wistia_async_([a-z0-9]+)/i.exec(cls);
      if (m)
        hits.push({
          url: `https://fast.wistia.com/embed/medias/${m[1]}`,
          evidence: ev(page, `wistia_async_${m[1]}`),
          score: 3,
        });
    });
    // Lazy YouTube embeds: <lite-youtube videoid="…">, data-youtube-id / data-video-id on players
    $('lite-youtube[videoid], [data-youtube-id], [data-yt-id]').each((_, node) => {
      const id = (
        $(node).attr('videoid') ||
        $(node).attr('data-youtube-id') ||
        $(node).attr('data-yt-id') ||
        ''
      ).trim();
      if (/^[\w-]{6,20}$/.test(id) && !inChrome($, node as Element))
        hits.push({ url: `https://www.youtube.com/watch?v=${id}`, evidence: ev(page, id), score: 3 });
    });
    const ogVideo = metaContent($, 'og:video', 'og:video:url', 'og:video:secure_url', 'twitter:player');
    if (ogVideo && VIDEO_URL.test(ogVideo)) hits.push({ url: ogVideo, evidence: ev(page, ogVideo), score: 2.5 });
    for (const n of page.jsonld) {
      if (!jsonLdTypes(n).includes('VideoObject')) continue;
      for (const k of ['embedUrl', 'contentUrl', 'url']) {
        const v = n[k];
        if (typeof v === 'string' && VIDEO_URL.test(v)) hits.push({ url: v, evidence: ev(page, v), score: 2.5 });
      }
    }
    $('a[href]').each((_, node) => {
      const el = node as Element;
      const raw = ($(el).attr('href') ?? '').trim();
      const abs = resolveUrl(raw, page.url);
      if (!abs || !VIDEO_URL.test(abs) || inChrome($, el)) return;
      const context = `${textOf(el)} ${$(el).attr('title') ?? ''} ${$(el).attr('aria-label') ?? ''} ${textOf(el.parent as Element)}`;
      if (!DEMO_WORDS.test(context)) return;
      hits.push({ url: abs, evidence: ev(page, raw), score: 2 });
    });
    if (hits.length) {
      hits.sort((a, b) => b.score - a.score);
      return found(hits[0].url, [hits[0].evidence]);
    }
  }
  return notFound<string>();
}
