// ISO 3166-1 alpha-2 country codes with their English names, from Intl's region names without the
// aliases, reserved and non-country codes it also names. Pure: no I/O.

const NOT_COUNTRIES = new Set([
  'AC',
  'AN',
  'BU',
  'CP',
  'CQ',
  'CS',
  'DD',
  'DG',
  'DY',
  'EA',
  'EU',
  'EZ',
  'FX',
  'HV',
  'IC',
  'NH',
  'QO',
  'RH',
  'SU',
  'TA',
  'TP',
  'UK',
  'UN',
  'VD',
  'XA',
  'XB',
  'YD',
  'YU',
  'ZR',
  'ZZ',
]);
let list: Array<{ code: string; name: string }> | undefined;
let codes: Set<string> | undefined;

/** Every country, sorted by English name. */
export function countries(): Array<{ code: string; name: string }> {
  if (list) return list;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const out: Array<{ code: string; name: string }> = [];
  for (let a = 65; a < 91; a++) {
    for (let b = 65; b < 91; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (name && name !== code && !NOT_COUNTRIES.has(code)) out.push({ code, name });
    }
  }
  return (list = out.sort((x, y) => x.name.localeCompare(y.name, 'en')));
}

/** True for the two-letter code of a country (any case). */
export function isCountry(code: string): boolean {
  codes ??= new Set(countries().map((c) => c.code));
  return codes.has(code.toUpperCase());
}
