// A tiny cookie-keeping HTTP client for driving the website and the OAuth flow without a browser.
import * as cheerio from 'cheerio';

interface Cookie {
  name: string;
  value: string;
  path: string;
  expires: number;
}

export class Browser {
  readonly base: string;
  cookies: Cookie[] = [];
  constructor(base: string) {
    this.base = base.replace(/\/$/, '');
  }

  cookieHeader(url: URL): string {
    const now = Date.now();
    this.cookies = this.cookies.filter((c) => c.expires > now);
    return this.cookies
      .filter(
        (c) =>
          url.pathname === c.path ||
          url.pathname.startsWith(c.path.endsWith('/') ? c.path : c.path + '/') ||
          c.path === '/',
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  cookie(name: string): string | undefined {
    return this.cookies.find((c) => c.name === name)?.value;
  }

  store(res: Response, url: URL): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
      let expires = Infinity;
      for (const a of attrs) {
        const [k, v = ''] = a.split('=');
        const key = k.toLowerCase();
        if (key === 'path') path = v || '/';
        else if (key === 'max-age') expires = Date.now() + Number(v) * 1000;
        else if (key === 'expires' && expires === Infinity) expires = Date.parse(v);
      }
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (expires > Date.now() && value !== '') this.cookies.push({ name, value, path, expires });
    }
  }

  /** One request, no redirect following. */
  async request(url: string, init: RequestInit & { form?: Record<string, string | string[]> } = {}): Promise<Response> {
    const u = new URL(url, this.base);
    const headers = new Headers(init.headers);
    const ch = this.cookieHeader(u);
    if (ch) headers.set('cookie', ch);
    let body = init.body;
    if (init.form) {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(init.form)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
      body = p.toString();
      headers.set('content-type', 'application/x-www-form-urlencoded');
    }
    const res = await fetch(u, {
      ...init,
      body,
      headers,
      redirect: 'manual',
      method: init.method ?? (init.form ? 'POST' : 'GET'),
    });
    this.store(res, u);
    return res;
  }

  /** Follows redirects within our site; stops at the first response that is not a redirect or leaves the site. */
  async go(
    url: string,
    init: RequestInit & { form?: Record<string, string | string[]> } = {},
  ): Promise<{ res: Response; url: string; text: string }> {
    let res = await this.request(url, init);
    let at = new URL(url, this.base).href;
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400; i++) {
      const next = new URL(res.headers.get('location')!, at).href;
      await res.arrayBuffer();
      if (!next.startsWith(this.base + '/')) return { res, url: next, text: '' };
      at = next;
      res = await this.request(next);
    }
    return { res, url: at, text: await res.text() };
  }
}

export function csrfOf(htmlText: string, formAction?: string): string {
  const $ = cheerio.load(htmlText);
  const form = formAction ? $(`form[action="${formAction}"]`).first() : $('main form').first();
  const v = form.find('input[name=_csrf]').attr('value');
  if (!v) throw new Error(`no CSRF token in form ${formAction ?? '(first)'}`);
  return v;
}

export function $(htmlText: string) {
  return cheerio.load(htmlText);
}
