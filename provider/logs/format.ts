/**
 * The v1 ("legacy") CDN log format: one request a line, fields separated by `|`, in this order.
 * Extended logging appends three more columns. The format has no escaping: a `|` inside a value
 * is written as is (see parseV1.ts for how the parser resolves one in the user agent).
 */
export const V1_COLUMNS = [
  "cacheStatus",
  "statusCode",
  "timestamp",
  "bytesSent",
  "pullZoneId",
  "remoteIp",
  "referer",
  "url",
  "edgeLocation",
  "userAgent",
  "requestId",
  "countryCode",
] as const;

export const V1_EXTENDED_COLUMNS = [...V1_COLUMNS, "bodyBytesSent", "contentRange", "authorizationHeader"] as const;

export const V1_STANDARD_COLUMN_COUNT = V1_COLUMNS.length;
export const V1_EXTENDED_COLUMN_COUNT = V1_EXTENDED_COLUMNS.length;

/** The referer column's value when the request carried none. */
export const V1_NO_REFERER = "-";

/** What one v1 line holds. Absent optional values are `undefined` (written as an empty column, `-` for the referer). */
export interface V1LogFields {
  cacheStatus: string;
  statusCode: number;
  /** Unix milliseconds (UTC). */
  timestamp: number;
  bytesSent: number;
  pullZoneId: number;
  remoteIp: string | undefined;
  referer: string | undefined;
  url: string;
  edgeLocation: string;
  userAgent: string | undefined;
  requestId: string;
  countryCode: string | undefined;
  /** Extended logging only: response body bytes. */
  bodyBytesSent?: number | undefined;
  /** Extended logging only: the request's Range header. */
  contentRange?: string | undefined;
  /** Extended logging only: the request's Authorization header. */
  authorizationHeader?: string | undefined;
}

/** A parsed line: the fields plus where it was in the file (1-based) and whether it had the extended columns. */
export interface V1LogEntry extends V1LogFields {
  kind: "entry";
  line: number;
  extended: boolean;
}

/** A line the parser could not read; parsing continues after it. */
export interface V1MalformedLine {
  kind: "malformed";
  line: number;
  reason: string;
  /** The line's text (cut to a few hundred characters). */
  text: string;
}

export type V1Record = V1LogEntry | V1MalformedLine;

/** One v1 line, without the newline. `extended` writes the three extended-logging columns. */
export function formatV1Line(f: V1LogFields, extended = false): string {
  let line =
    `${f.cacheStatus}|${f.statusCode}|${f.timestamp}|${f.bytesSent}|${f.pullZoneId}|${f.remoteIp ?? ""}|` +
    `${f.referer ?? V1_NO_REFERER}|${f.url}|${f.edgeLocation}|${f.userAgent ?? ""}|${f.requestId}|${f.countryCode ?? ""}`;
  if (extended) line += `|${f.bodyBytesSent ?? ""}|${f.contentRange ?? ""}|${f.authorizationHeader ?? ""}`;
  return line;
}

/** The shape v2 answers with (null fields omitted), so v1 files and v2 queries convert to the same JSON lines. */
export interface LogEntryJson {
  timestamp: string;
  pullZoneId: number;
  requestId: string;
  cacheStatus: string;
  statusCode: number;
  bytesSent: number;
  edgeLocation: string;
  scheme?: string;
  host?: string;
  path?: string;
  url: string;
  remoteIp?: string;
  countryCode?: string;
  userAgent?: string;
  referer?: string;
  bodyBytesSent?: number;
  contentRange?: string;
  authorizationHeader?: string;
}

/** Splits `https://host/path?q` without `new URL` (fast, and keeps the path exactly as logged). */
function splitUrl(url: string): { scheme?: string; host?: string; path?: string } {
  const sep = url.indexOf("://");
  if (sep <= 0) return {};
  const slash = url.indexOf("/", sep + 3);
  return { scheme: url.slice(0, sep), host: url.slice(sep + 3, slash < 0 ? undefined : slash), path: slash < 0 ? "/" : url.slice(slash) };
}

/** A v1 entry in the v2 JSON shape. */
export function v1EntryToJson(e: V1LogFields): LogEntryJson {
  const json: LogEntryJson = {
    timestamp: new Date(e.timestamp).toISOString(),
    pullZoneId: e.pullZoneId,
    requestId: e.requestId,
    cacheStatus: e.cacheStatus,
    statusCode: e.statusCode,
    bytesSent: e.bytesSent,
    edgeLocation: e.edgeLocation,
    ...splitUrl(e.url),
    url: e.url,
  };
  if (e.remoteIp !== undefined) json.remoteIp = e.remoteIp;
  if (e.countryCode !== undefined) json.countryCode = e.countryCode;
  if (e.userAgent !== undefined) json.userAgent = e.userAgent;
  if (e.referer !== undefined) json.referer = e.referer;
  if (e.bodyBytesSent !== undefined) json.bodyBytesSent = e.bodyBytesSent;
  if (e.contentRange !== undefined) json.contentRange = e.contentRange;
  if (e.authorizationHeader !== undefined) json.authorizationHeader = e.authorizationHeader;
  return json;
}
