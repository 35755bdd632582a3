// Fastify gives every request a child logger carrying its reqId. Making one is a measurable part of a
// cheap read (pino serialises the bindings up front), and at the default level most requests never
// log. This factory hands out a stand-in that makes the real child on the first call at an enabled
// level; calls at disabled levels cost nothing.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

export function lazyChildLogger(this: FastifyInstance, logger: FastifyBaseLogger, bindings: Record<string, unknown>, opts: object): FastifyBaseLogger {
  const pino = logger as unknown as { isLevelEnabled?: (level: string) => boolean };
  const enabled = (level: string) => (typeof pino.isLevelEnabled === 'function' ? pino.isLevelEnabled(level) : true);
  let child: FastifyBaseLogger | undefined;
  const real = () => (child ??= logger.child(bindings, opts));
  const noop = () => {};
  const stand: Record<string, unknown> = {
    child: (b: Record<string, unknown>, o?: object) => real().child(b, o),
    silent: noop,
  };
  Object.defineProperty(stand, 'level', { get: () => (child ?? logger).level, set: (v: string) => { real().level = v; }, enumerable: true });
  for (const level of LEVELS) {
    stand[level] = (...args: unknown[]) => {
      if (!enabled(level)) return;
      (real()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  stand.isLevelEnabled = enabled;
  return stand as unknown as FastifyBaseLogger;
}
