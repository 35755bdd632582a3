// Response compression: what a browser meets. Every browser sends `Accept-Encoding: gzip, deflate, br`
// (Chrome and Firefox add `zstd`; fetch() in Node sends the first three), so a page or an API answer is
// compressed on nearly every real request; `npm run bench`'s page loads send Chrome's header.
//
// Measured on a 2-core machine, SQLite 10k listings, 50 connections, one category page signed out:
// 10.6k rps without Accept-Encoding, 1.9k with it, as @fastify/compress was set before (brotli quality
// 4 through a zlib stream for anything over 8 KB, its default sync threshold on 2 cores). So:
//
// - A kept page (web/page-cache.ts) is compressed once per encoding for everyone signed out, at a
//   higher level (KEPT_*), and those bytes are written to every later visitor: compressKept().
// - Anything compressed per request (a page answered once, a signed-in page, an API answer) is
//   compressed in one call, not through a stream, up to 256 KB (DYNAMIC.syncThreshold), at a fast
//   level: zstd level 1 where the client takes it (Chrome and Firefox send `zstd`), else brotli quality 1,
//   else gzip level 1 (nginx's default gzip_comp_level). Measured in one call on this machine: a 9 KB
//   listing page takes 30–34 µs whichever of these (a call's own cost dominates); an 87 KB signed-in
//   launch week page takes zstd 1 57 µs for 8.3 KB, brotli 1 72 µs for 8.8 KB, gzip 1 81 µs for 9.0 KB,
//   and the brotli quality 2 used before 132 µs for 8.9 KB.
//   A zlib stream hands its work to libuv's threads, which costs more than the compression itself at
//   these sizes and pays off only with spare cores; and each stream in flight holds its own brotli
//   window. A signed-in launch week page at 100,000 listings (~90 KB) went through one: 3.8 ms of CPU a
//   page, and the server's RSS after the bench's loads rose from ~365 to ~510 MB.
// - Brotli's window is 512 KB (LGWIN 19), not its 4 MB default: no page comes near it, and each
//   compression allocates it.
import { constants, brotliCompressSync, gzipSync, deflateSync, zstdCompressSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The encodings the service writes, in its order of preference when a client accepts several equally, for
 * what is compressed once and kept (the smallest: brotli at KEPT_BROTLI_QUALITY).
 */
export const ENCODINGS = ['br', 'zstd', 'gzip', 'deflate'] as const;
export type Encoding = (typeof ENCODINGS)[number];
/** The same for what is compressed per request: the fastest first (zstd, see above). */
const DYNAMIC_ENCODINGS: Encoding[] = ['zstd', 'br', 'gzip', 'deflate'];

/** Brotli's settings for every page and answer: text, and a 512 KB window (LGWIN 19; see above). */
const BROTLI = { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_LGWIN]: 19 };

/** @fastify/compress's options for what is compressed per request (app.ts). */
export const DYNAMIC = {
  threshold: 1024,
  encodings: DYNAMIC_ENCODINGS,
  syncThreshold: 256 * 1024,
  brotliOptions: { params: { ...BROTLI, [constants.BROTLI_PARAM_QUALITY]: 1 } },
  // gzip and deflate read `level`; zstd (which @fastify/compress hands the same options) reads `params`
  zlibOptions: { level: 1, params: { [constants.ZSTD_c_compressionLevel]: 1 } },
};

/** Kept pages are compressed once for all their visitors: a higher level, ~7 % fewer bytes than quality 4. */
const KEPT_BROTLI_QUALITY = 6;
const KEPT_ZLIB_LEVEL = 6;
const KEPT_ZSTD_LEVEL = 9;

const negotiator = new Negotiator<Encoding>({ supportedValues: [...ENCODINGS] });

/**
 * The encoding this request's Accept-Encoding asks for among ENCODINGS (q-values honoured, `x-gzip` and
 * `*` read as gzip, as @fastify/compress reads them), or undefined for none (identity).
 */
export function acceptedEncoding(req: FastifyRequest): Encoding | undefined {
  const header = req.headers['accept-encoding'];
  if (!header || req.headers['x-no-compression'] !== undefined) return undefined;
  // browsers send a handful of distinct headers: each is parsed once (~1 µs a request otherwise)
  let got = negotiated.get(header);
  if (got === undefined) {
    got = negotiator.negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip')) ?? null;
    if (header.length <= 200) {
      if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
      negotiated.set(header, got);
    }
  }
  return got ?? undefined;
}

/** Accept-Encoding headers already read, and what they chose (null: none of ours). */
const negotiated = new Map<string, Encoding | null>();
const MAX_NEGOTIATED = 256;

/** `bytes` compressed for `encoding` at the kept pages' level. */
export function compressKept(bytes: Buffer, encoding: Encoding): Buffer {
  switch (encoding) {
    case 'br':
      return brotliCompressSync(bytes, {
        params: {
          ...BROTLI,
          [constants.BROTLI_PARAM_QUALITY]: KEPT_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
    case 'zstd':
      return zstdCompressSync(bytes, { params: { [constants.ZSTD_c_compressionLevel]: KEPT_ZSTD_LEVEL } });
    case 'gzip':
      return gzipSync(bytes, { level: KEPT_ZLIB_LEVEL });
    case 'deflate':
      return deflateSync(bytes, { level: KEPT_ZLIB_LEVEL });
  }
}

/**
 * Adds `name` to the response's Vary header, keeping what is there (CORS's `Origin`, http/cors.ts).
 * `accept-encoding` is written in lower case, as @fastify/compress looks for it before adding its own.
 */
export function addVary(reply: FastifyReply, name: string): void {
  const now = reply.getHeader('vary');
  if (now === undefined) {
    reply.header('vary', name);
    return;
  }
  // a handful of distinct values meet here (Origin, accept-encoding, Cookie): each joined once
  const key = `${String(now)}\0${name}`;
  let joined = varied.get(key);
  if (joined === undefined) {
    const list = String(now)
      .split(',')
      .map((v) => v.trim());
    if (!list.some((v) => v === '*' || v.toLowerCase() === name.toLowerCase())) list.push(name);
    joined = list.join(', ');
    if (varied.size < 64) varied.set(key, joined);
  }
  reply.header('vary', joined);
}

/** Vary values already joined, by the value before and the name added. */
const varied = new Map<string, string>();
