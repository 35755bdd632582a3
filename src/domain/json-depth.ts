// A limit on how deeply a JSON body may nest. No operation takes more than a few levels, and code
// that walks a value recursively (the idempotency hash, schema validation, the MCP SDK) would run out
// of stack on a body nested thousands of levels deep: such a body is refused as it arrives (400),
// before it is parsed.

/** Deepest nesting of objects and arrays a request body may have (the deepest operation needs ~6 with MCP's envelope). */
export const MAX_JSON_DEPTH = 32;

/** True when the JSON text nests objects/arrays deeper than `max` (strings are skipped, escapes included). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // "
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c)
          i++; // \ escapes the next character
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      // { [
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      // } ]
      depth--;
    }
  }
  return false;
}
