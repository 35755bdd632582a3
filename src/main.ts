// Process entry. It turns on Node's module compile cache before anything else is loaded, then starts
// the service (serve.ts). The cache keeps each module's type-stripped and compiled code on disk
// (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off),
// so every start after the first skips stripping the types of ~150 TypeScript files and compiling
// them: about a third of a start (`npm run bench`: "cold" against "cold+cache"). A changed file is
// compiled again; the cache only ever speeds a start up.
const cache = process.getBuiltinModule('node:module').enableCompileCache?.();
// The search index builder (a child process) inherits it through the environment.
if (cache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cache.directory;
await import('./serve.ts');
