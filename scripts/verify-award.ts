// Verifies a Launchlist award from outside the project, with nothing but fetch and node:crypto:
//
//   node scripts/verify-award.ts <site> <week> <rank> [--flip-byte N]
//   e.g. node scripts/verify-award.ts https://launchlist.example 2026-11-16 1
//
// 1. GET <site>/api/v1/awards/<week>/<rank>/verification for the statement, the signature and the kid
//    (the server's own `valid` is ignored);
// 2. GET <site>/.well-known/award-keys.json, the published JWKS, and take the key with that kid;
// 3. verify the Ed25519 signature over the statement bytes exactly as received, then read the JSON;
// 4. recompute the SHA-256 of the frozen ranking's canonical text and compare it with the statement's.
// --flip-byte N changes byte N of the statement before checking (the check must then fail).
// Prints the decoded statement; exits 0 when valid, 1 when not, 2 on usage or network errors.
import { createHash, createPublicKey, verify } from 'node:crypto';

async function main(argv: string[]): Promise<number> {
  const flipAt = argv.indexOf('--flip-byte');
  const flip = flipAt >= 0 ? Number(argv[flipAt + 1]) : undefined;
  const [site, week, rank] = argv.filter((_, i) => flipAt < 0 || (i !== flipAt && i !== flipAt + 1));
  if (!site || !week || !rank) {
    console.error('usage: node scripts/verify-award.ts <site> <week YYYY-MM-DD> <rank 1-3> [--flip-byte N]');
    return 2;
  }
  const base = site.replace(/\/$/, '');
  const res = await fetch(`${base}/api/v1/awards/${week}/${rank}/verification`);
  if (!res.ok) {
    console.error(`verify_award answered ${res.status}: ${await res.text()}`);
    return 2;
  }
  const award = (await res.json()) as {
    kid: string;
    statement: string;
    signature: string;
    snapshot: { canonical: string };
  };
  const jwksRes = await fetch(`${base}/.well-known/award-keys.json`);
  if (!jwksRes.ok) {
    console.error(`the JWKS answered ${jwksRes.status}`);
    return 2;
  }
  const jwks = (await jwksRes.json()) as { keys: Array<{ kty: string; crv: string; x: string; kid: string }> };
  const jwk = jwks.keys.find((k) => k.kid === award.kid);
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519') {
    console.log(`INVALID: no published Ed25519 key with kid ${award.kid}`);
    return 1;
  }
  const bytes = Buffer.from(award.statement, 'base64url');
  if (flip !== undefined) bytes[flip] ^= 0x01;
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  const ok = verify(null, bytes, key, Buffer.from(award.signature, 'base64url'));
  if (!ok) {
    console.log('INVALID: the signature does not match the statement');
    return 1;
  }
  const statement = JSON.parse(bytes.toString('utf8')) as { snapshot_sha256: string };
  const hash = createHash('sha256').update(award.snapshot.canonical, 'utf8').digest('hex');
  console.log(JSON.stringify(statement, null, 2));
  if (hash !== statement.snapshot_sha256) {
    console.log('INVALID: the published ranking snapshot does not match the signed hash');
    return 1;
  }
  console.log(`VALID: signed by key ${award.kid}; ranking snapshot sha256 ${hash}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(String(e));
  return 2;
});
