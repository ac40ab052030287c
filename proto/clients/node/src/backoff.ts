// Reconnect delays: exponential growth with full jitter, capped, reset after a stream that
// lived long enough to count as healthy. Full jitter spreads a fleet of game servers that
// lost the daemon at the same moment, so they do not all come back in the same instant.

export interface BackoffOptions {
  /** First delay, milliseconds (> 0). Default 200. */
  initialMs?: number;
  /** Largest delay, milliseconds (>= initialMs). Default 10,000. */
  maxMs?: number;
  /** Growth per failed attempt (>= 1). Default 2. */
  multiplier?: number;
  /** Fraction of each delay drawn at random, 0..1 (0: exact delays). Default 0.5. */
  jitter?: number;
  /** Source of randomness in [0, 1); Math.random by default (tests pass their own). */
  random?: () => number;
}

export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly multiplier: number;
  private readonly jitter: number;
  private readonly random: () => number;
  private attempt = 0;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 200;
    this.maxMs = options.maxMs ?? 10_000;
    this.multiplier = options.multiplier ?? 2;
    this.jitter = options.jitter ?? 0.5;
    this.random = options.random ?? Math.random;
    if (!(this.initialMs > 0)) throw new RangeError(`backoff initialMs: must be > 0, got ${this.initialMs}`);
    if (!(this.maxMs >= this.initialMs)) throw new RangeError(`backoff maxMs: must be >= initialMs (${this.initialMs}), got ${this.maxMs}`);
    if (!(this.multiplier >= 1)) throw new RangeError(`backoff multiplier: must be >= 1, got ${this.multiplier}`);
    if (!(this.jitter >= 0 && this.jitter <= 1)) throw new RangeError(`backoff jitter: must be within [0, 1], got ${this.jitter}`);
  }

  /** Failed attempts since the last reset. */
  get attempts(): number {
    return this.attempt;
  }

  /** The delay before the next attempt, milliseconds; counts one more failed attempt. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.initialMs * Math.pow(this.multiplier, this.attempt));
    this.attempt += 1;
    return ceiling * (1 - this.jitter) + ceiling * this.jitter * this.random();
  }

  /** A connection succeeded: start again from initialMs. */
  reset(): void {
    this.attempt = 0;
  }
}
