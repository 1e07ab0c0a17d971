/**
 * Bounds on what a server can make the client hold, wait for or repeat: message lengths, key-shaped values in its
 * words, Retry-After. Internal to the HTTP layer (not part of the package's public exports).
 */

/** Longest server message, path, field or key kept in an error (characters). */
export const MAX_MESSAGE_PART = 300;

/** Cuts `text` to `max` characters, saying how much was left out. */
export function bounded(text: string, max = MAX_MESSAGE_PART): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * Values that look like credentials: bunny.net keys (UUID-shaped, often two UUIDs run together), JWTs, and long
 * opaque tokens of letters and digits (32 or more, both present; a hyphenated host name is not one). Replaced
 * wherever a server's words enter an error.
 */
const KEY_LIKE = [
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:[0-9a-f-]{0,48})/gi,
  /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g,
  /\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{32,}\b/g,
];

/** Replaces the given secrets (whole or any half of one) and anything key-shaped with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 8) continue;
    const half = Math.floor(secret.length / 2);
    for (const part of [secret, secret.slice(0, half), secret.slice(half)]) out = out.split(part).join("[redacted]");
  }
  for (const pattern of KEY_LIKE) out = out.replace(pattern, "[redacted]");
  return out;
}

/** The longest wait any Retry-After can impose: beyond it, the retry (or the limiter) waits this long. */
export const MAX_RETRY_AFTER_MS = 60_000;
