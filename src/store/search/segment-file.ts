// A built search segment (memory-index.ts Segment) as one file, from the builder process (builder.ts)
// to the server (feed.ts). The server reads the file into ONE buffer and the segment's typed arrays are
// views into it: the ~27 MB of a 100,000-listing index cost their own size and nothing more. Sent over
// the IPC channel instead (the 'advanced' serialization), the message arrived in 64 KB chunks that
// were joined and then copied again into the arrays: the C heap kept ~20 MB more resident for the
// rest of the server's life (measured at 100,000 listings: [heap] 12 → 42 MB across the load, against 12 → 20 MB now).
//
// Layout: u32 length of a JSON header, the header (the feed position, the slot count, the number and
// byte length of the terms and each array's name, type and length), then the terms as UTF-8 joined by
// "\n" (a term is a word: it never holds one), then each array's bytes; every part starts on 8 bytes.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Segment } from './memory-index.ts';

const ARRAYS = [
  'offsets',
  'data',
  'ids',
  'status',
  'votes',
  'length',
  'hash',
  'summaryBytes',
  'summaryOffsets',
  'category',
  'followers',
] as const;
type ArrayKey = (typeof ARRAYS)[number];
const TYPES = { Uint8Array, Int32Array, Uint32Array } as const;
type TypeName = keyof typeof TYPES;

interface Header {
  position: string;
  slots: number;
  terms: number;
  termsBytes: number;
  arrays: Array<[ArrayKey, TypeName, number]>;
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;

export function writeSegmentFile(path: string, segment: Segment, position: string): void {
  const terms = Buffer.from(segment.terms.join('\n'));
  const header: Header = {
    position,
    slots: segment.slots,
    terms: segment.terms.length,
    termsBytes: terms.length,
    arrays: ARRAYS.map((k) => [k, segment[k].constructor.name as TypeName, segment[k].length]),
  };
  const head = Buffer.from(JSON.stringify(header));
  const fd = openSync(path, 'w');
  try {
    const zeros = Buffer.alloc(8);
    let at = 0;
    const all = (b: Uint8Array) => {
      for (let done = 0; done < b.length; ) done += writeSync(fd, b, done); // a write may take part of it
      at += b.length;
    };
    const put = (b: Uint8Array) => {
      all(b);
      const p = pad8(at);
      if (p) all(zeros.subarray(0, p));
    };
    const len = Buffer.alloc(4);
    len.writeUInt32LE(head.length);
    all(len);
    put(head);
    put(terms);
    for (const k of ARRAYS) {
      const a = segment[k];
      put(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    }
  } finally {
    closeSync(fd);
  }
}

export function readSegmentFile(path: string): { segment: Segment; position: string } {
  let file = readFileSync(path);
  // A small file may come in a slice of Node's shared pool, at any offset: typed views need 8-byte alignment.
  if (file.byteOffset % 8) file = Buffer.from(Uint8Array.prototype.slice.call(file).buffer);
  const headLength = file.readUInt32LE(0);
  const header = JSON.parse(file.toString('utf8', 4, 4 + headLength)) as Header;
  let at = 4 + headLength;
  at += pad8(at);
  const terms = header.terms ? file.toString('utf8', at, at + header.termsBytes).split('\n') : [];
  if (terms.length !== header.terms)
    throw new Error(`search segment file ${path}: ${terms.length} terms where ${header.terms} were written`);
  at += header.termsBytes;
  at += pad8(at);
  const arrays = {} as Record<ArrayKey, Uint8Array | Int32Array | Uint32Array>;
  for (const [k, type, length] of header.arrays) {
    const T = TYPES[type];
    arrays[k] = new T(file.buffer, file.byteOffset + at, length); // a view into the file's buffer, not a copy
    at += length * T.BYTES_PER_ELEMENT;
    at += pad8(at);
  }
  if (at > file.length) throw new Error(`search segment file ${path} is shorter than its header says`);
  return { segment: { terms, slots: header.slots, ...arrays } as Segment, position: header.position };
}
