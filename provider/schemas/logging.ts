import { z } from "zod";

/** CDN logs (logging.bunnycdn.com). There is no OpenAPI document: these follow the published API description. */

export const LOG_CACHE_STATUSES = ["HIT", "MISS", "BYPASS", "REVALIDATED", "STALE", "UPDATING", "EXPIRED", "-"] as const;
export type LogCacheStatus = (typeof LOG_CACHE_STATUSES)[number];

/** Logs are kept 3 days, and one query may span at most that. */
export const LOG_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;
export const LOG_MAX_PAGE_SIZE = 10_000;

/** A status code (404) or a class ("5xx"). */
export const LogStatusFilterSchema = z.union([
  z.number().int().min(100).max(599),
  z.string().regex(/^[1-5]xx$/i, "must be a status code (100-599) or a class like 5xx"),
]);

/** A Date, or an ISO 8601 string; sent as ISO UTC. */
const instant = z
  .union([z.date(), z.string().regex(/^\d{4}-\d{2}-\d{2}(T|$)/, "must be an ISO 8601 date-time")])
  .refine((v) => Number.isFinite(v instanceof Date ? v.getTime() : Date.parse(v)), "must be a valid date")
  .transform((v) => new Date(v instanceof Date ? v.getTime() : Date.parse(v)).toISOString());

const searchTokens = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(/\s+/)).map((t) => t.trim()).filter(Boolean))
  .pipe(z.array(z.string().max(128, "each search token must be at most 128 characters")).max(16, "at most 16 search tokens"));

const substring = z.string().min(1).max(1024);

/** `GET /v2/pullzones/{id}/logs` query. */
export const LogQueryParamsSchema = z
  .object({
    /** Inclusive; default `to` − 24 h; must be inside the 3-day retention. */
    from: instant.optional(),
    /** Exclusive; default now. */
    to: instant.optional(),
    status: z.array(LogStatusFilterSchema).min(1).optional(),
    cacheStatus: z.array(z.enum(LOG_CACHE_STATUSES)).min(1).optional(),
    /** ISO 3166 alpha-2. */
    country: z.array(z.string().regex(/^[A-Za-z]{2}$/, "must be an ISO 3166 alpha-2 country code")).min(1).optional(),
    edgeLocation: z.string().regex(/^[A-Za-z0-9-]{1,16}$/, "must be an edge location code like DE or NY").optional(),
    remoteIp: z.string().min(1).max(128).optional(),
    requestId: z.string().min(1).max(128).optional(),
    includeOriginShield: z.boolean().optional(),
    /** Case-insensitive substrings. */
    urlContains: substring.optional(),
    userAgentContains: substring.optional(),
    refererContains: substring.optional(),
    /** Tokens (a space-separated string or a list): any token in cache status, request id, edge location, host, path, user agent or referer. */
    search: searchTokens.optional(),
    limit: z.number().int().min(1).max(LOG_MAX_PAGE_SIZE).optional(),
    offset: z.number().int().min(0).optional(),
    order: z.enum(["asc", "desc"]).optional(),
  })
  .strict()
  .superRefine((q, issue) => {
    if (q.from === undefined || q.to === undefined) return;
    const span = Date.parse(q.to) - Date.parse(q.from);
    if (span <= 0) issue.addIssue({ code: "custom", path: ["from"], message: "must be before to" });
    else if (span > LOG_RETENTION_MS) issue.addIssue({ code: "custom", path: ["to"], message: "the range from..to must be at most 3 days" });
  });

export type LogQueryParams = z.input<typeof LogQueryParamsSchema>;

/** The validated query as the API's query string. */
export function logQueryString(q: z.output<typeof LogQueryParamsSchema>): Record<string, string | number | boolean | undefined> {
  return {
    ...q,
    status: q.status?.join(","),
    cacheStatus: q.cacheStatus?.join(","),
    country: q.country?.join(","),
    search: q.search && q.search.length > 0 ? q.search.join(" ") : undefined,
  };
}

/**
 * One request. Tolerant: unknown fields are ignored, and every field the logging API's own OpenAPI document
 * (https://logging.bunnycdn.com/docs/all/swagger.json, the v2 log entry) marks nullable may be null or absent:
 * only `timestamp`, `pullZoneId`, `statusCode` and `bytesSent` are always there.
 */
export const LogEntrySchema = z.object({
  timestamp: z.string(),
  pullZoneId: z.number(),
  requestId: z.string().nullish(),
  cacheStatus: z.string().nullish(),
  statusCode: z.number(),
  bytesSent: z.number(),
  edgeLocation: z.string().nullish(),
  scheme: z.string().nullish(),
  host: z.string().nullish(),
  path: z.string().nullish(),
  url: z.string().nullish(),
  remoteIp: z.string().nullish(),
  countryCode: z.string().nullish(),
  userAgent: z.string().nullish(),
  referer: z.string().nullish(),
  ja4Fingerprint: z.string().nullish(),
  asn: z.number().nullish(),
  asnOrganization: z.string().nullish(),
  /** Extended logging only. */
  bodyBytesSent: z.number().nullish(),
  contentRange: z.string().nullish(),
  authorizationHeader: z.string().nullish(),
});

export const LogPageSchema = z.object({
  data: z
    .array(LogEntrySchema)
    .nullish()
    .transform((d) => d ?? []),
  pagination: z.object({ offset: z.number(), limit: z.number(), returned: z.number(), hasMore: z.boolean() }),
  query: z.object({ pullZoneId: z.number(), from: z.string(), to: z.string(), order: z.string().nullish() }),
});

export type LogEntry = z.output<typeof LogEntrySchema>;
export type LogPage = z.output<typeof LogPageSchema>;

/** `GET /{MM-dd-yy}/{id}.log` query (v1 day file). `start`/`end` index the (filtered, sorted) lines. */
export const LogDayParamsSchema = z
  .object({
    /** Lines to skip. */
    start: z.number().int().min(0).optional(),
    /** End index (exclusive) of the lines to return. */
    end: z.number().int().min(0).optional(),
    /** The v1 ordering parameter (`sort` in the logging API's OpenAPI document; some pages say `order`). */
    sort: z.enum(["asc", "desc"]).optional(),
    /** Codes or classes (`5xx`, sent as the v1 form `5`); the v1 API also reads a round hundred (500) as its class. */
    status: z.array(LogStatusFilterSchema).min(1).optional(),
    search: substring.optional(),
    download: z.boolean().optional(),
  })
  .strict()
  .refine((p) => p.start === undefined || p.end === undefined || p.end >= p.start, { path: ["end"], message: "must not be less than start" });

export type LogDayParams = z.input<typeof LogDayParamsSchema>;

/** A day as the v1 path wants it (`MM-dd-yy`, UTC): from a Date or an ISO date, or already formatted. */
export const LogDaySchema = z.union([
  z.date().refine((d) => Number.isFinite(d.getTime()), "must be a valid date"),
  z
    .string()
    .regex(/^(\d{2}-\d{2}-\d{2}|\d{4}-\d{2}-\d{2}.*)$/, "must be MM-dd-yy or an ISO date")
    .refine((s) => /^\d{2}-/.test(s) || Number.isFinite(Date.parse(s)), "must be a valid date"),
]).transform((v) => {
  if (typeof v === "string" && /^\d{2}-\d{2}-\d{2}$/.test(v)) return v;
  const d = v instanceof Date ? v : new Date(v);
  const two = (n: number): string => String(n).padStart(2, "0");
  return `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}-${two(d.getUTCFullYear() % 100)}`;
});
