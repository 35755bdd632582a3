/**
 * The baseline of the listings benchmark: a bare Fastify route returning a fixed JSON body, run as
 * its own process so it gets the same treatment as the real server. Prints "listening <port>".
 *
 *   node_modules/.bin/node bench/bare.ts [port]
 */
import Fastify from 'fastify';

const body = {
  slug: 'bare',
  name: 'Bare',
  url: 'https://bare.example/',
  tagline: 'A fixed JSON body',
  votes: 42,
  features: ['one', 'two', 'three'],
  pricing: { model: 'Free', summary: null },
  categories: [{ slug: 'bench', name: 'Bench', primary: true }],
};

const app = Fastify({ logger: false });
app.get('/bare', async () => body);
await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
