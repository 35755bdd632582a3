// A short-lived process that builds a search index (memory-index.ts) from the SQLite file named by its
// first argument, or from PostgreSQL (the URL in LAUNCHLIST_INDEX_DATABASE_URL: a password is not put
// on a command line), writes it to the file named by its second argument (segment-file.ts) and tells its
// parent over IPC. A process, not a thread: the ~100 MB of strings and maps of the build leave with it. Built in a
// thread, they stayed resident in the server after the thread exited (measured: +140 MB RSS at 100,000
// listings, against +25 MB for the index itself). Replies {done: true} or {error}.
import { DatabaseSync } from 'node:sqlite';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { INDEX_COLUMNS, SegmentBuilder, type IndexRow } from './memory-index.ts';
import { writeSegmentFile } from './segment-file.ts';

const file = process.argv[2];
const out = process.argv[3];
/** The server's pid, as it passed it: read here, process.ppid would already be another if the server died first. */
const parent = Number(process.argv[4]);
try {
  const pgUrl = process.env.LAUNCHLIST_INDEX_DATABASE_URL;
  const { builder, position } = pgUrl ? await fromPostgres(pgUrl) : fromSqlite();
  stopIfOrphaned();
  writeSegmentFile(out, builder.finish(), position);
  process.send!({ done: true }, () => process.disconnect?.());
} catch (e) {
  process.send!({ error: (e as Error)?.message ?? String(e) }, () => process.disconnect?.());
}

function fromSqlite(): { builder: SegmentBuilder; position: string } {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA cache_size = -2000;');
  // One read transaction: the feed's position and the rows it covers are one snapshot.
  db.exec('BEGIN');
  const position = String(
    (db.prepare('SELECT rev FROM search_version WHERE id = 1').get() as { rev: number } | undefined)?.rev ?? 0,
  );
  const builder = new SegmentBuilder('sqlite');
  // The server stops its builders when it exits; one killed outright leaves this process to notice
  // that it was adopted (its parent id changed) and stop, rather than finish a build nobody will read,
  // removing the folder it was to write in.
  let n = 0;
  for (const row of db.prepare(`SELECT ${INDEX_COLUMNS.sqlite} FROM listings ORDER BY id`).iterate()) {
    builder.add(row as unknown as IndexRow);
    if (++n % 1000 === 0) stopIfOrphaned();
  }
  db.exec('COMMIT');
  db.close();
  return { builder, position };
}

/** PostgreSQL: read as the server's own in-process load reads (feed.ts readAll), on a connection of its own. */
async function fromPostgres(url: string): Promise<{ builder: SegmentBuilder; position: string }> {
  const [{ connect }, { readAll }] = await Promise.all([import('../connect.ts'), import('./feed.ts')]);
  const store = connect({ databaseUrl: url, sqliteFile: '' });
  try {
    return await readAll(store.db, 'postgres', stopIfOrphaned);
  } finally {
    await store.close();
  }
}

function stopIfOrphaned(): void {
  if (process.ppid === parent) return;
  rmSync(dirname(out), { recursive: true, force: true }); // the server's temporary folder for this build
  process.exit(0);
}
