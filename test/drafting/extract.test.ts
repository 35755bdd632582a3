import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  extractProfile,
  verifyEvidence,
  verifyItems,
  completeness,
  missing,
  PROFILE_FIELDS,
  type SourcePage,
} from '../../src/drafting/extract/index.ts';
import { CORPUS_DIR } from './support/corpus.ts';

const page = (url: string, body: string, head = ''): SourcePage => ({
  url,
  html: `<!doctype html><html><head>${head}</head><body>${body}</body></html>`,
});

describe('verifyEvidence', () => {
  const pages = [
    page(
      'https://a.example/',
      '<h1>Acme  Rockets</h1><p>Acme builds   reusable rockets for “small” payloads.</p>',
      '<meta name="description" content="Rockets for everyone">',
    ),
  ];

  test('keeps a value whose quotes are on the page (whitespace and case normalised, typographic quotes folded)', () => {
    const r = verifyEvidence(
      'Reusable rockets',
      [{ quote: 'acme builds reusable rockets for "small" payloads.', url: 'https://a.example/' }],
      pages,
    );
    assert.equal(r.state, 'ai');
    assert.equal(r.value, 'Reusable rockets');
    assert.equal(r.evidence[0].url, 'https://a.example/');
  });

  test('quotes from attributes (meta content) count', () => {
    assert.equal(
      verifyEvidence('x', [{ quote: 'Rockets for everyone', url: 'https://a.example/' }], pages).state,
      'ai',
    );
  });

  test('a fabricated or partly fabricated quote drops the value', () => {
    const r = verifyEvidence('Founded 2010', [{ quote: 'Acme was founded in 2010', url: 'https://a.example/' }], pages);
    assert.deepEqual(r, { value: null, state: 'not_found', evidence: [] });
    const mixed = verifyEvidence(
      'x',
      [
        { quote: 'Acme Rockets', url: 'https://a.example/' },
        { quote: 'invented words', url: 'https://a.example/' },
      ],
      pages,
    );
    assert.equal(mixed.state, 'not_found');
  });

  test('no evidence, empty or trivial quotes → not_found', () => {
    assert.equal(verifyEvidence('x', [], pages).state, 'not_found');
    assert.equal(verifyEvidence('x', [{ quote: 'a', url: 'https://a.example/' }], pages).state, 'not_found');
    assert.equal(verifyEvidence('', [{ quote: 'Acme Rockets', url: 'https://a.example/' }], pages).state, 'not_found');
  });

  test('a quote found on another crawled page gets that page URL', () => {
    const two = [...pages, page('https://a.example/about', '<p>We started in a garage.</p>')];
    const r = verifyEvidence('x', [{ quote: 'We started in a garage.', url: 'https://a.example/' }], two);
    assert.equal(r.evidence[0].url, 'https://a.example/about');
  });

  test('verifyItems keeps supported list items only', () => {
    const r = verifyItems(
      [
        { value: 'Reusable', evidence: [{ quote: 'reusable rockets', url: 'https://a.example/' }] },
        { value: 'Cheap', evidence: [{ quote: 'the cheapest rockets', url: 'https://a.example/' }] },
      ],
      pages,
    );
    assert.deepEqual(r.field.value, ['Reusable']);
    assert.deepEqual(r.dropped, ['Cheap']);
    assert.equal(r.field.evidence[0].item, 0);
  });
});

describe('extractProfile rules on synthetic pages', () => {
  test('a bare page yields not_found everywhere except what it states', () => {
    const d = extractProfile([page('https://a.example/', '<p>Hello</p>', '<title>Acme</title>')]);
    assert.equal(d.fields.name.value, 'Acme');
    for (const f of PROFILE_FIELDS.filter((x) => x !== 'name')) assert.equal(d.fields[f].state, 'not_found', f);
    assert.deepEqual(
      missing(d),
      PROFILE_FIELDS.filter((x) => x !== 'name'),
    );
  });

  test('sponsor and donation tiers are not prices; the product is open source', () => {
    const d = extractProfile([
      page(
        'https://a.example/',
        `<h1>Welcome to Acme, a free web browser</h1><p>Acme is free and open source software.</p>
         <h2>Sponsors</h2><table><tr><td>Gold</td><td>USD $50,000</td></tr><tr><td>Silver</td><td>USD $10,000</td></tr></table>
         <h2>Donate</h2><p>Support us with $5 per month.</p>`,
        '<title>Acme</title>',
      ),
    ]);
    assert.equal(d.fields.pricing_model.value, 'Open source');
    assert.doesNotMatch(String(d.fields.pricing_summary.value), /50,000|10,000|\$5/);
  });

  test('plans with a free tier → Freemium; only paid monthly plans → Subscription; no period → no model', () => {
    const freemium = extractProfile([
      page('https://a.example/', '<title>Acme</title>'),
      page(
        'https://a.example/pricing',
        '<h1>Pricing</h1><div class="plan"><h3>Free</h3><div>$0 per month</div></div><div class="plan"><h3>Pro</h3><div>$12 per month</div></div>',
      ),
    ]);
    assert.equal(freemium.fields.pricing_model.value, 'Freemium');
    assert.match(String(freemium.fields.pricing_summary.value), /Pro: \$12\/month/);
    const sub = extractProfile([
      page('https://a.example/', '<title>Acme</title>'),
      page(
        'https://a.example/pricing',
        '<h1>Plans</h1><div><h3>Team</h3><p>$49 / month</p></div><div><h3>Business</h3><p>$99 / month</p></div>',
      ),
    ]);
    assert.equal(sub.fields.pricing_model.value, 'Subscription');
    const unknown = extractProfile([
      page('https://a.example/', '<title>Acme</title>'),
      page('https://a.example/pricing', '<h1>Pricing</h1><div><h3>Pro</h3><p>$19.99</p></div>'),
    ]);
    assert.equal(unknown.fields.pricing_model.state, 'not_found', 'a price without a period is not a model');
    assert.doesNotMatch(String(unknown.fields.pricing_summary.value), /month|year/);
  });

  test('copyright years and publish dates are not founding years; "founded in" is', () => {
    const none = extractProfile([
      page(
        'https://a.example/',
        '<p>© 2019 Acme Inc. All rights reserved.</p>',
        '<title>Acme</title><script type="application/ld+json">{"@type":"WebPage","datePublished":"2013-09-27"}</script>',
      ),
    ]);
    assert.equal(none.fields.founded_year.state, 'not_found');
    const yes = extractProfile([
      page('https://a.example/', '<p>Acme was founded in 2016 by two engineers.</p>', '<title>Acme</title>'),
    ]);
    assert.equal(yes.fields.founded_year.value, '2016');
    assert.equal(yes.fields.founded_year.evidence[0].quote, 'Acme was founded in 2016 by two engineers.');
  });

  test('og:image is a logo only when it says so; an <img> logo in the header wins', () => {
    const ogOnly = extractProfile([
      page(
        'https://a.example/',
        '<p>x</p>',
        '<title>Acme</title><meta property="og:image" content="https://a.example/social-card.png">',
      ),
    ]);
    assert.equal(ogOnly.fields.logo_url.state, 'not_found');
    const header = extractProfile([
      page(
        'https://a.example/',
        '<header><a href="/"><img src="/img/acme-logo.svg" alt="Acme logo"></a></header><section><h2>Our customers</h2><img src="/img/bigco-logo.png" alt="BigCo logo"></section>',
        '<title>Acme</title><meta property="og:image" content="https://a.example/customers-logo-bar.png">',
      ),
    ]);
    assert.equal(header.fields.logo_url.value, 'https://a.example/img/acme-logo.svg');
  });

  test('country and city from an "based in City, Country" statement; placeholder pages are ignored', () => {
    const d = extractProfile([
      page('https://a.example/', '<p>We are a small team based in Lyon, France.</p>', '<title>Acme</title>'),
      page(
        'https://a.example/contact',
        '<h2>Contact</h2><address>1 George Street, Dunedin, New Zealand</address><a href="mailto:support@example.com">support@example.com</a>',
      ),
    ]);
    assert.equal(d.fields.country.value, 'FR');
    assert.equal(d.fields.city.value, 'Lyon');
    assert.equal(d.fields.contact_email.state, 'not_found');
    assert.equal(d.ignored_pages.length, 1);
  });

  test('socials: share links and sponsor links are not the product’s accounts', () => {
    const d = extractProfile([
      page(
        'https://acme.example/',
        `<footer><a href="https://twitter.com/acmeapp">Twitter</a> <a href="https://github.com/acme/acme">GitHub</a></footer>
         <section><h2>Sponsors</h2><a href="https://x.com/bigsponsor">BigSponsor</a></section>
         <a href="https://twitter.com/intent/tweet?text=hi">Share</a> <a href="https://www.youtube.com/watch?v=abc123">Watch the demo</a>`,
        '<title>Acme</title>',
      ),
    ]);
    assert.equal(d.socials.x, 'https://twitter.com/acmeapp');
    assert.equal(d.socials.github, 'https://github.com/acme/acme');
    assert.equal(d.socials.youtube, undefined, 'a video link is not a channel');
    assert.equal(d.fields.demo_video_url.value, 'https://www.youtube.com/watch?v=abc123');
  });

  test('a "Free" plan card next to paid plans, a founding sentence, a postal address, a lazy YouTube embed', () => {
    const d = extractProfile([
      page(
        'https://acme.example/',
        '<h1>Acme</h1><p>In 2019, we started Acme to fix invoices.</p><lite-youtube videoid="dQw4w9WgXcQ"></lite-youtube><footer><p>Acme GmbH · Hauptstraße 5, 10115 Berlin, Germany</p></footer>',
        '<title>Acme – Invoices without pain</title>',
      ),
      page(
        'https://acme.example/pricing',
        '<h1>Pricing</h1><div><h3>Hobby</h3><p>Free</p></div><div><h3>Pro</h3><p>$9/mo</p></div>',
      ),
    ]);
    assert.equal(d.fields.pricing_model.value, 'Freemium');
    assert.equal(d.fields.pricing_summary.value, 'Hobby: Free; Pro: $9/month.');
    assert.equal(d.fields.founded_year.value, '2019');
    assert.equal(d.fields.country.value, 'DE');
    assert.equal(d.fields.city.value, 'Berlin');
    assert.equal(d.fields.demo_video_url.value, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    assert.equal(d.fields.tagline.value, 'Invoices without pain');
  });

  test('FAQs and features come with evidence', () => {
    const d = extractProfile([
      page(
        'https://a.example/',
        `<h2>Features</h2><ul><li>Offline mode for every note</li><li>End-to-end encryption by default</li><li>Sync across all your devices</li></ul>
         <h2>FAQ</h2><details><summary>Is there a free plan?</summary><p>Yes, forever.</p></details>`,
        '<title>Acme</title>',
      ),
    ]);
    assert.deepEqual(d.fields.features.value, [
      'Offline mode for every note',
      'End-to-end encryption by default',
      'Sync across all your devices',
    ]);
    assert.deepEqual(
      d.fields.features.evidence.map((e) => e.item),
      [0, 1, 2],
    );
    assert.equal(d.faqs[0].question, 'Is there a free plan?');
    assert.equal(d.faqs[0].answer, 'Yes, forever.');
  });
});

describe('template leftovers read directly (bypassing the crawler)', {
  skip: !existsSync(join(CORPUS_DIR, 'sites', 'streamline')) && 'corpus not found',
}, () => {
  test('placeholder plans, team, emails and addresses never reach the draft', () => {
    const base = join(CORPUS_DIR, 'sites', 'streamline');
    const pages: SourcePage[] = ['', 'pricing/', 'about/', 'contact/'].map((p) => ({
      url: `https://getstreamline.app/${p}`,
      html: readFileSync(join(base, p, 'index.html'), 'utf8'),
    }));
    const d = extractProfile(pages);
    assert.equal(d.ignored_pages.length, 3, JSON.stringify(d.ignored_pages));
    const all = JSON.stringify(d);
    for (const trap of [
      /Dunedin/,
      /New Zealand/,
      /john@business\.com/,
      /support@example\.com/,
      /Anna Thompson/,
      /\$99 per month/,
      /Subscription/,
    ]) {
      assert.doesNotMatch(all.replace(/"ignored_pages":.*$/, ''), trap);
    }
    assert.equal(d.fields.pricing_model.value, 'Open source');
    assert.equal(d.fields.country.state, 'not_found');
  });
});

describe('completeness and missing', () => {
  test('weighted percentage of the 18 fields, documented in the result', () => {
    const empty = {
      fields: Object.fromEntries(PROFILE_FIELDS.map((f) => [f, { value: null, state: 'not_found', evidence: [] }])),
    };
    assert.equal(completeness(empty).percent, 0);
    assert.equal(missing(empty).length, 18);
    const some = {
      fields: {
        ...empty.fields,
        name: { value: 'Acme' },
        features: { value: ['a'] },
        city: { value: 'Lyon' },
        tags: { value: [] },
      },
    };
    const c = completeness(some);
    assert.equal(c.filled, 3);
    assert.equal(c.weighted_filled, 5);
    assert.equal(c.weighted_total, 25);
    assert.equal(c.percent, 20);
    assert.match(c.formula, /weight 2/);
    assert.ok(missing(some).includes('tags'), 'an empty list is missing');
    assert.ok(!missing(some).includes('city'));
  });
});

describe('a typical SaaS landing page (fixture)', () => {
  const html = readFileSync(new URL('./fixtures/saas-landing.html', import.meta.url), 'utf8');
  const d = extractProfile([{ url: 'https://flowly.io/', html }]);

  test('the name is the brand, not the hero slogan; the slogan is the tagline', () => {
    assert.equal(d.fields.name.value, 'Flowly');
    assert.equal(d.fields.tagline.value, "Automate your team's busywork");
  });

  test('customer quotes and blog teasers give no founding year, country, city or founders', () => {
    assert.equal(d.fields.founded_year.state, 'not_found');
    assert.equal(d.fields.country.state, 'not_found');
    assert.equal(d.fields.city.state, 'not_found');
    assert.deepEqual(d.founders, []);
  });

  test('feature grid, monthly plans, contact address and socials', () => {
    assert.deepEqual(d.fields.features.value, [
      'Visual builder: Drag and drop steps to build workflows in minutes.',
      '300+ integrations: Connect Slack, Gmail, Salesforce and hundreds more.',
      'Audit logs: Every run is logged so you can see what happened and when.',
    ]);
    assert.equal(d.fields.pricing_model.value, 'Subscription');
    assert.equal(d.fields.pricing_summary.value, 'Starter: $19/month; Team: $49/month.');
    assert.equal(d.fields.contact_email.value, 'hello@flowly.io');
    assert.equal(d.socials.x, 'https://twitter.com/flowlyhq');
    assert.equal(d.socials.linkedin, 'https://www.linkedin.com/company/flowly');
    // customer logos are not ours, and a touch icon or favicon is an icon, not a logo (issue #19 item 5)
    assert.equal(d.fields.logo_url.value, null, 'no logo: the page shows only customer logos and icons');
  });
});
