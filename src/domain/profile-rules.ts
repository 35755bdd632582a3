// Rules for the profile values people type (drafts and listing edits alike). Pure: each check returns
// the normalised value, or an error message naming the rule.
import { z } from 'zod';

export const VIDEO_HOSTS: readonly string[] = [
  'youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'loom.com',
  'wistia.com',
  'wistia.net',
  'wi.st',
  'vidyard.com',
  'dailymotion.com',
  'dai.ly',
  'tiktok.com',
  'twitch.tv',
  'streamable.com',
  'descript.com',
  'tella.tv',
  'screencast.com',
  'bilibili.com',
];
const NON_COUNTRY = new Set(['EU', 'EZ', 'UN', 'QO', 'AA', 'ZZ']);
// Made on first use: an Intl.DisplayNames costs ~25 ms to create (ICU data), a share of a cold start.
let regions: Intl.DisplayNames | undefined;
const regionNames = (): Intl.DisplayNames => (regions ??= new Intl.DisplayNames(['en'], { type: 'region' }));
const EMAIL = z.email();

export type Rule<T = string> = { ok: true; value: T } | { ok: false; message: string };

/** An http(s) URL with a dotted host name, or null. */
export function httpUrl(s: string, httpsOnly = false): URL | null {
  try {
    const u = new URL(s);
    if (u.protocol !== 'https:' && (httpsOnly || u.protocol !== 'http:')) return null;
    return u.hostname.includes('.') ? u : null;
  } catch {
    return null;
  }
}

export function hostMatches(host: string, list: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/^www\./, '');
  return list.some((d) => h === d || h.endsWith(`.${d}`));
}

export function countryRule(t: string): Rule {
  const c = t.trim().toUpperCase();
  if (
    !/^[A-Z]{2}$/.test(c) ||
    NON_COUNTRY.has(c) ||
    regionNames().of(c) === c ||
    regionNames().of(c) === 'Unknown Region'
  ) {
    return { ok: false, message: 'must be a two-letter ISO 3166-1 country code, e.g. DE or US' };
  }
  return { ok: true, value: c };
}

export function emailRule(t: string): Rule {
  const v = t.trim();
  return v.length <= 254 && EMAIL.safeParse(v).success
    ? { ok: true, value: v }
    : { ok: false, message: 'must be a valid email address, e.g. hello@example.com' };
}

export function videoUrlRule(t: string): Rule {
  const u = httpUrl(t.trim(), true);
  return u && hostMatches(u.hostname, VIDEO_HOSTS)
    ? { ok: true, value: t.trim() }
    : {
        ok: false,
        message: 'must be an https link to a video site (YouTube, Vimeo, Loom, Wistia, Vidyard, Dailymotion…)',
      };
}

/** The profile fields with a rule beyond "a string", and their rule (used by update_draft and update_my_listing). */
export const FIELD_RULES: Readonly<Record<'country' | 'contact_email' | 'demo_video_url', (t: string) => Rule>> = {
  country: countryRule,
  contact_email: emailRule,
  demo_video_url: videoUrlRule,
};
