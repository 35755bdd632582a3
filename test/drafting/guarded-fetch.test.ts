import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import {
  guardedFetch,
  parseAllowHosts,
  FetchRefused,
  FetchFailed,
  type Resolver,
} from '../../src/drafting/crawler/guarded-fetch.ts';
import { serveRoutes, html, redirect, text, type RunningServer } from './support/static-site.ts';

async function refusedWith(p: Promise<unknown>, reason: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof FetchRefused || e instanceof FetchFailed, `expected a typed fetch error, got ${String(e)}`);
    assert.equal((e as FetchRefused).reason, reason, (e as Error).message);
    return true;
  });
}

describe('guardedFetch: address rules on IP literals (no connection is attempted)', () => {
  const cases = [
    'http://127.0.0.1:1/',
    'http://127.1.2.3/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[64:ff9b::10.0.0.1]/',
    'http://[2002:a00:1::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://0/',
    'http://0.0.0.0/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://198.18.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[ff02::1]/',
    'http://[::]/',
    'http://localhost/',
    'http://app.localhost:8080/',
  ];
  for (const url of cases) {
    test(`refuses ${url}`, async () => {
      const t0 = Date.now();
      await refusedWith(guardedFetch(url, { timeoutMs: 2000 }), 'address_not_public');
      assert.ok(Date.now() - t0 < 1000, 'refused before any network activity');
    });
  }

  test('refuses schemes other than http/https', async () => {
    for (const url of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'gopher://example.com/',
      'data:text/html,hi',
      'ws://example.com/',
    ]) {
      await refusedWith(guardedFetch(url), 'scheme_not_allowed');
    }
  });

  test('refuses credentials in the URL and garbage', async () => {
    await refusedWith(guardedFetch('http://user:pw@example.com/'), 'credentials_not_allowed');
    await refusedWith(guardedFetch('not a url'), 'invalid_url');
  });
});

describe('guardedFetch against local servers', () => {
  let site: RunningServer;
  let other: RunningServer;
  before(async () => {
    other = await serveRoutes({ '/secret': html('<!doctype html><p>internal secret</p>') });
    const big = 'x'.repeat(5000);
    site = await serveRoutes({
      '/': html('<!doctype html><html><head><title>Home</title></head><body><p>Hello, world — café</p></body></html>'),
      '/to-other': redirect(`${other.origin}/secret`),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
      '/to-decimal': redirect('http://2130706433/'),
      '/to-ftp': redirect('ftp://example.com/file'),
      '/r1': redirect('/r2', 301),
      '/r2': redirect('/r3', 307),
      '/r3': redirect('/', 308),
      '/loop-a': redirect('/loop-b'),
      '/loop-b': redirect('/loop-a'),
      '/big': html(`<!doctype html><p>${big}</p>`),
      '/big-chunked': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        for (let i = 0; i < 10; i++) res.write(`<p>${'y'.repeat(1000)}</p>`);
        res.end();
      },
      '/gzip-bomb': (_req, res) => {
        const body = gzipSync(Buffer.from(`<!doctype html>${'z'.repeat(200_000)}`));
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': body.length });
        res.end(body);
      },
      '/gzip': (_req, res) => {
        const body = gzipSync(Buffer.from('<!doctype html><p>compressed page</p>'));
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(body);
      },
      '/latin1': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          Buffer.concat([
            Buffer.from('<html><head><meta charset="windows-1252"></head><body>caf'),
            Buffer.from([0xe9]),
            Buffer.from(' &amp; cr'),
            Buffer.from([0xe8, 0x6d, 0x65]),
            Buffer.from('</body></html>'),
          ]),
        );
      },
      '/image': text('PNG', 200, 'image/png'),
      '/json': text('{"a":1}', 200, 'application/json'),
      '/missing-type': (_req, res) => {
        res.writeHead(200);
        res.end('%PDF-1.4 binary');
      },
      '/slow': async (_req, res) => {
        await new Promise((r) => setTimeout(r, 3000));
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>');
      },
      '/stall-body': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<p>start');
      },
      '/gone': html('<h1>Gone</h1>', 410),
      '/error': html('<h1>Oops</h1>', 503),
    });
  });
  after(async () => {
    await site.close();
    await other.close();
  });

  test('fetches an allow-listed loopback server and decodes UTF-8', async () => {
    const r = await guardedFetch(`${site.origin}/`, { allowHosts: [site.host], accept: 'html' });
    assert.equal(r.status, 200);
    assert.equal(r.contentType, 'text/html');
    assert.match(r.body, /café/);
    assert.equal(r.url, `${site.origin}/`);
  });

  test('FETCH_ALLOW_HOSTS entries: host:port exempts that port only, a bare host any port', async () => {
    assert.deepEqual(parseAllowHosts(' 127.0.0.1:45678, localhost:3000 example.test '), [
      '127.0.0.1:45678',
      'localhost:3000',
      'example.test',
    ]);
    assert.deepEqual(parseAllowHosts(undefined), []);
    const r = await guardedFetch(`${site.origin}/`, { allowHosts: ['127.0.0.1'] });
    assert.equal(r.status, 200);
    const viaName = await guardedFetch(`http://localhost:${site.port}/`, {
      allowHosts: [`localhost:${site.port}`],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    assert.equal(viaName.status, 200);
  });

  test('without the allow-list entry the same loopback server is refused', async () => {
    await refusedWith(guardedFetch(`${site.origin}/`), 'address_not_public');
    // an entry for a different port does not exempt this one
    await refusedWith(guardedFetch(`${site.origin}/`, { allowHosts: ['127.0.0.1:1'] }), 'address_not_public');
  });

  test('a redirect from an allowed server to another loopback port is refused', async () => {
    const before = other.requests.length;
    await refusedWith(guardedFetch(`${site.origin}/to-other`, { allowHosts: [site.host] }), 'address_not_public');
    assert.equal(other.requests.length, before, 'the forbidden server was never contacted');
  });

  test('redirects to metadata, decimal-encoded loopback and ftp are refused', async () => {
    await refusedWith(guardedFetch(`${site.origin}/to-metadata`, { allowHosts: [site.host] }), 'address_not_public');
    await refusedWith(guardedFetch(`${site.origin}/to-decimal`, { allowHosts: [site.host] }), 'address_not_public');
    await refusedWith(guardedFetch(`${site.origin}/to-ftp`, { allowHosts: [site.host] }), 'scheme_not_allowed');
  });

  test('follows redirects by hand and reports the final URL', async () => {
    const r = await guardedFetch(`${site.origin}/r1`, { allowHosts: [site.host] });
    assert.equal(r.url, `${site.origin}/`);
    assert.deepEqual(r.redirects, [`${site.origin}/r1`, `${site.origin}/r2`, `${site.origin}/r3`]);
  });

  test('redirect cap', async () => {
    await refusedWith(
      guardedFetch(`${site.origin}/r1`, { allowHosts: [site.host], maxRedirects: 2 }),
      'too_many_redirects',
    );
    await refusedWith(guardedFetch(`${site.origin}/loop-a`, { allowHosts: [site.host] }), 'too_many_redirects');
  });

  test('size cap: declared length, chunked body, and decompressed size', async () => {
    await refusedWith(guardedFetch(`${site.origin}/big`, { allowHosts: [site.host], maxBytes: 1000 }), 'too_large');
    await refusedWith(
      guardedFetch(`${site.origin}/big-chunked`, { allowHosts: [site.host], maxBytes: 4000 }),
      'too_large',
    );
    await refusedWith(
      guardedFetch(`${site.origin}/gzip-bomb`, { allowHosts: [site.host], maxBytes: 50_000 }),
      'too_large',
    );
    const t = await guardedFetch(`${site.origin}/big-chunked`, {
      allowHosts: [site.host],
      maxBytes: 4000,
      truncate: true,
    });
    assert.equal(t.truncated, true);
    assert.equal(t.bytes, 4000);
  });

  test('gzip bodies are decoded; legacy charsets from <meta> are honoured', async () => {
    const g = await guardedFetch(`${site.origin}/gzip`, { allowHosts: [site.host], accept: 'html' });
    assert.match(g.body, /compressed page/);
    const l = await guardedFetch(`${site.origin}/latin1`, { allowHosts: [site.host], accept: 'html' });
    assert.equal(l.charset, 'windows-1252');
    assert.match(l.body, /café &amp; crème/);
  });

  test('non-HTML is refused when HTML is asked for', async () => {
    await refusedWith(guardedFetch(`${site.origin}/image`, { allowHosts: [site.host], accept: 'html' }), 'not_html');
    await refusedWith(guardedFetch(`${site.origin}/json`, { allowHosts: [site.host], accept: 'html' }), 'not_html');
    await refusedWith(
      guardedFetch(`${site.origin}/missing-type`, { allowHosts: [site.host], accept: 'html' }),
      'not_html',
    );
    const any = await guardedFetch(`${site.origin}/json`, { allowHosts: [site.host] });
    assert.equal(any.body, '{"a":1}');
  });

  test('timeout while waiting for headers and while reading the body', async () => {
    const t0 = Date.now();
    await refusedWith(guardedFetch(`${site.origin}/slow`, { allowHosts: [site.host], timeoutMs: 300 }), 'timeout');
    await refusedWith(
      guardedFetch(`${site.origin}/stall-body`, { allowHosts: [site.host], timeoutMs: 300 }),
      'timeout',
    );
    assert.ok(Date.now() - t0 < 2500, 'both gave up near the cap');
  });

  test('HTTP errors are typed; allowErrorStatus returns them', async () => {
    await assert.rejects(guardedFetch(`${site.origin}/gone`, { allowHosts: [site.host] }), (e: unknown) => {
      assert.ok(e instanceof FetchFailed);
      assert.equal(e.reason, 'http_error');
      assert.equal(e.status, 410);
      return true;
    });
    const r = await guardedFetch(`${site.origin}/error`, { allowHosts: [site.host], allowErrorStatus: true });
    assert.equal(r.status, 503);
  });

  test('an allowed host with nothing listening is unreachable', async () => {
    await refusedWith(
      guardedFetch('http://127.0.0.1:1/', { allowHosts: ['127.0.0.1:1'], timeoutMs: 3000 }),
      'unreachable',
    );
  });

  test('a host name whose DNS answer is private is refused at connect time', async () => {
    const resolve: Resolver = async (name) =>
      name === 'evil.test' || name === 'site.test' ? [{ address: '127.0.0.1', family: 4 }] : [];
    const before = site.requests.length;
    await refusedWith(guardedFetch(`http://evil.test:${site.port}/`, { resolve }), 'address_not_public');
    assert.equal(site.requests.length, before, 'no request reached the server');
    // mixed answers (one public, one private) are refused as a whole
    const mixed: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await refusedWith(guardedFetch(`http://mixed.test:${site.port}/`, { resolve: mixed }), 'address_not_public');
    // the same resolver is used for allow-listed names, which then connect
    const ok = await guardedFetch(`http://site.test:${site.port}/`, {
      resolve,
      allowHosts: [`site.test:${site.port}`],
    });
    assert.equal(ok.status, 200);
  });

  test('DNS rebinding: a name that answers public at first and private later is still refused at connect', async () => {
    let calls = 0;
    const rebinding: Resolver = async () =>
      ++calls === 1 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    // Whatever a pre-check saw, the address used for the socket comes from the connect-time lookup.
    await rebinding('rebind.test');
    await refusedWith(guardedFetch(`http://rebind.test:${site.port}/`, { resolve: rebinding }), 'address_not_public');
  });
});
