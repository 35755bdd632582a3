// Opens the configured database and brings its schema up to date.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { connect, type Store } from './connect.ts';
import { migrate } from './migrate.ts';

export async function openStore(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Store> {
  const store = connect({ databaseUrl: config.DATABASE_URL, sqliteFile: join(config.DATA_DIR, 'launchlist.db') });
  try {
    await migrate(store.db, store.engine);
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}
