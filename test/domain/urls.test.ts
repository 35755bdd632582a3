// The website a listing stands for (siteKeyOf): what counts as the same site for duplicates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameSite, siteKeyOf } from '../../src/domain/urls.ts';

const same = (a: string, b: string) => sameSite(siteKeyOf(a)!, siteKeyOf(b)!);

test('the registrable domain (eTLD+1): www., subdomains, scheme and case do not matter', () => {
  assert.deepEqual(siteKeyOf('https://www.Example.co.uk/'), { domain: 'example.co.uk', port: '', path: '' });
  assert.ok(same('https://example.com', 'http://www.example.com/'));
  assert.ok(same('example.com', 'https://app.example.com'));
  assert.ok(same('https://shop.example.co.uk', 'example.co.uk'));
  assert.ok(!same('https://example.com', 'https://example.org'));
  assert.ok(!same('https://example.co.uk', 'https://other.co.uk'), 'co.uk is a public suffix');
});

test('private suffixes of the Public Suffix List make each subdomain a site of its own', () => {
  assert.ok(!same('https://alice.github.io', 'https://bob.github.io'));
  assert.ok(same('https://alice.github.io/', 'alice.github.io'));
  assert.equal(siteKeyOf('github.io')?.domain, 'github.io', 'a suffix itself keeps its whole name');
});

test('the path counts (case, trailing slash, index.html, query and fragment do not); another port is another site', () => {
  assert.ok(!same('https://github.com/acme/notes', 'https://github.com/acme/tasks'));
  assert.ok(same('https://github.com/Acme/Notes/', 'github.com/acme/notes?tab=readme#top'));
  assert.ok(same('https://example.com/index.html', 'https://example.com'));
  assert.ok(same('https://example.com//a//b/', 'https://example.com/a/b'));
  assert.ok(same('https://example.com:443/', 'http://example.com:80'));
  assert.ok(!same('http://127.0.0.1:4000/', 'http://127.0.0.1:4001/'));
});

test('no plausible host, no site key', () => {
  for (const bad of ['', 'not a url', 'localhost', 'http://[::1]/']) assert.equal(siteKeyOf(bad), null, bad);
});
