// Shared set-up for the accounts/OAuth tests: an app on a real port whose PUBLIC_URL is that port.
import { freePort } from '../support/net.ts';
export { freePort };
import { createHash, randomBytes } from 'node:crypto';
import { freshStore, type TestDb } from '../support/app.ts';
import { createServer, type Server } from '../../src/server.ts';
import type { Store } from '../../src/store/connect.ts';
import { createUser, type User } from '../../src/auth/users.ts';
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts';
import { Browser } from './browser.ts';

export interface LiveApp extends TestDb {
  server: Server;
  base: string;
}

/** The app listening on 127.0.0.1 with PUBLIC_URL set to its own address (oidc-provider needs real requests). */
export async function liveApp(
  overrides: Record<string, unknown> = {},
  prepare?: (store: Store) => Promise<void>,
): Promise<LiveApp> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t = await freshStore({ PUBLIC_URL: base, ...overrides });
    if (prepare) await prepare(t.store);
    const server = await createServer(t.config, t.store);
    try {
      await server.app.listen({ port, host: '127.0.0.1' });
    } catch (e) {
      await server.close();
      await t.cleanup();
      if (attempt < 3) continue;
      throw e;
    }
    return {
      ...t,
      server,
      base,
      cleanup: async () => {
        await server.close();
        await t.cleanup();
      },
    };
  }
}

export const PASSWORD = 'correct horse battery staple';

let n = 0;
export async function makeUser(store: Store, extra: { email?: string; role?: 'user' | 'admin' } = {}): Promise<User> {
  n++;
  return createUser(store.db, {
    email: extra.email ?? `person${n}-${randomBytes(3).toString('hex')}@example.com`,
    password: PASSWORD,
    name: `Person ${n}`,
    role: extra.role,
    emailVerified: true,
  });
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A browser of the live app signed in (a session cookie) as a new person with this role. */
export async function signedInBrowser(t: LiveApp, role: 'user' | 'admin'): Promise<Browser> {
  const user = await makeUser(t.store, { role });
  const { token } = await createSession(t.store.db, user.id);
  const b = new Browser(t.base);
  b.cookies.push({ name: SESSION_COOKIE, value: token, path: '/', expires: Infinity });
  return b;
}
