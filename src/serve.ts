// The service, as main.ts starts it: configuration, storage, demo content, the server, workers,
// graceful shutdown.
import { loadConfig } from './config.ts';
import { openStore } from './store/index.ts';
import { directoryIsEmpty } from './store/seed/empty.ts';
import { createServer, warmSearchIndex } from './server.ts';
import { startIdleGc } from './ops/idle-gc.ts';

const config = loadConfig();
const started = performance.now();
const store = await openStore(config);
// The demo content and its data modules are loaded only for a database that has nothing in it yet.
if (config.SEED_DEMO && (await directoryIsEmpty(store.db))) {
  await (await import('./store/seed/index.ts')).seedIfEmpty(store, { publicUrl: config.publicUrl });
}
const server = await createServer(config, store);
await server.app.listen({ port: config.PORT, host: config.HOST });
server.app.log.info(
  { url: config.publicUrl, engine: store.engine, ms: Math.round(performance.now() - started) },
  'Launchlist is up',
);
// What was compiled to start (main.ts turned the compile cache on) is written soon after, not only at a
// graceful exit; not before the first requests, which it would hold up.
setTimeout(() => process.getBuiltinModule('node:module').flushCompileCache?.(), 2000).unref();
warmSearchIndex(server);
// memory given back when the server goes quiet after a busy spell (one process: not in the tests' apps)
const stopIdleGc = config.IDLE_GC
  ? startIdleGc((fields) => server.app.log.info(fields, 'memory given back after a busy spell'))
  : undefined;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  server.app.log.info({ signal }, 'shutting down');
  stopIdleGc?.();
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await server.close();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
