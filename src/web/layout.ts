// The shared page shell of the website: an HTML-escaping tagged template and a plain, accessible
// layout (skip link, landmarks, one <h1> per page, labelled forms). Every page of the site uses it.
//
//   html`<p>${userText}</p>`          → userText is escaped
//   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`  → arrays are joined, nested html kept
//   raw(trustedMarkup)                 → inserted as is (only for markup we produced ourselves)
import { hash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { documentHeaders } from './security-headers.ts';

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};
const SPECIAL = /[&<>"'`]/;
/** Most text has nothing to escape: it is tested first (no copy, no callback per match). */
export function escapeHtml(s: string): string {
  return SPECIAL.test(s) ? s.replace(/[&<>"'`]/g, (c) => ESCAPES[c]) : s;
}

function fragment(v: unknown): string {
  if (v === null || v === undefined || v === false || v === true) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(fragment).join('');
  return escapeHtml(String(v));
}

/** Tagged template: interpolated values are escaped unless they are SafeHtml; arrays are joined. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += fragment(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Marks markup we produced ourselves as safe. Never pass user input here. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** A link is only rendered for http(s) and site-relative URLs (no javascript: or data:). */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export interface PageUser {
  name: string;
  email: string;
  role: 'user' | 'admin';
}

export interface PageOptions {
  title: string;
  /** <meta name="description"> */
  description?: string;
  /** The signed-in person (header shows Account and Sign out) or null. */
  user?: PageUser | null;
  /** CSRF token for the header's sign-out form (and available to page forms via csrfField). */
  csrf?: string;
  /** A notice shown above the content. */
  flash?: { kind: 'info' | 'error' | 'success'; text: string | SafeHtml } | null;
  canonical?: string;
  noindex?: boolean;
  /** Which nav item is current (its href). */
  current?: string;
  head?: SafeHtml;
  /** A narrow single-column page (forms). */
  narrow?: boolean;
  /** Put in place of the header's account area (a page rendered for the shared cache: web/personal.ts). */
  meSlot?: SafeHtml;
  /** Where the page's forms may lead on to besides this site (CSP form-action): the OAuth client's redirect origin. */
  formAction?: readonly string[];
}

export const NAV: ReadonlyArray<{ href: string; label: string }> = [
  { href: '/launches', label: 'Launches' },
  { href: '/categories', label: 'Categories' },
  { href: '/leaderboards/community-weekly', label: 'Leaderboards' },
  { href: '/updates', label: 'Updates' },
  { href: '/founders', label: 'Founders' },
  { href: '/blog', label: 'Blog' },
  { href: '/docs', label: 'API' },
];

export function csrfField(token: string | undefined): SafeHtml {
  return token ? html`<input type="hidden" name="_csrf" value="${token}">` : html``;
}

// Nothing may widen the page past a narrow screen: long words wrap (overflow-wrap), and tables scroll
// inside themselves below 640 px — position:relative keeps their absolutely positioned .sr-only texts
// inside that scroll box (otherwise they stand where the cell is and widen the page).
const STYLE = `
:root{--fg:#1a1a1a;--muted:#555;--bg:#fff;--line:#d8d8d8;--accent:#0b57d0;--err:#a50e0e;--ok:#146c2e;--soft:#f4f6f8}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:break-word}
a{color:var(--accent)}
a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #ffbf47;outline-offset:1px}
.skip{position:absolute;left:-9999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:10}
header.site{border-bottom:1px solid var(--line);background:var(--soft)}
header.site .bar{max-width:1040px;margin:0 auto;padding:10px 16px;display:flex;flex-wrap:wrap;gap:12px 24px;align-items:center}
header.site .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
header.site nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px}
header.site nav a[aria-current=page]{font-weight:700}
header.site .me{margin-left:auto;display:flex;gap:12px;align-items:center}
header.site .me form{margin:0}
main{max-width:1040px;margin:0 auto;padding:24px 16px 48px}
main.narrow{max-width:560px}
footer.site{border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
footer.site div{max-width:1040px;margin:0 auto;padding:16px}
.flash{padding:10px 14px;border-radius:6px;margin:0 0 20px;border:1px solid}
.flash.info{background:#eef3fd;border-color:#b6cbf5}.flash.error{background:#fdecea;border-color:#f1b0aa;color:var(--err)}.flash.success{background:#e8f5ec;border-color:#a8d5b5;color:var(--ok)}
form.stack{display:grid;gap:14px;max-width:480px}
label{font-weight:600;display:block;margin-bottom:4px}
.hint{color:var(--muted);font-size:.9rem;font-weight:400}
.field-error{color:var(--err);font-size:.9rem}
input[type=text],input[type=email],input[type=password],select,textarea{width:100%;padding:8px 10px;border:1px solid #8a8a8a;border-radius:4px;font:inherit}
fieldset{border:1px solid var(--line);border-radius:6px;padding:10px 14px}
legend{font-weight:600;padding:0 4px}
button,.button{font:inherit;padding:8px 16px;border-radius:4px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:#fff;color:var(--err);border-color:var(--err)}
button.link{background:none;border:none;color:var(--accent);padding:0;text-decoration:underline}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:8px;border-bottom:1px solid var(--line);vertical-align:top}
@media (max-width:640px){main table{display:block;overflow-x:auto;position:relative}}
code,.secret{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}
.secret{display:block;padding:10px;background:var(--soft);border:1px solid var(--line);border-radius:4px;word-break:break-all;user-select:all}
.actions{display:flex;gap:12px;flex-wrap:wrap;align-items:center}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`;

/**
 * The base styles as a stylesheet of their own (served at /assets/base.css, web/pages/shared.ts ASSETS):
 * linked from every page under a versioned address, so a browser fetches them once and keeps them,
 * rather than each page carrying them again (a quarter of a listing page's bytes when they were inline).
 */
export const BASE_CSS: { body: Buffer; type: string; version: string } = (() => {
  const body = Buffer.from(STYLE.trimStart());
  return { body, type: 'text/css; charset=utf-8', version: hash('sha1', body, 'hex').slice(0, 10) };
})();
const BASE_CSS_LINK = `<link rel="stylesheet" href="/assets/base.css?v=${BASE_CSS.version}">`;

/** The header's account area: Sign in / Sign up, or the person's links and the Sign out form. */
export function renderMe(user: PageUser | null, csrf: string | undefined, current: string | undefined): SafeHtml {
  // Makers start here; signed out, the link signs the person in first and comes back to /submit.
  const submit = html`<a href="${user ? '/submit' : '/sign-in?next=%2Fsubmit'}"${current === '/submit' ? raw(' aria-current="page"') : ''}>Submit a product</a>`;
  return user
    ? html`${submit}${user.role === 'admin' ? html`<a href="/admin"${current === '/admin' ? raw(' aria-current="page"') : ''}>Admin</a>` : ''}<a href="/account">${user.name || user.email}</a>
        <form method="post" action="/sign-out">${csrfField(csrf)}<button type="submit" class="link">Sign out</button></form>`
    : html`${submit} <a href="/sign-in">Sign in</a> <a href="/sign-up" class="button secondary">Sign up</a>`;
}

export function renderPage(opts: PageOptions, body: SafeHtml): string {
  const nav = NAV.map(
    (n) =>
      html`<li><a href="${n.href}"${opts.current === n.href ? raw(' aria-current="page"') : ''}>${n.label}</a></li>`,
  );
  const me = opts.meSlot ?? renderMe(opts.user ?? null, opts.csrf, opts.current);
  const flash = opts.flash
    ? html`<div class="flash ${opts.flash.kind}" role="${opts.flash.kind === 'error' ? 'alert' : 'status'}">${opts.flash.text}</div>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · Launchlist</title>
${opts.description ? html`<meta name="description" content="${opts.description}">` : ''}
${opts.canonical ? html`<link rel="canonical" href="${opts.canonical}">` : ''}
${opts.noindex ? html`<meta name="robots" content="noindex">` : ''}
${raw(BASE_CSS_LINK)}
${opts.head ?? ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="bar">
<a class="brand" href="/">Launchlist</a>
<nav aria-label="Main"><ul>${nav}</ul></nav>
<div class="me">${me}</div>
</div></header>
<main id="main" tabindex="-1"${opts.narrow ? raw(' class="narrow"') : ''}>
${flash}
${body}
</main>
<footer class="site"><div>Launchlist — a launch directory and launch calendar. <a href="/docs">API</a> · <a href="/api/v1/openapi.json">OpenAPI</a> · <a href="/how-ranking-works">How ranking works</a></div></footer>
</body>
</html>`.value;
}

/** Sends a full page. Pages that show personal data are never cached by shared caches. */
export function sendPage(reply: FastifyReply, opts: PageOptions, body: SafeHtml, status = 200): FastifyReply {
  reply.header('Cache-Control', opts.user ? 'private, no-store' : 'no-cache');
  documentHeaders(reply, { formAction: opts.formAction }); // CSP (frame-ancestors, form-action), X-Frame-Options, Referrer-Policy …
  return reply.code(status).type('text/html; charset=utf-8').send(renderPage(opts, body));
}
