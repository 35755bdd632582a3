// A short-lived process that builds a search index (memory-index.ts) from the SQLite file named by its
// first argument, or from PostgreSQL (the URL in LAUNCHLIST_INDEX_DATABASE_URL: a password is not put
// on a command line), writes it to the file named by its second argument (segment-file.ts) and tells its
// parent over IPC. A process, not a thread: the ~100 MB of strings and maps of the build leave with it. Built in a
// thread, they stayed resident in the server after the thread exited (measured: +140 MB RSS at 100,000
// listings, against +25 MB for the index itself). Replies {done: true} or {error}.
import { DatabaseSync } from 'node:sqlite';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { INDEX_COLUMNS, normalise, SegmentBuilder, type IndexRow } from './memory-index.ts';
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

/**
 * PostgreSQL: the feed's position (the snapshot's xmin) first, then every listing in slices of 5,000
 * (as feed.ts's load does in process): whatever changes meanwhile is read again by the server's feed.
 */
async function fromPostgres(url: string): Promise<{ builder: SegmentBuilder; position: string }> {
  const { loadPg } = await import('../connect.ts'); // pg with the type parsers the server reads with
  const client = new (loadPg().Client)({ connectionString: url });
  await client.connect();
  try {
    const position = String(
      (await client.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin')).rows[0]
        .xmin,
    );
    const builder = new SegmentBuilder('postgres');
    for (let last = 0; ; ) {
      const rows = (
        await client.query<IndexRow>(
          `SELECT ${INDEX_COLUMNS.postgres} FROM listings WHERE id > $1 ORDER BY id LIMIT 5000`,
          [last],
        )
      ).rows;
      for (const r of rows) builder.add(normalise(r));
      stopIfOrphaned();
      if (rows.length < 5000) break;
      last = Number(rows[rows.length - 1].id);
    }
    return { builder, position };
  } finally {
    await client.end();
  }
}

function stopIfOrphaned(): void {
  if (process.ppid === parent) return;
  rmSync(dirname(out), { recursive: true, force: true }); // the server's temporary folder for this build
  process.exit(0);
}
