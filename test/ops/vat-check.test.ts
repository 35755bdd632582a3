// VAT numbers are checked before the reverse charge (issue #20, item 8): format and check digits offline
// (jsvat), then VIES, here a stand-in on loopback (VIES_URL), with the configurable fallback when it
// does not answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decideVat, vatNumberChecksumValid, vatRatesFrom } from '../../src/domain/vat.ts';
import { confirmReverseCharge, ViesClient } from '../../src/services/vat-check.ts';
import { loadConfig } from '../../src/config.ts';
import { cacheCounts } from '../../src/ops/cache-stats.ts';
import { closedPort } from '../jobs/support/site.ts';
import { testApp } from '../support/app.ts';
import { makeUser } from '../jobs/support/users.ts';
import { seedShop } from '../api/orders-fixtures.ts';

const rates = vatRatesFrom(null);

test('offline: a number of the right format whose check digits do not match gets no reverse charge', () => {
  for (const ok of ['DE136695976', 'EL094259216', 'FR40303265045', 'NL004495445B01', 'ATU13585627', 'BE0428759497'])
    assert.equal(vatNumberChecksumValid(ok), true, ok);
  for (const bad of ['DE123456789', 'EL123456789', 'FR12345678901', 'NL123456789B01', 'ATU12345678', 'DE136695977'])
    assert.equal(vatNumberChecksumValid(bad), false, bad);
  const typo = decideVat({ billingCountry: 'DE', vatNumber: 'DE136695977', rates });
  assert.equal(typo.ok, false);
  if (!typo.ok) {
    assert.equal(typo.field, 'vat_number');
    assert.match(typo.message, /check digits/);
  }
  const good = decideVat({ billingCountry: 'DE', vatNumber: 'DE 136 695 976', rates });
  assert.ok(good.ok && good.vat.reverse_charge);
});

// The stand-in answers as VIES's REST API does: valid for two numbers, invalid for others, an error
// wrapper for one "member state down", and never for another (a timeout).
let vies: Server;
let viesUrl: string;
const asked: Array<{ countryCode: string; vatNumber: string }> = [];
before(async () => {
  vies = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/rest-api/check-vat-number') return res.writeHead(404).end();
      const q = JSON.parse(body) as { countryCode: string; vatNumber: string };
      asked.push(q);
      if (q.countryCode === 'AT') return; // never answers
      if (q.countryCode === 'BE')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] }));
      const valid = ['DE136695976', 'NL004495445B01'].includes(q.countryCode + q.vatNumber);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          countryCode: q.countryCode,
          vatNumber: q.vatNumber,
          valid,
          name: valid ? 'ACME GMBH' : '---',
        }),
      );
    });
  });
  await new Promise<void>((r) => vies.listen(0, '127.0.0.1', r));
  viesUrl = `http://127.0.0.1:${(vies.address() as AddressInfo).port}/rest-api`;
});
after(async () => {
  vies.closeAllConnections();
  await new Promise((r) => vies.close(r));
});

const decision = (vatNumber: string, billingCountry: string) => {
  const d = decideVat({ billingCountry, vatNumber, rates });
  assert.ok(d.ok, vatNumber);
  return d.vat;
};
/** A server's configuration and its VIES client (one per call, as one per server: its own answers kept). */
const deps = (env: Record<string, string>) => {
  const config = loadConfig({}, { VIES_URL: viesUrl, VIES_TIMEOUT_MS: '5000', ...env } as never);
  return { config, services: { vies: new ViesClient({ url: config.VIES_URL, timeoutMs: config.VIES_TIMEOUT_MS }) } };
};

test('VIES says valid: reverse charge, confirmed in the note; the answer is kept', async () => {
  const d = deps({});
  const before = asked.length;
  const hits = cacheCounts.vies.hit;
  const r = await confirmReverseCharge(d, decision('DE136695976', 'DE'), rates);
  assert.ok(r.ok);
  assert.equal(r.vat.reverse_charge, true);
  assert.match(r.vat.note, /confirmed in VIES \(ACME GMBH\)/);
  assert.deepEqual(asked.at(-1), { countryCode: 'DE', vatNumber: '136695976' });
  await confirmReverseCharge(d, decision('DE136695976', 'DE'), rates);
  assert.equal(asked.length, before + 1, 'asked once');
  assert.equal(cacheCounts.vies.hit, hits + 1);
});

test('VIES says invalid: refused on vat_number, nothing is charged without VAT', async () => {
  const r = await confirmReverseCharge(deps({}), decision('FR40303265045', 'FR'), rates);
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.field, 'vat_number');
    assert.match(r.message, /VIES/);
  }
});

test('VIES unavailable (an error answer, a timeout, nothing listening): VIES_FALLBACK accept or charge', async () => {
  // The stand-in answers BE with an error at once, and never answers AT (a short wait: the default is 5 s).
  for (const [number, country, why, wait] of [
    ['BE0428759497', 'BE', /MS_UNAVAILABLE/, '5000'],
    ['ATU13585627', 'AT', /300 ms/, '300'],
  ] as const) {
    const accept = await confirmReverseCharge(deps({ VIES_TIMEOUT_MS: wait }), decision(number, country), rates);
    assert.ok(accept.ok);
    assert.equal(accept.vat.reverse_charge, true, 'accept is the default');
    assert.match(accept.vat.note, /VIES could not be reached/);
    assert.match(accept.vat.note, why);
    const charge = await confirmReverseCharge(
      deps({ VIES_FALLBACK: 'charge', VIES_TIMEOUT_MS: wait }),
      decision(number, country),
      rates,
    );
    assert.ok(charge.ok);
    assert.equal(charge.vat.reverse_charge, false);
    assert.equal(charge.vat.rate_bp, rates[country]);
    assert.match(charge.vat.note, /could not be reached/);
  }
  const down = new ViesClient({ url: `http://127.0.0.1:${await closedPort()}/rest-api`, timeoutMs: 500 });
  assert.equal((await down.check('DE136695976')).status, 'unavailable');
});

test('VIES=false: the offline check alone decides; a decision without reverse charge never asks', async () => {
  const before = asked.length;
  const off = await confirmReverseCharge(deps({ VIES: 'false' }), decision('FR40303265045', 'FR'), rates);
  assert.ok(off.ok && off.vat.reverse_charge);
  const consumer = decideVat({ billingCountry: 'FR', rates });
  assert.ok(consumer.ok);
  const same = await confirmReverseCharge(deps({}), consumer.vat, rates);
  assert.ok(same.ok && same.vat === consumer.vat);
  assert.equal(asked.length, before);
});

test('quote_order over the API: reverse charge for a number VIES confirms, 400 on vat_number for one it does not know', async () => {
  const t = await testApp({ VIES: 'true', VIES_URL: viesUrl, VIES_TIMEOUT_MS: '5000' }, (s) => seedShop(s.db));
  try {
    const user = await makeUser(t.store.db, ['account:read', 'orders:write']);
    const quote = async (vat_number: string, billing_country: string) => {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/v1/orders/quote',
        headers: user.auth,
        payload: { items: [{ product: 'gift_card' }], billing_country, vat_number },
      });
      return { status: r.statusCode, body: r.json() };
    };
    const known = await quote('NL004495445B01', 'NL');
    assert.equal(known.status, 200, JSON.stringify(known.body));
    assert.equal(known.body.vat.reverse_charge, true);
    assert.match(known.body.vat.note, /confirmed in VIES/);
    const unknown = await quote('FR40303265045', 'FR');
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
    assert.equal(unknown.body.error.details[0].path, 'body.vat_number');
    assert.match(unknown.body.error.details[0].message, /VIES/);
    const typo = await quote('DE136695977', 'DE');
    assert.equal(typo.status, 400);
    assert.match(typo.body.error.details[0].message, /check digits/);
  } finally {
    await t.cleanup();
  }
});
