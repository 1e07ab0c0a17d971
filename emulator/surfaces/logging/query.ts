/**
 * Reading the logging API's query parameters (v1 and v2): each reader returns the value, its default when the
 * parameter is absent or empty, or throws a `ParamError` naming the parameter (answered 400 invalid_request).
 * A repeated parameter counts by its last value.
 */

/** One day in ms: v2's default range and the span of a v1 day file. */
export const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_SUBSTRING_LENGTH = 1024;

/** A query parameter the API refuses: answered 400 invalid_request naming it. */
export class ParamError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | string[] | undefined>;

export function param(q: Query, name: string): string | undefined {
  const v = q[name];
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  return s === undefined || s === "" ? undefined : s;
}

export function intParam(q: Query, name: string, fallback: number, min: number, max: number): number {
  const s = param(q, name);
  if (s === undefined) return fallback;
  if (!/^-?\d+$/.test(s)) throw new ParamError(name, `${name} must be an integer`);
  const n = Number(s);
  if (n < min || n > max) throw new ParamError(name, `${name} must be between ${min} and ${max}`);
  return n;
}

/** A comma-separated list, items trimmed; present but empty is refused. */
export function listParam(q: Query, name: string): string[] | undefined {
  const s = param(q, name);
  if (s === undefined) return undefined;
  const items = s.split(",").map((i) => i.trim()).filter(Boolean);
  if (items.length === 0) throw new ParamError(name, `${name} must list at least one value`);
  return items;
}

/** One of `allowed`, case-insensitively. */
export function enumParam<T extends string>(q: Query, name: string, allowed: readonly T[], fallback: T): T {
  const s = param(q, name);
  if (s === undefined) return fallback;
  const v = s.toLowerCase() as T;
  if (!allowed.includes(v)) throw new ParamError(name, `${name} must be one of ${allowed.join(", ")}`);
  return v;
}

export function boolParam(q: Query, name: string, fallback: boolean): boolean {
  const s = param(q, name);
  if (s === undefined) return fallback;
  if (s === "true") return true;
  if (s === "false") return false;
  throw new ParamError(name, `${name} must be true or false`);
}

/** An ISO 8601 date or date-time, as Unix ms. */
export function instantParam(q: Query, name: string): number | undefined {
  const s = param(q, name);
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(s) || !Number.isFinite(t)) throw new ParamError(name, `${name} must be an ISO 8601 date-time (UTC), e.g. 2026-05-08T00:00:00Z`);
  return t;
}

/** The text of a substring filter, at most 1024 characters. */
export function substringParam(q: Query, name: string): string | undefined {
  const s = param(q, name);
  if (s !== undefined && s.length > MAX_SUBSTRING_LENGTH) throw new ParamError(name, `${name} must be at most ${MAX_SUBSTRING_LENGTH} characters`);
  return s;
}
