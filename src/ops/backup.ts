// Backups of the SQLite database, with SQLite's online backup API (node:sqlite's backup()): the copy is
// consistent page by page while the server keeps running and writing (a write meanwhile restarts the
// copy of what it touched; SQLite does that). PostgreSQL is backed up with its own tools (README,
// "Backups": pg_dump --format=custom, pg_restore --clean).
//
//   backup:  the live file -> a new file (written beside it as .partial, checked with PRAGMA
//            integrity_check, then renamed), never over an existing file.
//   restore: a backup -> the live file, with the server stopped. The backup is checked first; the file
//            it replaces is kept beside it as launchlist.db.before-restore-<time>; the copy goes through
//            the backup API as well, so the database's WAL and shared-memory files stay consistent.
import { backup, DatabaseSync } from 'node:sqlite';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';

export interface BackupResult {
  file: string;
  pages: number;
  bytes: number;
  ms: number;
}

/** PRAGMA integrity_check of a database file: "ok" or the problems SQLite lists. */
export function integrityOf(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

async function copy(from: string, to: string): Promise<number> {
  const source = new DatabaseSync(from, { readOnly: true });
  try {
    // 256 pages per step: the server's writers wait at most one step's time for the source's lock.
    return await backup(source, to, { rate: 256 });
  } finally {
    source.close();
  }
}

/** An online backup of the SQLite file `source` into the new file `target`. */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  const started = performance.now();
  if (!existsSync(source)) throw new Error(`there is no database at ${source}`);
  if (existsSync(target)) throw new Error(`${target} already exists; give a new file name`);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    const pages = await copy(source, partial);
    const check = integrityOf(partial);
    if (check !== 'ok') throw new Error(`the copy failed its integrity check: ${check}`);
    renameSync(partial, target);
    return { file: target, pages, bytes: statSync(target).size, ms: Math.round(performance.now() - started) };
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
}

/** Puts a backup in place of the SQLite file `target` (the server must be stopped); returns where the old file went. */
export async function restoreSqlite(
  backupFile: string,
  target: string,
  now = new Date(),
): Promise<BackupResult & { previous?: string }> {
  const started = performance.now();
  if (!existsSync(backupFile)) throw new Error(`there is no backup at ${backupFile}`);
  const check = integrityOf(backupFile);
  if (check !== 'ok') throw new Error(`${backupFile} failed its integrity check: ${check}`);
  let previous: string | undefined;
  if (existsSync(target)) {
    previous = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    await copy(target, previous);
  }
  const pages = await copy(backupFile, target);
  return {
    file: target,
    pages,
    bytes: statSync(target).size,
    ms: Math.round(performance.now() - started),
    ...(previous ? { previous } : {}),
  };
}
