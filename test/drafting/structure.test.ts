/** Structure, not class names (issue #19 items 3, 4, 6): navigation, lists and card grids by their shape. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractProfile, type SourcePage } from '../../src/drafting/extract/index.ts';
import { detectLanguage, isFillerProse } from '../../src/drafting/extract/language.ts';
import { leafBlocks, parsePage } from '../../src/drafting/extract/page.ts';

const U = 'https://acme.test/';
const page = (body: string, head = '<title>Acme | Notes that sync</title>'): SourcePage[] => [
  { url: U, html: `<!doctype html><html><head>${head}</head><body>${body}</body></html>`, source: 'home' },
];
const features = (body: string): string[] =>
  (extractProfile(page(body)).fields.features.value as string[] | null) ?? [];

test('a "menu" class on <main> does not make the page navigation', () => {
  const f = features(`<nav><a href="/">Home</a><a href="/pricing">Pricing</a></nav>
    <main class="menu-page-content"><h1>Acme</h1><h2>Features</h2><ul>
    <li>Sync notes across all your devices</li><li>Write offline and sync later</li><li>Export everything to Markdown</li></ul></main>`);
  assert.ok(f.includes('Sync notes across all your devices'), JSON.stringify(f));
});

test('<br>-separated lines with a shared bullet are a list', () => {
  const f =
    features(`<main><h1>Acme</h1><p>⭐ <strong>Open source and free to use</strong><br>⭐ <strong>Sync across phone and desktop</strong><br>
    ⭐ <strong>Works offline on a plane</strong><br><a href="/more">More</a></p></main>`);
  assert.ok(f.includes('Open source and free to use'), JSON.stringify(f));
  assert.ok(f.includes('Works offline on a plane'));
});

test('repeated cards are read as title + sentence; person cards and price cards are not features', () => {
  const card = (t: string, p: string) =>
    `<div class="c"><img src="/i.svg" alt=""><div class="t">${t}</div><div class="p">${p}</div></div>`;
  const f = features(`<main><h1>Acme</h1><section>
    ${card('Sketch', 'Write down your ideas instantly with a pen.')}
    ${card('Organize', 'Organize your boards in folders and tags.')}
    ${card('Sync', 'Keep every board in sync through your cloud.')}
    </section><section>
    ${card('Smart Sync', 'Changes reach every device within a second.')}
    ${card('Offline Mode', 'Keep writing on a plane or in a tunnel.')}
    ${card('Team Sharing', 'Share a board with your whole team in one click.')}
    </section><section>${card('Jane Smith', 'Head of Support, answers your tickets.')}
    ${card('John Miller', 'Support agent for our European customers.')}
    ${card('Ana Lopez', 'Customer success lead for new teams.')}</section>
    <section><div class="p"><h3>Basic</h3><p>$5 per month for one person.</p></div><div class="p"><h3>Team</h3><p>$9 per month for every seat.</p></div>
    <div class="p"><h3>Business</h3><p>$19 per month with priority help.</p></div></section></main>`);
  assert.ok(f.includes('Organize: Organize your boards in folders and tags.'), JSON.stringify(f));
  assert.ok(f.includes('Offline Mode: Keep writing on a plane or in a tunnel.'), JSON.stringify(f));
  assert.ok(!f.some((x) => /Jane Smith|John Miller|Ana Lopez/.test(x)), JSON.stringify(f));
  assert.ok(!f.some((x) => /\$\d/.test(x)), JSON.stringify(f));
});

test('template filler prose is recognised; page language is detected', () => {
  assert.ok(isFillerProse('Churn rate low hanging fruit graphical user interface social media gamification.'));
  assert.ok(isFillerProse('Quibus nisi Echo verba mecum nisi, haesit dimittere denique nec mille antiquo quas.'));
  assert.ok(!isFillerProse('We take the complexity out of deploying your backend functions.'));
  assert.ok(!isFillerProse('FTP, Dropbox, Box, Google Drive, Amazon S3, SharePoint, MySQL and more'));
  assert.equal(
    detectLanguage('Die flexible Kalendersoftware für Friseure und Kosmetikstudios, mit der Sie Termine planen.'),
    'de',
  );
  assert.equal(
    detectLanguage('Le logiciel de calendrier pour les salons, avec des rappels par SMS et une réservation en ligne.'),
    'fr',
  );
  assert.equal(detectLanguage('ペットシッター 結《むすび》は、担当シッターがご自宅にお伺いします。'), 'ja');
  assert.equal(detectLanguage('我们的软件帮助团队管理项目和任务。'), 'zh');
});

test('a theme name is never the product name; a theme-author address is never the contact', () => {
  const d = extractProfile(
    page(
      '<main><h1>Modern game engine for Kotlin</h1><p>Contact: themeauthor@gmail.com</p></main>',
      '<title>Korvo Engine | Hydra Template</title><meta property="og:site_name" content="Hydra Template"><meta name="description" content="A brilliant, modern Hugo theme for startups.">',
    ),
  );
  assert.equal(d.fields.name.value, 'Korvo Engine');
  assert.equal(d.fields.contact_email.value, null);
  assert.doesNotMatch(String(d.fields.description.value), /theme/i);
});

test('founding years and places in the drafting languages, any case', () => {
  const fields = (b: string) =>
    extractProfile([
      {
        url: U,
        html: `<html><head><title>Acme</title></head><body><h1>Acme</h1>${b}</body></html>`,
        source: 'home',
      },
    ]).fields;
  const cases: Array<[string, string | null, string | null, string | null]> = [
    ['<p>We began in January 2014 with two people.</p>', '2014', null, null],
    ['<p>Acme wurde 2015 in Wien gegründet.</p>', '2015', null, null],
    ['<p>Acme a été fondée en 2012 à Lyon.</p>', '2012', null, null],
    ['<p>Acme fue fundada en 2010.</p>', '2010', null, null],
    ['<p>2015年4月設立</p>', '2015', null, null],
    ['<p>公司成立于2016年</p>', '2016', null, null],
    ['<p>Made in Andorra.</p>', null, 'AD', null],
    ['<p>Wir sind ein Team aus Graz, entwickelt in Österreich.</p>', null, 'AT', null],
    ['<p>Hecho en México con cariño.</p>', null, 'MX', null],
    ['<p>We are based in Le Havre, France.</p>', null, 'FR', 'Le Havre'],
    ['<p>Mover is made with love in Edmonton, Canada</p>', null, 'CA', 'Edmonton'],
    ["<p>I'm a software developer from China.</p>", null, 'CN', null],
    ['<p>島根県出雲市上塩冶町2623-1</p>', null, 'JP', null],
    [
      '<p>Rufen Sie uns an, wir sind für Sie und Ihr Team da: <a href="tel:+43676000000">+43 676 000000</a></p>',
      null,
      'AT',
      null,
    ],
    ['<p>Call us: <a href="tel:+43676000000">+43 676 000000</a></p>', null, null, null],
  ];
  for (const [html, year, country, city] of cases) {
    const f = fields(html);
    assert.equal(f.founded_year.value, year, html);
    assert.equal(f.country.value, country, html);
    assert.equal(f.city.value, city, html);
  }
});

test('an SEO title is a summary; a short slogan opening the description is the tagline', () => {
  const d = extractProfile(
    page(
      '<main><h1>Cloud File Migrations</h1></main>',
      '<title>Backup, Copy, and Migrate Files Between Cloud Storage Services • Shifter</title><meta property="og:description" content="The smarter way to move files. FTP, Dropbox, Box and S3, the list goes on!">',
    ),
  );
  assert.equal(d.fields.tagline.value, 'The smarter way to move files');
  assert.match(String(d.fields.description.value), /^Backup, Copy, and Migrate Files Between Cloud Storage Services\./);
  // a sentence-case title slogan stays the tagline
  const e = extractProfile(
    page(
      '<main><h1>Acme</h1></main>',
      '<title>Acme | Notes that sync across devices</title><meta name="description" content="Fast notes. Sync everywhere, offline too.">',
    ),
  );
  assert.equal(e.fields.tagline.value, 'Notes that sync across devices');
});

test("the issue's examples: whole amounts, saving badges, general contact, US street addresses, the HQ", () => {
  const fields = (b: string) =>
    extractProfile([
      {
        url: U,
        html: `<html><head><title>Acme</title></head><body><h1>Acme</h1>${b}</body></html>`,
        source: 'home',
      },
    ]).fields;
  assert.equal(
    fields(
      '<section><h2>Pricing</h2><div><h3>Enterprise</h3><p>$1399/month</p></div><div><h3>Pro</h3><p>$99/month</p></div></section>',
    ).pricing_summary.value,
    'Enterprise: $1399/month; Pro: $99/month.',
  );
  assert.doesNotMatch(
    String(
      fields('<section><h2>Pricing</h2><div><h3>Lifetime</h3><p>$399</p><span>SAVE $1598</span></div></section>')
        .pricing_summary.value,
    ),
    /1598/,
  );
  assert.equal(
    fields(
      '<footer><p><a href="mailto:press@acme.test">press@acme.test</a> · <a href="mailto:hello@acme.test">hello@acme.test</a></p></footer>',
    ).contact_email.value,
    'hello@acme.test',
  );
  assert.equal(
    fields('<footer><address>Acme Inc., 123 Race Street San Jose, CA 95126</address></footer>').city.value,
    'San Jose',
  );
  const hq = fields(
    '<main><h2>Our offices</h2><h3>Sales office</h3><address>1 Main Road, Leeds, United Kingdom</address><h3>Headquarters</h3><address>Hauptstraße 5, Berlin, Germany</address></main>',
  );
  assert.deepEqual([hq.country.value, hq.city.value], ['DE', 'Berlin']);
});

test('sentences stay whole across file names and versions', async () => {
  const { sentences } = await import('../../src/drafting/extract/text.ts');
  assert.deepEqual(sentences('Edit bindings.json to add keys. Then restart.'), [
    'Edit bindings.json to add keys.',
    'Then restart.',
  ]);
  assert.deepEqual(sentences('Export to `.mp4` files! Use v1.2 now.'), ['Export to `.mp4` files!', 'Use v1.2 now.']);
  assert.deepEqual(sentences('ペットのお世話をします。散歩もします。'), ['ペットのお世話をします。', '散歩もします。']);
});

test('a truncated meta description loses to the complete og:description', () => {
  const d = extractProfile(
    page(
      '<main><h1>Acme</h1></main>',
      '<title>Acme</title><meta name="description" content="Acme keeps your notes in sync across desktop and mobile ..."><meta property="og:description" content="Acme keeps your notes in sync across desktop and mobile devices, even offline.">',
    ),
  );
  assert.match(String(d.fields.description.value), /mobile devices, even offline\./);
  assert.doesNotMatch(String(d.fields.description.value), /mobile \.\.\./);
});

test('plain privacy and offline promises in FAQ answers are features', () => {
  const f = features(`<main><h1>Acme</h1><h2>Frequently Asked Questions</h2>
    <h3>Do you track me?</h3><p>Nope. No tracking/analytics installed and not planning to.</p>
    <h3>Is my writing uploaded?</h3><p>Nope. All writing and saving is done locally.</p>
    <h3>What is it written in?</h3><p>Yes. It’s written in Swift and Objective-C, natively for the Mac.</p></main>`);
  assert.ok(f.includes('No tracking/analytics installed and not planning to.'), JSON.stringify(f));
  assert.ok(f.includes('All writing and saving is done locally.'), JSON.stringify(f));
});

test('imprint addresses: a postcode line gives the city; a country in its own language gives the country', () => {
  const draft = (imprint: string) =>
    extractProfile([
      { url: U, html: '<html><head><title>Acme</title></head><body><h1>Acme</h1></body></html>', source: 'home' },
      {
        url: `${U}imprint/`,
        html: `<html><head><title>Imprint</title></head><body><h1>Imprint</h1>${imprint}</body></html>`,
        source: 'link',
      },
    ]).fields;
  const a = draft('<p>Angaben gemäß § 5 TMG</p><p>Max Muster</p><p>17109 Demmin</p>');
  assert.deepEqual([a.city.value, a.country.value], ['Demmin', null]);
  const b = draft('<p>Acme OG, Hauptplatz 5, 6020 Innsbruck, Österreich</p>');
  assert.deepEqual([b.city.value, b.country.value], ['Innsbruck', 'AT']);
});

test('a cookie banner is chrome, not content', () => {
  const d = extractProfile(
    page(
      `<div class="x1"><p>We use cookies to improve your experience and analyse traffic.</p><button>Accept all</button><button>Reject</button></div>
      <main><h1>Acme</h1><p>Acme keeps your notes in sync across every device you own.</p></main>`,
      '<title>Acme</title>',
    ),
  );
  assert.doesNotMatch(JSON.stringify(d.fields), /We use cookies/);
  const parsed = parsePage(
    {
      url: U,
      html: '<html><body><div><p>We use cookies to analyse traffic.</p><button>Accept all</button></div><main><p>Acme keeps notes in sync.</p></main></body></html>',
    },
    0,
    true,
  );
  const blocks = leafBlocks(parsed);
  assert.equal(blocks.find((b) => /We use cookies/.test(b.text))?.chrome, true);
  assert.equal(blocks.find((b) => /Acme keeps/.test(b.text))?.chrome, false);
});

test('FAQ answers on a pricing page give capability features, not billing policies', () => {
  const d = extractProfile([
    { url: U, html: '<html><head><title>Acme</title></head><body><h1>Acme</h1></body></html>', source: 'home' },
    {
      url: `${U}pricing/`,
      html: `<html><head><title>Pricing</title></head><body><h1>Pricing</h1><h2>Frequently asked questions</h2>
        <h3>What is image to vector?</h3><p>With our image-to-vector feature you can turn a photo of your notes into an editable canvas.</p>
        <h3>Can I cancel?</h3><p>Yes, you can cancel your subscription at any time from the settings.</p></body></html>`,
      source: 'link',
    },
  ]);
  const f = (d.fields.features.value as string[] | null) ?? [];
  assert.ok(
    f.some((x) => /turn a photo of your notes/.test(x)),
    JSON.stringify(f),
  );
  assert.ok(!f.some((x) => /cancel/.test(x)), JSON.stringify(f));
});
