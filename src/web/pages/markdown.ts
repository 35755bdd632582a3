// A tiny, safe Markdown renderer for blog posts. It knows headings, paragraphs, lists, block quotes,
// fenced code, tables (GitHub style), horizontal rules, links, emphasis and inline code. Every piece
// of text is escaped: raw HTML in a post shows as text, never as markup, and links are kept only
// when they are http(s) URLs.
import { escapeHtml, raw, type SafeHtml } from '../layout.ts';

export interface MarkdownOptions {
  /** Markdown "#" becomes this heading level (default 2: the page's <h1> is the post title). */
  topLevel?: number;
  /** Leaves out a first "# heading" equal to this text (the title already shown). */
  dropTitle?: string;
}

/** An http(s) URL, or null. */
export function httpUrl(s: string): string | null {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function emphasis(escaped: string): string {
  return escaped
    .replace(/\*\*(?=\S)([^*]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w*])__(?=\S)([^_]*?\S)__(?=[^\w]|$)/g, '$1<strong>$2</strong>')
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?=[^\w*]|$)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?=[^\w]|$)/g, '$1<em>$2</em>');
}

const INLINE = /`([^`]+)`|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\)/g;

/** Inline Markdown → safe HTML. */
export function inline(src: string): string {
  let out = '';
  let last = 0;
  const re = new RegExp(INLINE.source, 'g');
  for (let m = re.exec(src); m; m = re.exec(src)) {
    out += emphasis(escapeHtml(src.slice(last, m.index)));
    if (m[1] !== undefined) out += `<code>${escapeHtml(m[1])}</code>`;
    else {
      const href = httpUrl(m[3]);
      const label = inline(m[2]);
      out += href ? `<a href="${escapeHtml(href)}" rel="nofollow noopener">${label}</a>` : label;
    }
    last = m.index + m[0].length;
  }
  return out + emphasis(escapeHtml(src.slice(last)));
}

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
const isTableRule = (line: string) => /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);
const LIST_ITEM = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;

/** Block Markdown → safe HTML. */
export function renderMarkdown(md: string, opts: MarkdownOptions = {}): SafeHtml {
  const top = opts.topLevel ?? 2;
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  let first = true;
  let shift = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const isFirst = first;
    first = false;

    const fence = /^\s{0,3}(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) body.push(lines[i++]);
      i++;
      out.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      i++;
      if (isFirst && h[1].length === 1 && opts.dropTitle !== undefined && h[2].trim() === opts.dropTitle.trim()) {
        shift = 1; // the title is shown by the page: "##" sections become the top level
        continue;
      }
      const level = Math.min(6, Math.max(top, h[1].length - 1 - shift + top));
      out.push(`<h${level}>${inline(h[2])}</h${level}>`);
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && isTableRule(lines[i + 1])) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && lines[i].trim() && lines[i].includes('|')) rows.push(cells(lines[i++]));
      out.push(
        `<table><thead><tr>${head.map((c) => `<th scope="col">${inline(c)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${head.map((_, k) => `<td>${inline(r[k] ?? '')}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^\s{0,3}>/.test(lines[i])) body.push(lines[i++].replace(/^\s{0,3}>\s?/, ''));
      out.push(`<blockquote>${renderMarkdown(body.join('\n'), { topLevel: Math.min(6, top + 1) }).value}</blockquote>`);
      continue;
    }
    const li = LIST_ITEM.exec(line);
    if (li) {
      const ordered = /\d/.test(li[1]);
      const items: string[] = [];
      while (i < lines.length) {
        const m = LIST_ITEM.exec(lines[i]);
        if (m && /\d/.test(m[1]) === ordered) {
          items.push(m[2]);
          i++;
          continue;
        }
        if (!m && lines[i].trim() && /^\s+/.test(lines[i]) && items.length) {
          items[items.length - 1] += ' ' + lines[i].trim();
          i++;
          continue;
        }
        break;
      }
      const start = ordered ? Number(/^\s*(\d+)/.exec(line)![1]) : 1;
      const tag = ordered ? 'ol' : 'ul';
      out.push(
        `<${tag}${ordered && start !== 1 ? ` start="${start}"` : ''}>${items.map((t) => `<li>${inline(t)}</li>`).join('')}</${tag}>`,
      );
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      lines[i].trim() &&
      !/^\s{0,3}(#{1,6}\s|```|~~~|>)/.test(lines[i]) &&
      !LIST_ITEM.exec(lines[i])
    )
      para.push(lines[i++].trim());
    if (!para.length) para.push(lines[i++].trim());
    out.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return raw(out.join('\n'));
}
