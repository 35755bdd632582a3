// A handler result that is already JSON text (get_listing's cached profile): REST sends the text as it
// is; every other caller of runOperation() gets the parsed value, so it never has to know.
import { hash } from 'node:crypto';

export class RawJson {
  #text: string | undefined;
  /** The value to write as the text when it is first asked for (a result only one caller may ever use). */
  #source: { v: unknown } | undefined;
  #etag: string | undefined;
  #hashed: boolean;
  /** The value the text was made from, handed to the first caller that asks for a value (see `value`). */
  #held: { v: unknown } | undefined;
  /**
   * When the shared result cache read this result (ms since the epoch), for a result it keeps: what is
   * built from it (a kept page, web/page-cache.ts) is kept no longer than that read's bound.
   */
  readAt: number | undefined;
  /**
   * `etag`: a weak ETag the producer can vouch for without hashing the text; 'hash' computes one from
   * the text the first time it is asked for (and keeps it); absent, REST hashes per answer.
   */
  constructor(text: string, etag?: string | 'hash', held?: { v: unknown }) {
    this.#text = text;
    this.#hashed = etag === 'hash';
    this.#etag = etag === 'hash' ? undefined : etag;
    this.#held = held;
  }
  /**
   * A value whose text is written only if someone asks for it: a result read for one caller (the
   * website's page, which wants the value) never costs a JSON.stringify.
   */
  static of(v: unknown): RawJson {
    const raw = new RawJson('', 'hash', { v });
    raw.#text = undefined;
    raw.#source = { v };
    return raw;
  }
  get text(): string {
    if (this.#text === undefined) {
      this.#text = JSON.stringify(this.#source?.v);
      this.#source = undefined;
    }
    return this.#text;
  }
  get etag(): string | undefined {
    if (this.#etag === undefined && this.#hashed) this.#etag = `W/"${hash('sha1', this.text, 'base64url')}"`;
    return this.#etag;
  }
  /**
   * The parsed value. The value the text was made from (a shared read's result, just read) is given as
   * it is to the first caller only, so no two callers ever share one object; the others parse the text.
   */
  value(): unknown {
    const held = this.#held;
    if (held) {
      this.#held = undefined;
      return held.v;
    }
    return JSON.parse(this.text);
  }
  /**
   * The text as UTF-8, made once and kept with this result: for a result the shared result cache holds
   * (readAt set), written to every caller within its bound as these bytes. Written as a string, each
   * answer encoded the text afresh on the socket (an 8 KB leaderboard: a fifth of its CPU), and the
   * encoding's off-heap copy, made per answer, brought on major collections.
   */
  get bytes(): Buffer {
    return (this.#bytes ??= Buffer.from(this.text));
  }
  #bytes: Buffer | undefined;
  /**
   * The text compressed by `compress` for `encoding`, made once and kept with this result: for a result
   * the shared result cache holds (readAt set), written to every caller within its bound.
   */
  encoded<E extends string>(encoding: E, compress: (text: Buffer, encoding: E) => Buffer): Buffer {
    this.#encoded ??= new Map();
    let z = this.#encoded.get(encoding);
    if (!z) this.#encoded.set(encoding, (z = compress(this.bytes, encoding)));
    return z;
  }
  #encoded: Map<string, Buffer> | undefined;
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
