/**
 * What a request that got no answer failed with: a TimeoutError (no complete answer, or for a stream no data, within
 * the timeout) or a NetworkError, which says whether the request provably never reached the server (then even a
 * create may be sent again: see retryPolicy.ts).
 */
import { NetworkError, TimeoutError } from "./errors";

/** Failures that happen before a byte of the request was sent (the connection was never made). */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * The typed error for what undici (or the abort signal) threw; `timeoutMs` is the transport's timeout, and
 * `unreachableHint` ends the message of a connection never made (it names the host and the setting to check).
 */
export function connectionError(request: { method: string; path: string }, e: unknown, mode: "json" | "stream", timeoutMs: number, unreachableHint?: string): NetworkError {
  const err = e as { name?: string; code?: string; cause?: { code?: string } };
  const details = { method: request.method, path: request.path };
  if (err?.code === "UND_ERR_BODY_TIMEOUT" && mode === "stream") return new TimeoutError(details, `no data for ${timeoutMs} ms`, e);
  if (err?.name === "TimeoutError" || err?.name === "AbortError" || err?.code === "UND_ERR_HEADERS_TIMEOUT" || err?.code === "UND_ERR_BODY_TIMEOUT") {
    return new TimeoutError(details, mode === "stream" ? `no answer within ${timeoutMs} ms` : `no complete answer within ${timeoutMs} ms`, e);
  }
  const code = err?.code ?? err?.cause?.code;
  const notSent = code !== undefined && NOT_SENT_CODES.has(code);
  return new NetworkError({ ...details, hint: notSent ? unreachableHint : undefined }, code, notSent, e);
}
