// A search thread (store/search/pool.ts): its own read-only SQLite connection and in-memory index
// (feed.ts), answering search_listings off the main event loop. Messages: {id, input} in, {id, result}
// or {id, error: {field?, message}} out.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteReader } from '../sqlite.ts';
import { SearchInputError, searchIndex, searchListings, type SearchInput } from './index.ts';

const { file } = workerData as { file: string };
const db = openSqliteReader(file);
// The index loads as the thread starts (in a builder thread of its own); searches wait for it.
searchIndex(db, 'sqlite', { file }).catch(() => {}); // a failed load is tried again by the first search

parentPort!.on('message', (msg: { id: number; input: SearchInput & { now?: string } }) => {
  const input = { ...msg.input, now: msg.input.now ? new Date(msg.input.now) : undefined };
  searchListings(db, 'sqlite', input).then(
    (result) => parentPort!.postMessage({ id: msg.id, result }),
    (e: unknown) =>
      parentPort!.postMessage({
        id: msg.id,
        error:
          e instanceof SearchInputError
            ? { field: e.field, message: e.message }
            : { message: (e as Error)?.message ?? String(e) },
      }),
  );
});
