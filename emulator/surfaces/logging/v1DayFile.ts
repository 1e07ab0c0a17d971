import { setImmediate } from "node:timers/promises";
import type { EmulatorContext } from "../../context";
import { RETENTION_MS } from "./facts";
import type { PullZoneRecord } from "../pullZones";
import { v1Line } from "./generator";
import { boolParam, DAY_MS, enumParam, intParam, param, ParamError, type Query } from "./query";
import { v1Filters, type Where } from "./sqlFilter";
import { hasExtendedLogging, selectLogRows, toLogRow } from "./table";

/**
 * `GET /{MM-dd-yy}/{pullZoneId}.log`: an admitted zone's day file, pipe-separated lines (`v1Line`), streamed.
 *
 * Sources: the logging API's OpenAPI document (https://logging.bunnycdn.com/docs/all/swagger.json), its pages on
 * docs.bunny.net (cdn/logging, api-reference/cdn-logging) and BUNNY-API.md. From them:
 * - v1 ordering: the document says `sort`, the pages `order`; both are read (400 when they disagree).
 * - v1 `status` takes codes and classes as digits (`4,5`); a round hundred is its class; `5xx` is refused (sqlFilter.ts).
 */

const V1_BATCH_ROWS = 2_000;

/** What a day-file request asks for, read from its path and query. */
export interface V1DayFileRequest {
  pullZoneId: number;
  where: Where;
  order: "asc" | "desc";
  start: number;
  end: number;
  download: boolean;
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

/** Reads a day-file request at `now`; throws `ParamError` for a parameter the API refuses. */
export function readV1DayFileRequest(zone: PullZoneRecord, date: string, q: Query, now: number): V1DayFileRequest {
  const dayStart = parseV1Date(date);
  if (dayStart === undefined) throw new ParamError("date", `${date} is not a date (MM-dd-yy)`);
  const retentionStart = now - RETENTION_MS;
  if (dayStart + DAY_MS <= retentionStart) throw new ParamError("date", `${date} is outside the 3-day retention`);
  if (dayStart > now) throw new ParamError("date", `${date} is in the future`);
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
  v1Filters(q, where);
  return { pullZoneId: zone.Id, where, order, start, end, download };
}

/**
 * The day file as text, a batch of rows at a time (keyset paging on (ts, id)): never the whole file
 * in memory, whatever its size.
 */
export async function* v1Lines(ctx: EmulatorContext, request: V1DayFileRequest): AsyncGenerator<string> {
  const { where, order, start, end } = request;
  const extended = hasExtendedLogging(ctx, request.pullZoneId);
  const cmp = order === "asc" ? ">" : "<";
  let remaining = end - start;
  let after: [number, number] | undefined;
  while (remaining > 0) {
    const batch = Math.min(V1_BATCH_ROWS, remaining);
    const page: Where = after ? { clauses: [...where.clauses, `(ts, id) ${cmp} (?, ?)`], args: [...where.args, ...after] } : where;
    const rows = selectLogRows(ctx, page, order, batch, after ? 0 : start);
    if (rows.length === 0) return;
    remaining -= rows.length;
    const last = rows[rows.length - 1];
    after = [last.ts, last.id];
    yield rows.map((r) => v1Line(toLogRow(r), extended)).join("\n") + "\n";
    if (rows.length < batch) return;
    // Let other requests in between batches, as a server streaming a large file would.
    await setImmediate();
  }
}
