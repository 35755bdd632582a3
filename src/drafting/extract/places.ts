/** Country names, codes, demonyms and US states for location statements. */

const NOT_COUNTRIES = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UM UN VD XA XB YD YU ZR XK'.split(' '));

let countryIndex: Map<string, string> | null = null;

/** lower-cased name → ISO 3166-1 alpha-2 code. */
export function countries(): Map<string, string> {
  if (countryIndex) return countryIndex;
  const idx = new Map<string, string>();
  const dn = new Intl.DisplayNames(['en'], { type: 'region' });
  for (let a = 65; a < 91; a++) {
    for (let b = 65; b < 91; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code)) continue;
      let name: string | undefined;
      try {
        name = dn.of(code);
      } catch {
        continue;
      }
      if (!name || name === code || /unknown|pseudo/i.test(name)) continue;
      idx.set(name.toLowerCase(), code);
      idx.set(name.toLowerCase().replace(/&/g, 'and'), code);
      idx.set(name.toLowerCase().replace(/\s*\(.*\)$/, '').replace(/ sar china$/, ''), code);
    }
  }
  const aliases: Record<string, string> = {
    usa: 'US', 'u.s.': 'US', 'u.s.a.': 'US', 'u.s.a': 'US', us: 'US', 'united states of america': 'US', 'the united states': 'US',
    uk: 'GB', 'u.k.': 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB',
    'the netherlands': 'NL', holland: 'NL', 'czech republic': 'CZ', turkey: 'TR', korea: 'KR', 'republic of korea': 'KR',
    'the uk': 'GB', uae: 'AE', 'hong kong': 'HK', macau: 'MO', 'ivory coast': 'CI', burma: 'MM', 'vatican': 'VA',
  };
  for (const [k, v] of Object.entries(aliases)) idx.set(k, v);
  countryIndex = idx;
  return idx;
}

export function countryCode(name: string): string | null {
  const k = name.trim().toLowerCase().replace(/^the\s+(?=united|netherlands|uk|philippines|bahamas|gambia)/, (m) => m);
  const idx = countries();
  return idx.get(k) ?? idx.get(k.replace(/^the\s+/, '')) ?? null;
}

export const DEMONYMS: Record<string, string> = {
  american: 'US', 'us-based': 'US', 'u.s.-based': 'US', us: 'US', 'u.s.': 'US', usa: 'US',
  british: 'GB', uk: 'GB', 'uk-based': 'GB', 'u.k.': 'GB', scottish: 'GB', welsh: 'GB',
  german: 'DE', french: 'FR', canadian: 'CA', australian: 'AU', dutch: 'NL', swedish: 'SE', norwegian: 'NO',
  danish: 'DK', finnish: 'FI', swiss: 'CH', austrian: 'AT', spanish: 'ES', italian: 'IT', irish: 'IE', indian: 'IN',
  japanese: 'JP', chinese: 'CN', brazilian: 'BR', israeli: 'IL', estonian: 'EE', polish: 'PL', portuguese: 'PT',
  belgian: 'BE', singaporean: 'SG', mexican: 'MX', ukrainian: 'UA', czech: 'CZ', korean: 'KR', 'south korean': 'KR',
  'new zealand': 'NZ', kiwi: 'NZ', icelandic: 'IS', lithuanian: 'LT', latvian: 'LV', romanian: 'RO', greek: 'GR',
  hungarian: 'HU', croatian: 'HR', slovenian: 'SI', slovak: 'SK', bulgarian: 'BG', serbian: 'RS', turkish: 'TR',
  argentinian: 'AR', argentine: 'AR', chilean: 'CL', colombian: 'CO', nigerian: 'NG', kenyan: 'KE', 'south african': 'ZA',
  egyptian: 'EG', pakistani: 'PK', indonesian: 'ID', vietnamese: 'VN', thai: 'TH', filipino: 'PH', malaysian: 'MY',
  taiwanese: 'TW', luxembourgish: 'LU', maltese: 'MT', cypriot: 'CY',
};

export const US_STATES: Record<string, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut', DE: 'Delaware',
  FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky',
  LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi',
  MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico',
  NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont',
  VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming', DC: 'District of Columbia',
};

const STATE_NAMES = new Set(Object.values(US_STATES).map((s) => s.toLowerCase()));

export function isUsState(s: string): boolean {
  const t = s.trim();
  return t.toUpperCase() in US_STATES && t === t.toUpperCase() ? true : STATE_NAMES.has(t.toLowerCase());
}

/** Well-known cities (city → country code), for "based in Berlin" without a country. */
export const KNOWN_CITIES: Record<string, string> = {
  'new york': 'US', 'new york city': 'US', nyc: 'US', 'san francisco': 'US', 'los angeles': 'US', seattle: 'US', austin: 'US', boston: 'US',
  chicago: 'US', denver: 'US', miami: 'US', atlanta: 'US', portland: 'US', 'palo alto': 'US', 'mountain view': 'US', 'san jose': 'US',
  'san diego': 'US', brooklyn: 'US', oakland: 'US', 'salt lake city': 'US', philadelphia: 'US', pittsburgh: 'US', washington: 'US',
  london: 'GB', manchester: 'GB', edinburgh: 'GB', bristol: 'GB', cambridge: 'GB', oxford: 'GB', glasgow: 'GB', leeds: 'GB',
  berlin: 'DE', munich: 'DE', münchen: 'DE', hamburg: 'DE', cologne: 'DE', köln: 'DE', frankfurt: 'DE', stuttgart: 'DE', leipzig: 'DE',
  paris: 'FR', lyon: 'FR', toulouse: 'FR', nantes: 'FR', bordeaux: 'FR', amsterdam: 'NL', rotterdam: 'NL', utrecht: 'NL', 'the hague': 'NL',
  stockholm: 'SE', gothenburg: 'SE', malmö: 'SE', oslo: 'NO', copenhagen: 'DK', helsinki: 'FI', tallinn: 'EE', riga: 'LV', vilnius: 'LT',
  zurich: 'CH', zürich: 'CH', geneva: 'CH', lausanne: 'CH', vienna: 'AT', wien: 'AT', madrid: 'ES', barcelona: 'ES', valencia: 'ES',
  lisbon: 'PT', porto: 'PT', milan: 'IT', rome: 'IT', turin: 'IT', dublin: 'IE', brussels: 'BE', antwerp: 'BE', warsaw: 'PL', krakow: 'PL',
  kraków: 'PL', prague: 'CZ', budapest: 'HU', bucharest: 'RO', sofia: 'BG', athens: 'GR', kyiv: 'UA', kiev: 'UA', lviv: 'UA',
  toronto: 'CA', vancouver: 'CA', montreal: 'CA', montréal: 'CA', ottawa: 'CA', calgary: 'CA', waterloo: 'CA',
  sydney: 'AU', melbourne: 'AU', brisbane: 'AU', perth: 'AU', auckland: 'NZ', wellington: 'NZ', singapore: 'SG',
  bangalore: 'IN', bengaluru: 'IN', mumbai: 'IN', delhi: 'IN', 'new delhi': 'IN', hyderabad: 'IN', pune: 'IN', chennai: 'IN',
  tokyo: 'JP', osaka: 'JP', seoul: 'KR', beijing: 'CN', shanghai: 'CN', shenzhen: 'CN', taipei: 'TW', 'tel aviv': 'IL', jerusalem: 'IL',
  dubai: 'AE', 'abu dhabi': 'AE', 'são paulo': 'BR', 'sao paulo': 'BR', 'rio de janeiro': 'BR', 'mexico city': 'MX',
  'buenos aires': 'AR', santiago: 'CL', bogotá: 'CO', bogota: 'CO', lagos: 'NG', nairobi: 'KE', 'cape town': 'ZA', johannesburg: 'ZA',
  cairo: 'EG', istanbul: 'TR', jakarta: 'ID', bangkok: 'TH', manila: 'PH', 'kuala lumpur': 'MY', 'ho chi minh city': 'VN', hanoi: 'VN',
};
