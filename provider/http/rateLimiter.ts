import { setTimeout as sleep } from "node:timers/promises";
import { MAX_RETRY_AFTER_MS } from "./bounds";

/**
 * A sliding-window limiter: at most `limit` starts in any `windowMs`. The logging API allows
 * 30 requests per 10 seconds per pull zone; one limiter per zone keeps a long paging run under it.
 */
export class SlidingWindowLimiter {
  private readonly starts: number[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when one more request may start; callers are served in order. */
  acquire(): Promise<void> {
    const turn = this.chain.then(() => this.waitForSlot());
    this.chain = turn.catch(() => undefined);
    return turn;
  }

  /** Pushes the whole window back after the server said 429 anyway (clock skew, other clients); at most MAX_RETRY_AFTER_MS. */
  penalize(delayMs: number): void {
    const until = this.now() + Math.min(Math.max(0, delayMs), MAX_RETRY_AFTER_MS);
    this.starts.length = 0;
    for (let i = 0; i < this.limit; i++) this.starts.push(until - this.windowMs);
  }

  /**
   * Takes a slot now if one is free and returns 0; otherwise takes nothing and returns the ms until one frees up.
   * For a server enforcing the window (the emulator), which refuses rather than waits.
   */
  tryAcquire(): number {
    const t = this.now();
    this.forgetOlderThanWindow(t);
    if (this.starts.length < this.limit) {
      this.starts.push(t);
      return 0;
    }
    return this.starts[0] + this.windowMs - t;
  }

  private forgetOlderThanWindow(t: number): void {
    while (this.starts.length > 0 && this.starts[0] <= t - this.windowMs) this.starts.shift();
  }

  private async waitForSlot(): Promise<void> {
    for (;;) {
      const t = this.now();
      this.forgetOlderThanWindow(t);
      if (this.starts.length < this.limit) {
        this.starts.push(t);
        return;
      }
      // A few ms of margin: the server's window and ours do not start at the same instant.
      const wait = this.starts[0] + this.windowMs - t + 5;
      await sleep(wait);
    }
  }
}

/** The logging API's budget: 30 requests per 10 seconds per pull zone. */
export const LOGGING_RATE_LIMIT = { limit: 30, windowMs: 10_000 } as const;

const limiters = new Map<string, SlidingWindowLimiter>();

/**
 * Requests reach the server some ms after they start, and not all equally late (a new connection, a busy
 * loop): a first request delayed more than a later one would put 31 inside the server's 10 s. A quarter
 * second of slack on the client's window absorbs that.
 */
export const LOGGING_CLIENT_WINDOW_SLACK_MS = 250;

/** One limiter per key per process (e.g. `logging:<pullZoneId>`), shared by every client. */
export function limiterFor(key: string, limit: number = LOGGING_RATE_LIMIT.limit, windowMs: number = LOGGING_RATE_LIMIT.windowMs + LOGGING_CLIENT_WINDOW_SLACK_MS): SlidingWindowLimiter {
  let l = limiters.get(key);
  if (!l) {
    l = new SlidingWindowLimiter(limit, windowMs);
    limiters.set(key, l);
  }
  return l;
}
