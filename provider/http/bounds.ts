/**
 * Bounds on what a server can make the client hold, wait for or repeat: message lengths, Retry-After (what it may
 * not show: redaction.ts). Internal to the HTTP layer (not part of the package's public exports).
 */

/** Longest server message, path, field or key kept in an error (characters). */
export const MAX_MESSAGE_PART = 300;

/** Cuts `text` to `max` characters, saying how much was left out. */
export function bounded(text: string, max = MAX_MESSAGE_PART): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** The longest wait any Retry-After can impose: beyond it, the retry (or the limiter) waits this long. */
export const MAX_RETRY_AFTER_MS = 60_000;
