/**
 * The one error hierarchy of the package. Every error shape the bunny.net APIs use
 * (core ApiErrorData, Shield GenericRequestResponse and `{error:{...}}`, problem details,
 * logging `{error:{code,message}}`, Stream's StatusModel, empty bodies) is normalised here
 * into a typed error whose message names method, path, status, the server's message and key.
 *
 * Messages never contain request headers; every part of every error (message, server message, key, field, path,
 * cause, and so the stack, `inspect` and JSON) is cleared of the process's known secrets by value in the
 * constructor, and what a server said also of key-shaped values where it is read (redaction.ts). Every part of a
 * message is bounded in length, so a 100 KB id or a 2 GB error body still gives a message of about a kilobyte.
 */

import { MAX_RETRY_AFTER_MS, bounded } from "./bounds";
import { redactKnownSecrets, redactSecrets } from "./redaction";
import { refusesAsDuplicate } from "./errorKeys";
import { describeMissing } from "./missingObjects";

export interface BunnyErrorDetails {
  method: string;
  path: string;
  status?: number;
  serverMessage?: string;
  errorKey?: string;
  field?: string;
  /** How many attempts were made before giving up (1 = no retry). */
  attempts?: number;
  /** What to do about it, in the words of where the user is (a refused key, an unreachable host); ends the message. */
  hint?: string;
  /** What is wrong in the user's words ("there is no pull zone 42 in this account"); begins the message. */
  subject?: string;
}

export class BunnyError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly errorKey?: string;
  readonly field?: string;
  attempts: number;

  constructor(raw: BunnyErrorDetails, summary?: string) {
    // Cleared of known secrets and bounded whatever its source; what a server said is also cleared of key-shaped
    // values where it is read (errorForStatus, Shield's envelope).
    const cut = (v: string | undefined) => (v === undefined ? undefined : bounded(redactKnownSecrets(v)));
    const details = { ...raw, path: redactKnownSecrets(raw.path), serverMessage: cut(raw.serverMessage), errorKey: cut(raw.errorKey), field: cut(raw.field), subject: cut(raw.subject) };
    super(redactKnownSecrets(BunnyError.describe(details, summary ? redactKnownSecrets(summary) : undefined)));
    this.name = new.target.name;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.errorKey = details.errorKey;
    this.field = details.field;
    this.attempts = details.attempts ?? 1;
  }

  /**
   * Says that the request was given up after its retries: how many times it was sent, over how long (the transport's
   * retry loop calls this once, when the last try failed too). Numbers only: nothing secret is added.
   */
  gaveUp(tries: number, elapsedMs: number): void {
    const before = this.message;
    this.attempts = tries;
    this.message = `${before} (gave up after ${tries} tries over ${formatDuration(elapsedMs)})`;
    if (this.stack?.includes(before)) this.stack = this.stack.replace(before, this.message);
  }

  private static describe(d: BunnyErrorDetails, summary?: string): string {
    const parts = [[d.method, bounded(d.path)].filter(Boolean).join(" ")];
    // A refusal inside a 2xx answer (Magic Containers' `status`, Shield's 202) is not told as "answered 200".
    if (d.status !== undefined && !(d.status >= 200 && d.status < 300)) parts.push(`answered ${d.status}`);
    if (summary) parts.push(summary);
    let text = parts.join(" ");
    const server = [
      d.serverMessage !== undefined ? bounded(d.serverMessage) : undefined,
      d.errorKey ? `(${bounded(d.errorKey, 100)})` : undefined,
      d.field ? `[field ${bounded(d.field, 100)}]` : undefined,
    ]
      .filter(Boolean)
      .join(" ");
    if (server) text += `: ${server}`;
    if (d.subject) text = `${d.subject} (${text})`;
    if (d.hint) text += `. ${d.hint}`;
    return text;
  }
}

/** `850 ms`, `12.3 s`. */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * 404: the object (or its parent) does not exist. The message says which, in the user's words, where the path names
 * it ("there is no pull zone 424242 in this account (GET /pullzone/424242 answered 404)": missingObjects.ts).
 */
export class NotFoundError extends BunnyError {
  constructor(details: BunnyErrorDetails, summary?: string) {
    super({ ...details, subject: details.subject ?? (details.status === 404 ? describeMissing(details.path) : undefined) }, summary);
  }
}
/** 401: no credentials, or credentials the API does not know. */
export class UnauthorizedError extends BunnyError {}
/** 403: credentials known but not allowed (suspended zone, wrong key kind). */
export class ForbiddenError extends BunnyError {}
/** 400/422: the server refused the request's content. */
export class ValidationError extends BunnyError {}
/** The object already exists (e.g. hostname already registered). */
export class AlreadyExistsError extends ValidationError {}
/** 5xx. */
export class ServerError extends BunnyError {}
/** Any other unexpected status. */
export class UnexpectedStatusError extends BunnyError {}

/** 429, with the delay the server asked for (if it said). */
export class RateLimitedError extends BunnyError {
  readonly retryAfterMs?: number;
  constructor(details: BunnyErrorDetails, retryAfterMs?: number) {
    super(details, retryAfterMs !== undefined ? `(retry after ${retryAfterMs} ms)` : undefined);
    this.retryAfterMs = retryAfterMs;
  }
}

/** The request never got a complete answer: refused, reset, dropped. */
export class NetworkError extends BunnyError {
  readonly code?: string;
  /** True when the request provably did not reach the server (safe to repeat even for a create). */
  readonly notSent: boolean;
  constructor(details: BunnyErrorDetails, code: string | undefined, notSent: boolean, cause?: unknown, summary?: string) {
    super(details, summary ?? `failed: ${code ?? "network error"}`);
    this.code = code;
    this.notSent = notSent;
    if (cause !== undefined) (this as { cause?: unknown }).cause = redactCause(cause);
  }
}

/**
 * No complete answer within the timeout (JSON calls), or no data for that long (streamed downloads).
 * `code` is always `ETIMEDOUT`; the message says which.
 */
export class TimeoutError extends NetworkError {
  constructor(details: BunnyErrorDetails, what: string, cause?: unknown) {
    super(details, "ETIMEDOUT", false, cause, `timed out: ${what}`);
  }
}

/** The request was refused before it was sent: invalid input (names the field). */
export class InvalidRequestError extends BunnyError {
  readonly issues: { field: string; message: string }[];
  constructor(method: string, path: string, issues: { field: string; message: string }[]) {
    const shown = issues.slice(0, 5).map((i) => ({ field: bounded(redactKnownSecrets(i.field), 100), message: bounded(redactKnownSecrets(i.message), 200) }));
    const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : "";
    super({ method, path, field: shown[0]?.field }, `not sent: ${shown.map((i) => `${i.field}: ${i.message}`).join("; ")}${more}`);
    this.issues = shown;
  }
}

/** A 2xx answer whose body does not have the fields the package needs. */
export class UnexpectedResponseError extends BunnyError {}

/** Settings are missing or wrong (no API key, bad URL). */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

/** Keep only the code and message of a low-level cause (cleared of known secrets): never request options or headers. */
function redactCause(cause: unknown): unknown {
  if (cause instanceof Error) {
    const plain = new Error(bounded(redactKnownSecrets(cause.message)));
    plain.name = cause.name;
    return plain;
  }
  return undefined;
}

interface ParsedErrorBody {
  message?: string;
  errorKey?: string;
  field?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** Reads any of the APIs' error shapes; returns what it could find. */
export function parseErrorBody(text: string): ParsedErrorBody {
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: bounded(text) };
  }
  if (typeof body !== "object" || body === null) return { message: String(body) };
  const b = body as Record<string, unknown>;
  // Shield `{error:{message,errorKey}}` and logging `{error:{code,message,details}}`.
  if (typeof b.error === "object" && b.error !== null) {
    const e = b.error as Record<string, unknown>;
    const details = e.details;
    let field: string | undefined;
    if (typeof details === "object" && details !== null) field = str((details as Record<string, unknown>).field);
    return { message: str(e.message), errorKey: str(e.errorKey) ?? str(e.code), field };
  }
  // Edge databases `{error: "…"}` (BunnyWay/terraform-provider-bunnynet internal/utils/utils.go lines 53-70).
  if (typeof b.error === "string") return { message: b.error };
  // Core ApiErrorData `{ErrorKey, Field, Message}`.
  if ("ErrorKey" in b || "Message" in b) {
    return { message: str(b.Message), errorKey: str(b.ErrorKey), field: str(b.Field) };
  }
  // Problem details, plain and extended (`errors:[{field,message}]`).
  if ("title" in b || "detail" in b) {
    const errors = Array.isArray(b.errors) ? (b.errors as Record<string, unknown>[]) : [];
    const first = errors[0];
    const summary = str(b.detail) ?? str(b.title);
    // An entry that only says the summary again adds nothing (Magic Containers repeats its detail there).
    const extra = errors
      .filter((e) => str(e.message) !== summary)
      .map((e) => `${str(e.field) ?? "?"}: ${str(e.message) ?? ""}`)
      .join("; ");
    const message = [summary, extra || undefined].filter(Boolean).join(" — ");
    return { message, field: first ? str(first.field) : undefined, errorKey: str(b.type) };
  }
  // Shield GenericRequestResponse `{success,message,errorKey,statusCode}` and Stream StatusModel.
  if ("message" in b || "success" in b) {
    return { message: str(b.message), errorKey: str(b.errorKey) };
  }
  return {};
}

/**
 * Parses Retry-After into milliseconds, capped at MAX_RETRY_AFTER_MS. Only the forms HTTP defines are read
 * (RFC 9110 §10.2.3: delta-seconds, here also with a decimal fraction, or an HTTP-date); `0x10`, `1e3`, `-5`
 * and other things `Number()` would accept are ignored, as if the header were absent.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d{1,12}(\.\d{1,6})?$/.test(v)) return Math.min(MAX_RETRY_AFTER_MS, Math.round(Number(v) * 1000));
  if (/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v)) {
    const date = Date.parse(v);
    if (Number.isFinite(date)) return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
  }
  return undefined;
}

/** Builds the typed error for a non-2xx answer. */
export function errorForStatus(
  method: string,
  path: string,
  status: number,
  bodyText: string,
  retryAfter?: string | string[],
  secrets: readonly string[] = [],
  unauthorizedHint?: string,
): BunnyError {
  const parsed = parseErrorBody(bodyText);
  const clean = (v: string | undefined) => (v === undefined ? undefined : redactSecrets(v, secrets));
  const d: BunnyErrorDetails = { method, path, status, serverMessage: clean(parsed.message), errorKey: clean(parsed.errorKey), field: clean(parsed.field) };
  if (status === 404) return new NotFoundError(d);
  if (status === 401) return new UnauthorizedError({ ...d, hint: unauthorizedHint });
  if (status === 403) return new ForbiddenError(d);
  if (status === 429) return new RateLimitedError(d, parseRetryAfter(retryAfter));
  if (status === 409) return new AlreadyExistsError(d);
  // By the API's error key where it names a reason; by the message only where it does not (errorKeys.ts).
  if (status === 400 || status === 422) return refusesAsDuplicate(parsed.errorKey, parsed.message) ? new AlreadyExistsError(d) : new ValidationError(d);
  if (status >= 500) return new ServerError(d);
  return new UnexpectedStatusError(d);
}

/** True for errors that mean "the object is not there" (used by read/delete). */
export function isNotFound(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError;
}
