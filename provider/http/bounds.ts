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

/**
 * The deepest nesting of arrays and objects read in a JSON answer. The deepest schema (a container app's template)
 * needs under ten levels; a deeper answer is refused before it is parsed, because copying or validating a
 * 100 000-deep value overflows the stack (issue 25).
 */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text nests arrays and objects deeper than `max` (scanned, not parsed: no recursion). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \\ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** The longest wait any Retry-After can impose: beyond it, the retry (or the limiter) waits this long. */
export const MAX_RETRY_AFTER_MS = 60_000;
