// A handler result that is already JSON text (get_listing's cached profile): REST sends the text as it
// is; every other caller of runOperation() gets the parsed value, so it never has to know.
export class RawJson {
  readonly text: string;
  /** A weak ETag the producer can vouch for without hashing the text (REST hashes when absent). */
  readonly etag: string | undefined;
  constructor(text: string, etag?: string) {
    this.text = text;
    this.etag = etag;
  }
  value(): unknown {
    return JSON.parse(this.text);
  }
  toJSON(): unknown {
    return this.value();
  }
}
