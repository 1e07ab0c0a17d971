/**
 * Keeping credentials out of everything the package says: the process's known secrets (the account key of every
 * client, the bearer tokens and library keys of requests) are removed from every part of every error, by value,
 * and whatever a server says is also cleared of anything shaped like a key.
 *
 * By value means any fragment of 12 or more characters of a secret, in any letter case, raw, URL-encoded or base64
 * (standard or URL-safe, at any alignment): a server that echoes a third of the key, an upper-cased half or its
 * URL encoding gives it away as surely as one that echoes it whole (issue 25). A fragment is found as a run of
 * 12-character windows of the text that each occur in one of those forms of a secret.
 */

/** The shortest fragment of a secret that is removed; a secret shorter than this is removed only whole. */
export const SECRET_FRAGMENT = 12;
/** Shorter values are never treated as secrets (they would blank ordinary words). */
const MIN_SECRET = 8;
/** The most distinct secrets remembered (a long-lived process that rotates keys forgets the oldest). */
const MAX_KNOWN = 64;

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

const REDACTED = "[redacted]";

/** The windows of every form of a secret, by secret (insertion order is age: the oldest is dropped first). */
const known = new Map<string, Set<string>>();

/** ASCII-only lower case: keeps every index of the text where it was (String.toLowerCase can change lengths). */
const lowerAscii = (text: string) => text.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/** Base64 of `secret` as it appears inside a longer encoded text starting at each of the three byte alignments. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    let text = Buffer.concat([Buffer.alloc(lead), bytes]).toString("base64").replace(/=+$/, "");
    // Characters that mix in the leading bytes or the missing trailing ones are not the secret's.
    if ((lead + bytes.length) % 3 !== 0) text = text.slice(0, -4);
    if (lead > 0) text = text.slice(4);
    forms.push(text, text.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

/** Every form a secret can be echoed in, lower-cased. */
function formsOf(secret: string): string[] {
  const urlEncoded = [encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2)];
  return [...new Set([secret, ...urlEncoded, ...base64Forms(secret)].map(lowerAscii))];
}

function windowsOf(secret: string): Set<string> {
  const size = Math.min(SECRET_FRAGMENT, secret.length);
  const windows = new Set<string>();
  for (const form of formsOf(secret)) {
    for (let i = 0; i + size <= form.length; i++) windows.add(form.slice(i, i + size));
  }
  return windows;
}

/** Remembers a credential of this process, so that no error will ever show it (see the header). */
export function rememberSecret(secret: string | undefined): void {
  if (!secret || secret.length < MIN_SECRET) return;
  if (known.has(secret)) {
    // Most recently used last: the one dropped when full is the oldest unused.
    const windows = known.get(secret)!;
    known.delete(secret);
    known.set(secret, windows);
    return;
  }
  known.set(secret, windowsOf(secret));
  if (known.size > MAX_KNOWN) known.delete(known.keys().next().value!);
}

/** Replaces every fragment of a known secret (and of `extra`) in `text` with `[redacted]`. */
export function redactKnownSecrets(text: string, extra: readonly string[] = []): string {
  const sets = [...known.values()];
  for (const secret of extra) if (secret.length >= MIN_SECRET && !known.has(secret)) sets.push(windowsOf(secret));
  if (sets.length === 0 || text.length < MIN_SECRET) return text;
  const lower = lowerAscii(text);
  const hidden = new Uint8Array(text.length);
  let any = false;
  for (const windows of sets) {
    const size = windows.values().next().value?.length ?? SECRET_FRAGMENT;
    for (let i = 0; i + size <= lower.length; i++) {
      if (windows.has(lower.slice(i, i + size))) {
        hidden.fill(1, i, i + size);
        any = true;
      }
    }
  }
  if (!any) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (!hidden[i]) out += text[i];
    else if (i === 0 || !hidden[i - 1]) out += REDACTED;
  }
  return out;
}

/** What a server said, made safe to show: known secrets (and `extra`) by value, then anything key-shaped. */
export function redactSecrets(text: string, extra: readonly string[] = []): string {
  let out = redactKnownSecrets(text, extra);
  for (const pattern of KEY_LIKE) out = out.replace(pattern, REDACTED);
  return out;
}
