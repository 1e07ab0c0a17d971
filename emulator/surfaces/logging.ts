import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { accessKeyOf, bearerOf } from "../context";
import { loggingError } from "../errorShapes";
import { LOGGING_RATE_LIMIT, SlidingWindowLimiter } from "bunnynet-pulumi/dist/http/rateLimiter.js";
import { formatV1Line } from "bunnynet-pulumi/dist/logs/format.js";
import { LOG_CACHE_STATUSES, LOG_RETENTION_MS } from "bunnynet-pulumi/dist/schemas/logging.js";
import { logGenerator, rowToV1Fields, type LogRow } from "./loggingData";
import { createPullZone, type PullZoneRecord } from "./pullZones";

/**
 * CDN logs (logging.bunnycdn.com): v2 JSON queries and v1 day files over one table of synthetic
 * requests, with the API's auth (account key or a zone-bound HS256 JWT), 3-day retention and
 * per-zone rate limit (30 requests per 10 s, counted for authenticated requests only).
 *
 * Sources: the logging API's OpenAPI document (https://logging.bunnycdn.com/docs/all/swagger.json), its pages on
 * docs.bunny.net (cdn/logging, api-reference/cdn-logging) and BUNNY-API.md. From them:
 * - v2 `country` and `search` are applied after the page was fetched ("applied in-process after fetch"): a page holds
 *   the matching rows among the `limit` rows at `offset`, and may be short or empty while `hasMore` is true.
 * - v2 entries omit null fields; the document marks most of them nullable (see LogEntrySchema).
 * - v1 `status` takes codes and classes as digits (`4,5`); a round hundred is its class; `5xx` is refused.
 * - v1 ordering: the document says `sort`, the pages `order`; both are read (400 when they disagree).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** A `from` this close to the retention start is clamped rather than refused (client and server clocks differ). */
const RETENTION_GRACE_MS = 60_000;
const SEEDED_MAIN_LINES = 40_000;
const SEEDED_EXTENDED_LINES = 3_000;
const V1_BATCH_ROWS = 2_000;
const MAX_SEARCH_TOKENS = 16;
const MAX_SEARCH_TOKEN_LENGTH = 128;
const MAX_SUBSTRING_LENGTH = 1024;

const COLUMNS =
  "pull_zone_id, ts, request_id, cache_status, status_code, bytes_sent, edge_location, scheme, host, path, remote_ip, country_code, " +
  "user_agent, referer, ja4_fingerprint, asn, asn_organization, origin_shield, body_bytes_sent, content_range, authorization_header";

interface DbRow {
  id: number;
  pull_zone_id: number;
  ts: number;
  request_id: string;
  cache_status: string;
  status_code: number;
  bytes_sent: number;
  edge_location: string;
  scheme: string;
  host: string;
  path: string;
  remote_ip: string | null;
  country_code: string | null;
  user_agent: string | null;
  referer: string | null;
  ja4_fingerprint: string | null;
  asn: number | null;
  asn_organization: string | null;
  origin_shield: number;
  body_bytes_sent: number | null;
  content_range: string | null;
  authorization_header: string | null;
}

function toLogRow(r: DbRow): LogRow {
  return {
    pullZoneId: r.pull_zone_id,
    timestamp: r.ts,
    requestId: r.request_id,
    cacheStatus: r.cache_status,
    statusCode: r.status_code,
    bytesSent: r.bytes_sent,
    edgeLocation: r.edge_location,
    scheme: r.scheme,
    host: r.host,
    path: r.path,
    remoteIp: r.remote_ip,
    countryCode: r.country_code,
    userAgent: r.user_agent,
    referer: r.referer,
    ja4Fingerprint: r.ja4_fingerprint,
    asn: r.asn,
    asnOrganization: r.asn_organization,
    originShield: r.origin_shield === 1,
    bodyBytesSent: r.body_bytes_sent,
    contentRange: r.content_range,
    authorizationHeader: r.authorization_header,
  };
}

/** The v2 entry: always-present fields first, null ones omitted. */
function toV2Entry(r: DbRow): Record<string, unknown> {
  const row = toLogRow(r);
  const entry: Record<string, unknown> = {
    timestamp: new Date(row.timestamp).toISOString(),
    pullZoneId: row.pullZoneId,
    requestId: row.requestId,
    cacheStatus: row.cacheStatus,
    statusCode: row.statusCode,
    bytesSent: row.bytesSent,
    edgeLocation: row.edgeLocation,
    scheme: row.scheme,
    host: row.host,
    path: row.path,
    url: `${row.scheme}://${row.host}${row.path}`,
  };
  const optional = ["remoteIp", "countryCode", "userAgent", "referer", "ja4Fingerprint", "asn", "asnOrganization", "bodyBytesSent", "contentRange", "authorizationHeader"] as const;
  for (const k of optional) if (row[k] !== null && row[k] !== undefined) entry[k] = row[k];
  return entry;
}

/** A query parameter the API refuses: answered 400 invalid_request naming it. */
class ParamError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | string[] | undefined>;

function param(q: Query, name: string): string | undefined {
  const v = q[name];
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  return s === undefined || s === "" ? undefined : s;
}

function intParam(q: Query, name: string, fallback: number, min: number, max: number): number {
  const s = param(q, name);
  if (s === undefined) return fallback;
  if (!/^-?\d+$/.test(s)) throw new ParamError(name, `${name} must be an integer`);
  const n = Number(s);
  if (n < min || n > max) throw new ParamError(name, `${name} must be between ${min} and ${max}`);
  return n;
}

function listParam(q: Query, name: string): string[] | undefined {
  const s = param(q, name);
  if (s === undefined) return undefined;
  const items = s.split(",").map((i) => i.trim()).filter(Boolean);
  if (items.length === 0) throw new ParamError(name, `${name} must list at least one value`);
  return items;
}

function enumParam<T extends string>(q: Query, name: string, allowed: readonly T[], fallback: T): T {
  const s = param(q, name);
  if (s === undefined) return fallback;
  const v = s.toLowerCase() as T;
  if (!allowed.includes(v)) throw new ParamError(name, `${name} must be one of ${allowed.join(", ")}`);
  return v;
}

function boolParam(q: Query, name: string, fallback: boolean): boolean {
  const s = param(q, name);
  if (s === undefined) return fallback;
  if (s === "true") return true;
  if (s === "false") return false;
  throw new ParamError(name, `${name} must be true or false`);
}

function instantParam(q: Query, name: string): number | undefined {
  const s = param(q, name);
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(s) || !Number.isFinite(t)) throw new ParamError(name, `${name} must be an ISO 8601 date-time (UTC), e.g. 2026-05-08T00:00:00Z`);
  return t;
}

function substringParam(q: Query, name: string): string | undefined {
  const s = param(q, name);
  if (s !== undefined && s.length > MAX_SUBSTRING_LENGTH) throw new ParamError(name, `${name} must be at most ${MAX_SUBSTRING_LENGTH} characters`);
  return s;
}

/** `%`, `_` and `\` are literal in the API's substring filters. */
function likePattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Status codes and classes. v2: `404`, `5xx` (its documentation). v1: codes and a class as its digit (`4,5`), and a
 * round hundred (`500`) as its class; `5xx` is no v1 form (no v1 document or client uses it), so v1 refuses it.
 */
function statusCondition(items: string[], field: string, api: "v1" | "v2"): { sql: string; args: number[] } {
  const codes: number[] = [];
  const classes: number[] = [];
  const roundHundredIsClass = api === "v1";
  for (const item of items) {
    const cls = api === "v2" ? /^([1-5])xx$/i.exec(item) : /^([1-5])$/.exec(item);
    if (cls) classes.push(Number(cls[1]));
    else if (/^\d{3}$/.test(item) && Number(item) >= 100 && Number(item) <= 599) {
      if (roundHundredIsClass && Number(item) % 100 === 0) classes.push(Number(item) / 100);
      else codes.push(Number(item));
    } else throw new ParamError(field, `${field}: ${JSON.stringify(item.slice(0, 32))} is neither a status code (100-599) nor a class like ${api === "v2" ? "5xx" : "5"}`);
  }
  const parts: string[] = [];
  const args: number[] = [];
  if (codes.length) {
    parts.push(`status_code IN (${codes.map(() => "?").join(",")})`);
    args.push(...codes);
  }
  for (const c of classes) {
    parts.push("status_code BETWEEN ? AND ?");
    args.push(c * 100, c * 100 + 99);
  }
  return { sql: `(${parts.join(" OR ")})`, args };
}

interface Where {
  clauses: string[];
  args: (string | number)[];
}

function addIn(where: Where, column: string, values: string[]): void {
  where.clauses.push(`${column} IN (${values.map(() => "?").join(",")})`);
  where.args.push(...values);
}

const URL_EXPR = "(scheme || '://' || host || path)";
const SEARCH_COLUMNS = ["cache_status", "request_id", "edge_location", "host", "path", "user_agent", "referer"];

/**
 * The v2 filters applied after the page was fetched (the logging API's OpenAPI document and docs.bunny.net, "Query
 * CDN access logs for a pull zone": "country and free-text search are applied in-process after fetch"): a page
 * holds the matching entries among the `limit` rows at `offset`, so it can be short or empty while more follow.
 */
interface PostFilters {
  countries?: Set<string>;
  tokens?: string[];
}

function matchesPostFilters(r: DbRow, f: PostFilters): boolean {
  if (f.countries && !(r.country_code !== null && f.countries.has(r.country_code.toUpperCase()))) return false;
  if (f.tokens && f.tokens.length > 0) {
    const values = SEARCH_COLUMNS.map((c) => String((r as unknown as Record<string, unknown>)[c] ?? "").toLowerCase());
    if (!f.tokens.some((t) => values.some((v) => v.includes(t.toLowerCase())))) return false;
  }
  return true;
}

/** Every v2 filter but time and paging: as SQL, except country and search (returned, applied after the fetch). */
function v2Filters(q: Query, where: Where): PostFilters {
  const post: PostFilters = {};
  const status = listParam(q, "status");
  if (status) {
    const c = statusCondition(status, "status", "v2");
    where.clauses.push(c.sql);
    where.args.push(...c.args);
  }
  const cache = listParam(q, "cacheStatus");
  if (cache) {
    const upper = cache.map((c) => c.toUpperCase());
    const bad = upper.find((c) => !(LOG_CACHE_STATUSES as readonly string[]).includes(c));
    if (bad !== undefined) throw new ParamError("cacheStatus", `cacheStatus: ${JSON.stringify(bad)} is not one of ${LOG_CACHE_STATUSES.join(", ")}`);
    addIn(where, "cache_status", upper);
  }
  const country = listParam(q, "country");
  if (country) {
    const bad = country.find((c) => !/^[A-Za-z]{2}$/.test(c));
    if (bad !== undefined) throw new ParamError("country", `country: ${JSON.stringify(bad)} is not an ISO 3166 alpha-2 code`);
    post.countries = new Set(country.map((c) => c.toUpperCase()));
  }
  const edge = param(q, "edgeLocation");
  if (edge !== undefined) {
    if (!/^[A-Za-z0-9-]{1,16}$/.test(edge)) throw new ParamError("edgeLocation", "edgeLocation must be an edge location code like DE or NY");
    where.clauses.push("edge_location = ? COLLATE NOCASE");
    where.args.push(edge);
  }
  for (const [name, column] of [["remoteIp", "remote_ip"], ["requestId", "request_id"]] as const) {
    const v = param(q, name);
    if (v === undefined) continue;
    if (v.length > 128) throw new ParamError(name, `${name} must be at most 128 characters`);
    where.clauses.push(`${column} = ?`);
    where.args.push(v);
  }
  if (!boolParam(q, "includeOriginShield", false)) where.clauses.push("origin_shield = 0");
  for (const [name, expr] of [["urlContains", URL_EXPR], ["userAgentContains", "user_agent"], ["refererContains", "referer"]] as const) {
    const v = substringParam(q, name);
    if (v === undefined) continue;
    // LIKE is case-insensitive for ASCII letters.
    where.clauses.push(`${expr} LIKE ? ESCAPE '\\'`);
    where.args.push(likePattern(v));
  }
  const search = param(q, "search");
  if (search !== undefined) {
    const tokens = search.split(/\s+/).filter(Boolean);
    if (tokens.length > MAX_SEARCH_TOKENS) throw new ParamError("search", `search may have at most ${MAX_SEARCH_TOKENS} tokens`);
    const long = tokens.find((t) => t.length > MAX_SEARCH_TOKEN_LENGTH);
    if (long !== undefined) throw new ParamError("search", `search tokens must be at most ${MAX_SEARCH_TOKEN_LENGTH} characters`);
    post.tokens = tokens;
  }
  return post;
}

const TokenRequestSchema = z
  .object({
    pullZoneId: z.number().int().positive(),
    /** Negative values mint an already-expired token (for tests). */
    ttlSeconds: z.number().int().min(-86_400).max(86_400).default(3600),
  })
  .strict();

type Jose = typeof import("jose", { with: { "resolution-mode": "import" } });
let josePromise: Promise<Jose> | undefined;
/** jose is ESM-only; this package compiles to CommonJS, so it is loaded with a real dynamic import. */
function jose(): Promise<Jose> {
  josePromise ??= import("jose");
  return josePromise;
}

function secretKey(ctx: EmulatorContext): Uint8Array {
  return new TextEncoder().encode(ctx.jwtSecret());
}

/** Issues a logging token for one pull zone (what the dashboard hands out). */
export async function issueLoggingToken(ctx: EmulatorContext, pullZoneId: number, ttlSeconds: number): Promise<{ token: string; expiresAt: string }> {
  const { SignJWT } = await jose();
  const now = Math.floor(Date.now() / 1000);
  const exp = now + ttlSeconds;
  const token = await new SignJWT({ pullZoneId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(Math.min(now, exp))
    .setExpirationTime(exp)
    .sign(secretKey(ctx));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/** The v1 path's `MM-dd-yy` as the UTC day's start, or undefined when it is no real date. */
function parseV1Date(s: string): number | undefined {
  const m = /^(\d{2})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const [month, day, year] = [Number(m[1]), Number(m[2]), 2000 + Number(m[3])];
  const t = Date.UTC(year, month - 1, day);
  const d = new Date(t);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? t : undefined;
}

/** Stores generated requests of a zone at the given times; returns their request ids. */
function insertTraffic(ctx: EmulatorContext, zone: PullZoneRecord, extended: boolean, timestamps: number[], seed?: number): string[] {
  const insert = ctx.store.db.prepare(`INSERT INTO cdn_logs (${COLUMNS}) VALUES (${COLUMNS.split(",").map(() => "?").join(",")})`);
  const next = logGenerator({ pullZoneId: zone.Id, hosts: [zone.Hostnames[0].Value, `cdn.${zone.Name}.example`], extended, seed });
  return timestamps.map((t) => {
    const r = next(t);
    insert.run(r.pullZoneId, r.timestamp, r.requestId, r.cacheStatus, r.statusCode, r.bytesSent, r.edgeLocation, r.scheme, r.host, r.path,
      r.remoteIp, r.countryCode, r.userAgent, r.referer, r.ja4Fingerprint, r.asn, r.asnOrganization, r.originShield ? 1 : 0,
      r.bodyBytesSent, r.contentRange, r.authorizationHeader);
    return r.requestId;
  });
}

const TrafficRequestSchema = z.object({ pullZoneId: z.number().int().positive(), count: z.number().int().min(1).max(10_000).default(10) }).strict();

export const loggingSurface: EmulatorSurface = {
  name: "logging",
  migrate(ctx) {
    ctx.store.db.exec(`
      CREATE TABLE IF NOT EXISTS cdn_logs (
        id INTEGER PRIMARY KEY,
        pull_zone_id INTEGER NOT NULL, ts INTEGER NOT NULL, request_id TEXT NOT NULL, cache_status TEXT NOT NULL,
        status_code INTEGER NOT NULL, bytes_sent INTEGER NOT NULL, edge_location TEXT NOT NULL, scheme TEXT NOT NULL,
        host TEXT NOT NULL, path TEXT NOT NULL, remote_ip TEXT, country_code TEXT, user_agent TEXT, referer TEXT,
        ja4_fingerprint TEXT, asn INTEGER, asn_organization TEXT, origin_shield INTEGER NOT NULL,
        body_bytes_sent INTEGER, content_range TEXT, authorization_header TEXT);
      CREATE INDEX IF NOT EXISTS cdn_logs_zone_time ON cdn_logs (pull_zone_id, ts, id);`);
  },

  seed(ctx, seededSoFar) {
    const now = Date.now();
    const fill = (zone: PullZoneRecord, lines: number, extended: boolean): void => {
      // Spread evenly over the retention window (newest a few seconds ago), each at a jittered offset in its slot.
      const span = LOG_RETENTION_MS - 60_000;
      const slot = span / lines;
      insertTraffic(ctx, zone, extended, Array.from({ length: lines }, (_, i) => Math.floor(now - span + i * slot + ((i * 7919) % 1000) / 1000 * slot * 0.9)));
    };
    const main = ctx.store.get<PullZoneRecord>("pullzone", seededSoFar.pullZoneId);
    if (main) fill(main, SEEDED_MAIN_LINES, false);
    // A zone with extended logging (15-column v1 lines; bodyBytesSent/contentRange/authorizationHeader in v2).
    const extended = createPullZone(ctx, "emulator-extlogs");
    fill(extended, SEEDED_EXTENDED_LINES, true);
    return { extendedLoggingPullZoneId: extended.Id, seededLogLines: SEEDED_MAIN_LINES };
  },

  routes(app, ctx) {
    const limiters = new Map<number, SlidingWindowLimiter>();
    let lastPrune = 0;
    const prune = (now: number): void => {
      if (now - lastPrune < 60_000) return;
      lastPrune = now;
      ctx.store.db.prepare("DELETE FROM cdn_logs WHERE ts < ?").run(now - LOG_RETENTION_MS);
    };

    /** Credentials, zone state and the rate limit, in the API's order; answers the error itself and returns undefined. */
    const admit = async (req: FastifyRequest, reply: FastifyReply, rawZoneId: string): Promise<PullZoneRecord | undefined> => {
      const zoneId = /^\d{1,12}$/.test(rawZoneId) ? Number(rawZoneId) : NaN;
      const key = accessKeyOf(req);
      const bearer = bearerOf(req);
      if (key !== undefined) {
        if (!ctx.isAccountKey(key)) return void loggingError(reply, 403, "forbidden", "The credentials are not valid.");
      } else if (bearer !== undefined) {
        try {
          const { jwtVerify } = await jose();
          const { payload } = await jwtVerify(bearer, secretKey(ctx), { algorithms: ["HS256"] });
          // Issued tokens carry the zone as a number: no coercion, so `[1001]` or `"1001"` is not zone 1001.
          if (payload.pullZoneId !== zoneId) return void loggingError(reply, 403, "forbidden", "The token is not valid for this pull zone.");
        } catch {
          return void loggingError(reply, 403, "forbidden", "The token is not valid or has expired.");
        }
      } else {
        return void loggingError(reply, 401, "unauthorized", "No credentials: send an AccessKey header or an Authorization: Bearer token.");
      }
      if (!Number.isFinite(zoneId)) return void loggingError(reply, 400, "invalid_request", "pullZoneId must be an integer", { field: "pullZoneId" });
      const zone = ctx.store.get<PullZoneRecord>("pullzone", zoneId);
      if (!zone) return void loggingError(reply, 404, "not_found", `Pull zone ${zoneId} was not found.`);
      if (zone.Suspended) return void loggingError(reply, 403, "forbidden", `Pull zone ${zoneId} is suspended.`);
      if (!zone.EnableLogging) return void loggingError(reply, 404, "logging_disabled", `Logging is disabled for pull zone ${zoneId}.`);
      let limiter = limiters.get(zoneId);
      if (!limiter) limiters.set(zoneId, (limiter = new SlidingWindowLimiter(LOGGING_RATE_LIMIT.limit, LOGGING_RATE_LIMIT.windowMs)));
      const waitMs = limiter.tryAcquire();
      if (waitMs > 0) {
        reply.header("retry-after", String(Math.max(1, Math.ceil(waitMs / 1000))));
        return void loggingError(reply, 429, "rate_limited", `More than ${LOGGING_RATE_LIMIT.limit} requests in ${LOGGING_RATE_LIMIT.windowMs / 1000} s for pull zone ${zoneId}.`);
      }
      return zone;
    };

    const invalid = (reply: FastifyReply, e: unknown): FastifyReply => {
      if (e instanceof ParamError) return loggingError(reply, 400, "invalid_request", e.message, { field: e.field });
      throw e;
    };

    app.post("/_emulator/logging-token", async (req, reply) => {
      const parsed = TokenRequestSchema.safeParse(req.body ?? {});
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        return reply.code(400).send({ error: { code: "invalid_request", message: `${i.path.join(".") || "(body)"}: ${i.message}` } });
      }
      return issueLoggingToken(ctx, parsed.data.pullZoneId, parsed.data.ttlSeconds);
    });

    // Live traffic for demos and `logs tail` tests: `count` requests served just now.
    app.post("/_emulator/logs/traffic", async (req, reply) => {
      const parsed = TrafficRequestSchema.safeParse(req.body ?? {});
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        return reply.code(400).send({ error: { code: "invalid_request", message: `${i.path.join(".") || "(body)"}: ${i.message}` } });
      }
      const zone = ctx.store.get<PullZoneRecord>("pullzone", parsed.data.pullZoneId);
      if (!zone) return reply.code(404).send({ error: { code: "not_found", message: `Pull zone ${parsed.data.pullZoneId} was not found.` } });
      const now = Date.now();
      const timestamps = Array.from({ length: parsed.data.count }, (_, i) => now - parsed.data.count + i + 1);
      const requestIds = ctx.store.transaction(() => insertTraffic(ctx, zone, false, timestamps, now % 2147483647));
      return { requestIds };
    });

    app.get("/v2/pullzones/:pullZoneId/logs", async (req, reply) => {
      const zone = await admit(req, reply, (req.params as { pullZoneId: string }).pullZoneId);
      if (!zone) return reply;
      const q = req.query as Query;
      const now = Date.now();
      prune(now);
      try {
        const to = instantParam(q, "to") ?? now;
        const from = instantParam(q, "from") ?? to - DAY_MS;
        if (from >= to) throw new ParamError("from", "from must be before to");
        if (to - from > LOG_RETENTION_MS) throw new ParamError("to", "the range from..to must be at most 3 days");
        const retentionStart = now - LOG_RETENTION_MS;
        if (from < retentionStart - RETENTION_GRACE_MS) throw new ParamError("from", "from is outside the 3-day retention");
        const limit = intParam(q, "limit", 100, 1, 10_000);
        const offset = intParam(q, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
        const order = enumParam(q, "order", ["asc", "desc"] as const, "desc");
        const where: Where = { clauses: ["pull_zone_id = ?", "ts >= ?", "ts < ?"], args: [zone.Id, Math.max(from, retentionStart), to] };
        const post = v2Filters(q, where);
        const dir = order === "asc" ? "ASC" : "DESC";
        const rows = ctx.store.db
          .prepare(`SELECT id, ${COLUMNS} FROM cdn_logs WHERE ${where.clauses.join(" AND ")} ORDER BY ts ${dir}, id ${dir} LIMIT ? OFFSET ?`)
          .all(...where.args, limit + 1, offset) as unknown as DbRow[];
        const hasMore = rows.length > limit;
        const data = rows
          .slice(0, limit)
          .filter((r) => matchesPostFilters(r, post))
          .map(toV2Entry);
        return {
          data,
          pagination: { offset, limit, returned: data.length, hasMore },
          query: { pullZoneId: zone.Id, from: new Date(from).toISOString(), to: new Date(to).toISOString(), order },
        };
      } catch (e) {
        return invalid(reply, e);
      }
    });

    app.get("/:date(^\\d{2}-\\d{2}-\\d{2}$)/:pullZoneId.log", async (req, reply) => {
      const params = req.params as { date: string; pullZoneId: string };
      const zone = await admit(req, reply, params.pullZoneId);
      if (!zone) return reply;
      const q = req.query as Query;
      const now = Date.now();
      prune(now);
      try {
        const dayStart = parseV1Date(params.date);
        if (dayStart === undefined) throw new ParamError("date", `${params.date} is not a date (MM-dd-yy)`);
        const retentionStart = now - LOG_RETENTION_MS;
        if (dayStart + DAY_MS <= retentionStart) throw new ParamError("date", `${params.date} is outside the 3-day retention`);
        if (dayStart > now) throw new ParamError("date", `${params.date} is in the future`);
        const start = intParam(q, "start", 0, 0, Number.MAX_SAFE_INTEGER);
        const end = intParam(q, "end", Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER);
        if (end < start) throw new ParamError("end", "end must not be less than start");
        // The logging API's OpenAPI document names the parameter `sort`, its documentation pages `order`: both are read.
        const sort = enumParam(q, "sort", ["asc", "desc"] as const, "desc");
        const order = param(q, "sort") === undefined ? enumParam(q, "order", ["asc", "desc"] as const, "desc") : sort;
        if (param(q, "sort") !== undefined && param(q, "order") !== undefined && enumParam(q, "order", ["asc", "desc"] as const, "desc") !== sort) {
          throw new ParamError("order", "sort and order disagree");
        }
        const download = boolParam(q, "download", false);
        const where: Where = { clauses: ["pull_zone_id = ?", "ts >= ?", "ts < ?"], args: [zone.Id, Math.max(dayStart, retentionStart), dayStart + DAY_MS] };
        const status = listParam(q, "status");
        if (status) {
          const c = statusCondition(status, "status", "v1");
          where.clauses.push(c.sql);
          where.args.push(...c.args);
        }
        const search = substringParam(q, "search");
        if (search !== undefined) {
          where.clauses.push(`(${[URL_EXPR, "referer", "user_agent", "request_id"].map((c) => `${c} LIKE ? ESCAPE '\\'`).join(" OR ")})`);
          where.args.push(...Array(4).fill(likePattern(search)));
        }
        reply.header("content-type", "text/plain; charset=utf-8");
        if (download) reply.header("content-disposition", `attachment; filename="${params.date}-${zone.Id}.log"`);
        return reply.send(Readable.from(v1Lines(ctx, where, order, start, end), { objectMode: false }));
      } catch (e) {
        return invalid(reply, e);
      }
    });
  },
};

/**
 * The day file as text, a batch of rows at a time (keyset paging on (ts, id)): never the whole file
 * in memory, whatever its size.
 */
async function* v1Lines(ctx: EmulatorContext, where: Where, order: "asc" | "desc", start: number, end: number): AsyncGenerator<string> {
  const extended = ctx.store.db.prepare("SELECT 1 FROM cdn_logs WHERE pull_zone_id = ? AND body_bytes_sent IS NOT NULL LIMIT 1").get(where.args[0]) !== undefined;
  const dir = order === "asc" ? "ASC" : "DESC";
  const cmp = order === "asc" ? ">" : "<";
  let remaining = end - start;
  let after: [number, number] | undefined;
  while (remaining > 0) {
    const batch = Math.min(V1_BATCH_ROWS, remaining);
    const keyset = after ? ` AND (ts, id) ${cmp} (?, ?)` : "";
    const rows = ctx.store.db
      .prepare(`SELECT id, ${COLUMNS} FROM cdn_logs WHERE ${where.clauses.join(" AND ")}${keyset} ORDER BY ts ${dir}, id ${dir} LIMIT ? OFFSET ?`)
      .all(...where.args, ...(after ?? []), batch, after ? 0 : start) as unknown as DbRow[];
    if (rows.length === 0) return;
    remaining -= rows.length;
    const last = rows[rows.length - 1];
    after = [last.ts, last.id];
    yield rows.map((r) => formatV1Line(rowToV1Fields(toLogRow(r)), extended)).join("\n") + "\n";
    if (rows.length < batch) return;
    // Let other requests in between batches, as a server streaming a large file would.
    await new Promise((r) => setImmediate(r));
  }
}
