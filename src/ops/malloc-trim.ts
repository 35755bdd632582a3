// The C heap's free memory given back to the system once quiet (ops/idle-gc.ts runs it after its
// collection): glibc's malloc_trim(0).
//
// Node's Buffers and its compression, SQLite's and the HTTP parser's memory come from malloc. glibc keeps
// the chunks they freed in its heaps for the next allocations, and gives back on its own only a free run
// at the very top of a heap; what lies between chunks still in use stays resident for ever. Measured on a
// 2-core machine, SQLite, 100,000 listings, after 27 s of page, search and API loads and once V8's idle
// collection had run: RSS 340 MB; one malloc_trim(0) took 15 ms and left 233 MB.
//
// Node has no binding for it. It is called through koffi, a maintained FFI library that ships prebuilt
// binaries for each platform (no compiler at install; its own install script is not needed and not run:
// package.json allowScripts). Elsewhere than Linux with glibc (macOS, musl, a platform koffi lacks) there
// is nothing to call and nothing is done.
import { createRequire } from 'node:module';

/** Gives the C heap's free pages back to the system; true when some were. */
export type MallocTrim = () => boolean;

let loaded: MallocTrim | null | undefined;

/** glibc's malloc_trim, or undefined where there is none. Loaded on first use, once (koffi costs ~10 ms). */
export function mallocTrim(): MallocTrim | undefined {
  if (loaded === undefined) loaded = load() ?? null;
  return loaded ?? undefined;
}

function load(): MallocTrim | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return () => trim(0) === 1;
  } catch {
    return undefined; // not glibc (libc.so.6 or its malloc_trim missing), or no koffi binary for this platform
  }
}
