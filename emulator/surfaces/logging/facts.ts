/**
 * The logging API's published numbers, as the emulator reads them (its own statement: the provider states the same
 * facts for itself, and tests/emulator/sharedFacts.test.ts checks that the two agree).
 *
 * Sources: BUNNY-API.md, "CDN logs" ("Both versions: 30 requests per 10 seconds per pull zone, then 429; retention
 * 3 days; cache status values HIT, MISS, BYPASS, REVALIDATED, STALE, UPDATING, `-` (v2 docs also show EXPIRED)"), and
 * the logging API's pages on docs.bunny.net (cdn/logging, api-reference/cdn-logging).
 */

/** Logs are kept 3 days, and one v2 query may span at most that. */
export const RETENTION_MS = 3 * 24 * 60 * 60 * 1000;

/** Requests per window per pull zone, over v1 and v2 together; the next one answers 429 `rate_limited`. */
export const ZONE_REQUEST_BUDGET = { requests: 30, windowMs: 10_000 } as const;

/** The cache status values a log line carries, and `cacheStatus` filters accept (EXPIRED from the v2 pages). */
export const CACHE_STATUSES: readonly string[] = ["HIT", "MISS", "BYPASS", "REVALIDATED", "STALE", "UPDATING", "EXPIRED", "-"];

/**
 * The server side of the budget: a request is admitted while fewer than `requests` were admitted in the last
 * `windowMs`; otherwise refused, with the ms until the oldest leaves the window (for Retry-After).
 */
export class ZoneRequestWindow {
  private readonly admitted: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** 0 when admitted (and counted), else the ms to wait. */
  admit(): number {
    const t = this.now();
    while (this.admitted.length > 0 && this.admitted[0] <= t - ZONE_REQUEST_BUDGET.windowMs) this.admitted.shift();
    if (this.admitted.length < ZONE_REQUEST_BUDGET.requests) {
      this.admitted.push(t);
      return 0;
    }
    return this.admitted[0] + ZONE_REQUEST_BUDGET.windowMs - t;
  }
}
