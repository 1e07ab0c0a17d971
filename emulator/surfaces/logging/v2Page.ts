import type { EmulatorContext } from "../../context";
import { RETENTION_MS } from "./facts";
import type { PullZoneRecord } from "../pullZones";
import { DAY_MS, enumParam, instantParam, intParam, ParamError, type Query } from "./query";
import { matchesPostFilters, v2Filters, type Where } from "./sqlFilter";
import { selectLogRows, toLogRow, type DbRow } from "./table";

/**
 * `GET /v2/pullzones/{pullZoneId}/logs`: one page of JSON entries of an admitted zone, for a time range (at most
 * 3 days, within the 3-day retention; by default the day before now) and filters.
 *
 * Sources: the logging API's OpenAPI document (https://logging.bunnycdn.com/docs/all/swagger.json), its pages on
 * docs.bunny.net (cdn/logging, api-reference/cdn-logging) and BUNNY-API.md. From them:
 * - v2 `country` and `search` are applied after the page was fetched ("applied in-process after fetch"): a page holds
 *   the matching rows among the `limit` rows at `offset`, and may be short or empty while `hasMore` is true.
 * - v2 entries omit null fields; the document marks most of them nullable (see LogEntrySchema).
 */

/** A `from` this close to the retention start is clamped rather than refused (client and server clocks differ). */
const RETENTION_GRACE_MS = 60_000;

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

/** The answer to a v2 query at `now`; throws `ParamError` for a parameter the API refuses. */
export function v2Page(ctx: EmulatorContext, zone: PullZoneRecord, q: Query, now: number): unknown {
  const to = instantParam(q, "to") ?? now;
  const from = instantParam(q, "from") ?? to - DAY_MS;
  if (from >= to) throw new ParamError("from", "from must be before to");
  if (to - from > RETENTION_MS) throw new ParamError("to", "the range from..to must be at most 3 days");
  const retentionStart = now - RETENTION_MS;
  if (from < retentionStart - RETENTION_GRACE_MS) throw new ParamError("from", "from is outside the 3-day retention");
  const limit = intParam(q, "limit", 100, 1, 10_000);
  const offset = intParam(q, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  const order = enumParam(q, "order", ["asc", "desc"] as const, "desc");
  const where: Where = { clauses: ["pull_zone_id = ?", "ts >= ?", "ts < ?"], args: [zone.Id, Math.max(from, retentionStart), to] };
  const post = v2Filters(q, where);
  const rows = selectLogRows(ctx, where, order, limit + 1, offset);
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
}
