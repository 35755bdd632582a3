// Fastify gives every request a child logger carrying its reqId. Making one is a measurable part of a
// cheap read (pino serialises the bindings up front), and at the default level most requests never
// log. This factory hands out a stand-in that makes the real child on the first call at an enabled
// level; calls at disabled levels cost nothing. One small object per request, methods on the prototype.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

type Log = (...args: unknown[]) => void;
type Pino = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

class LazyLogger {
  readonly #parent: Pino;
  readonly #bindings: Record<string, unknown>;
  readonly #opts: object;
  #child: FastifyBaseLogger | undefined;
  constructor(parent: Pino, bindings: Record<string, unknown>, opts: object) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#opts = opts;
  }
  #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#opts));
  }
  isLevelEnabled(level: string): boolean {
    return typeof this.#parent.isLevelEnabled === 'function' ? this.#parent.isLevelEnabled(level) : true;
  }
  #log(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    if (this.isLevelEnabled(level)) (this.#real()[level] as Log)(...args);
  }
  get level(): string {
    return (this.#child ?? this.#parent).level;
  }
  set level(v: string) {
    this.#real().level = v;
  }
  child(bindings: Record<string, unknown>, opts?: object): FastifyBaseLogger {
    return this.#real().child(bindings, opts);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}
}

export function lazyChildLogger(
  this: FastifyInstance,
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  opts: object,
): FastifyBaseLogger {
  return new LazyLogger(logger as Pino, bindings, opts) as unknown as FastifyBaseLogger;
}
