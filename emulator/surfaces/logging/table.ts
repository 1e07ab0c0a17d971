import type { EmulatorContext } from "../../context";
import { RETENTION_MS } from "./facts";
import type { LogRow } from "./generator";
import type { Where } from "./sqlFilter";

/**
 * How the emulator stores CDN requests: the `cdn_logs` table (one row per request, both API versions read it), its
 * rows as `LogRow`s, and the 3-day retention enforced by deleting older rows.
 */

const COLUMNS =
  "pull_zone_id, ts, request_id, cache_status, status_code, bytes_sent, edge_location, scheme, host, path, remote_ip, country_code, " +
  "user_agent, referer, ja4_fingerprint, asn, asn_organization, origin_shield, body_bytes_sent, content_range, authorization_header";

/** A stored row as SQLite returns it (snake_case, booleans as 0/1). */
export interface DbRow {
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

/** Creates the table (the surface's `migrate`; idempotent). */
export function createLogTable(ctx: EmulatorContext): void {
  ctx.store.db.exec(`
    CREATE TABLE IF NOT EXISTS cdn_logs (
      id INTEGER PRIMARY KEY,
      pull_zone_id INTEGER NOT NULL, ts INTEGER NOT NULL, request_id TEXT NOT NULL, cache_status TEXT NOT NULL,
      status_code INTEGER NOT NULL, bytes_sent INTEGER NOT NULL, edge_location TEXT NOT NULL, scheme TEXT NOT NULL,
      host TEXT NOT NULL, path TEXT NOT NULL, remote_ip TEXT, country_code TEXT, user_agent TEXT, referer TEXT,
      ja4_fingerprint TEXT, asn INTEGER, asn_organization TEXT, origin_shield INTEGER NOT NULL,
      body_bytes_sent INTEGER, content_range TEXT, authorization_header TEXT);
    CREATE INDEX IF NOT EXISTS cdn_logs_zone_time ON cdn_logs (pull_zone_id, ts, id);`);
}

/** A function storing one request (its statement prepared once, for many rows). */
export function logRowInserter(ctx: EmulatorContext): (r: LogRow) => void {
  const insert = ctx.store.db.prepare(`INSERT INTO cdn_logs (${COLUMNS}) VALUES (${COLUMNS.split(",").map(() => "?").join(",")})`);
  return (r) => {
    insert.run(r.pullZoneId, r.timestamp, r.requestId, r.cacheStatus, r.statusCode, r.bytesSent, r.edgeLocation, r.scheme, r.host, r.path,
      r.remoteIp, r.countryCode, r.userAgent, r.referer, r.ja4Fingerprint, r.asn, r.asnOrganization, r.originShield ? 1 : 0,
      r.bodyBytesSent, r.contentRange, r.authorizationHeader);
  };
}

/** The rows matching `where`, newest or oldest first (ties in insertion order), `limit` of them from `offset`. */
export function selectLogRows(ctx: EmulatorContext, where: Where, order: "asc" | "desc", limit: number, offset: number): DbRow[] {
  const dir = order === "asc" ? "ASC" : "DESC";
  return ctx.store.db
    .prepare(`SELECT id, ${COLUMNS} FROM cdn_logs WHERE ${where.clauses.join(" AND ")} ORDER BY ts ${dir}, id ${dir} LIMIT ? OFFSET ?`)
    .all(...where.args, limit, offset) as unknown as DbRow[];
}

/** True when the zone logs with extended logging (its rows carry `body_bytes_sent`). */
export function hasExtendedLogging(ctx: EmulatorContext, pullZoneId: number): boolean {
  return ctx.store.statement("SELECT 1 FROM cdn_logs WHERE pull_zone_id = ? AND body_bytes_sent IS NOT NULL LIMIT 1").get(pullZoneId) !== undefined;
}

/**
 * A function deleting the rows past retention from the request's account, at most once a minute per account however
 * often it is called (one account's traffic never holds off another's pruning).
 */
export function expiredRowPruner(ctx: EmulatorContext): (now: number) => void {
  const lastPrune = new WeakMap<object, number>();
  return (now) => {
    if (now - (lastPrune.get(ctx.store) ?? 0) < 60_000) return;
    lastPrune.set(ctx.store, now);
    ctx.store.statement("DELETE FROM cdn_logs WHERE ts < ?").run(now - RETENTION_MS);
  };
}

export function toLogRow(r: DbRow): LogRow {
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
