/**
 * When a failed request is sent again, and after how long: which failures a policy retries, full-jitter exponential
 * backoff, and the server's Retry-After (read by `parseRetryAfter` in errors.ts, capped at MAX_RETRY_AFTER_MS).
 */
import { MAX_RETRY_AFTER_MS } from "./bounds";
import { type BunnyError, NetworkError, RateLimitedError, ServerError } from "./errors";

/**
 * When a request may be sent again after a failure.
 * - "idempotent": repeating it cannot change the outcome (GET, DELETE, PUT, a PATCH or POST that sets
 *   absolute values). Retried on 429, 5xx, timeouts and connection failures.
 * - "create": repeating it could create a duplicate. Retried only when the server provably did not act:
 *   429 (refused by the rate limiter) and connections refused before anything was sent. A 5xx or timeout
 *   is ambiguous and surfaces to the caller, whose create looks the object up before trying again.
 * - "never": not retried at all (closing the account).
 */
export type RetryPolicy = "idempotent" | "create" | "never";

/** The policy a request gets when it names none: a POST may create, everything else is idempotent. */
export function defaultRetryPolicy(method: string): RetryPolicy {
  return method === "POST" ? "create" : "idempotent";
}

/** How many times a request is sent at most. */
export function maxAttempts(policy: RetryPolicy, maxRetries: number): number {
  return policy === "never" ? 1 : maxRetries + 1;
}

/** Whether `error` may be retried under `policy` (attempts left aside). */
export function isRetryable(policy: RetryPolicy, error: BunnyError): boolean {
  if (policy === "never") return false;
  if (error instanceof RateLimitedError) return true;
  if (error instanceof NetworkError) return policy === "idempotent" || error.notSent;
  if (error instanceof ServerError) return policy === "idempotent";
  return false;
}

/** Full-jitter exponential backoff, but never sooner than the server's Retry-After. */
export function backoffMs(attempt: number, error: BunnyError, retryBaseDelayMs: number): number {
  const cap = Math.min(10_000, retryBaseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.random() * cap;
  const asked = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
  return asked !== undefined ? Math.min(asked, MAX_RETRY_AFTER_MS) + Math.random() * 50 : jittered;
}
