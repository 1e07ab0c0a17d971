import type { Readable } from "node:stream";
import { InvalidRequestError, UnexpectedResponseError } from "../http/errors";
import { PageGuard } from "../http/paging";
import { encodePath } from "../http/pathSegments";
import type { Auth } from "../http/requestSpec";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { idFromString } from "../schemas/common";
import {
  LOG_MAX_PAGE_SIZE,
  LogDayParamsSchema,
  LogDaySchema,
  LogPageSchema,
  LogQueryParamsSchema,
  logQueryString,
} from "../schemas/logging";
import type { LogDayParams, LogEntry, LogPage, LogQueryParams } from "../types.generated";

const DAY_MS = 24 * 60 * 60 * 1000;

/** `query()` always pages with the largest page size; `limit` is not one of its parameters. */
export type LogQueryRangeParams = Omit<LogQueryParams, "limit">;

/**
 * CDN logs: v2 queries (JSON, filtered, paged) and v1 day files (streamed text; parse them with
 * `parseV1Log` from provider/logs). Every call goes through the per-zone limiter `logging:<id>`, so a
 * long run stays under the API's 30 requests per 10 s instead of meeting 429s.
 */
export class LoggingClient {
  /** The bearer token, if any: a JS-private field, so util.inspect and JSON never show it. `undefined`: the account key. */
  readonly #auth?: Auth;

  constructor(
    private readonly http: Transport,
    auth?: Auth,
  ) {
    this.#auth = auth;
  }

  /** The same client authenticating with a logging JWT (`Authorization: Bearer`) instead of the account key. */
  withBearer(token: string): LoggingClient {
    return new LoggingClient(this.http, { bearer: token });
  }

  /** One page of `GET /v2/pullzones/{id}/logs`. */
  async queryPage(pullZoneId: number | string, params: LogQueryParams = {}): Promise<LogPage> {
    const id = this.zoneId(pullZoneId);
    const q = validateRequest(LogQueryParamsSchema, params, "GET", this.v2Path(id));
    return this.fetchPage(id, logQueryString(q));
  }

  /**
   * Every matching entry of the range, page after page at the largest page size, up to `maxEntries`.
   * The range is pinned on the first call (`to` defaults to now, `from` to `to` − 24 h), so entries
   * arriving meanwhile cannot shift the offsets and repeat or skip one.
   *
   * Pages advance by the server's window (`pagination.offset + pagination.limit`), not by the entries received, and
   * end only when the server says `hasMore: false`: the API applies `country` and `search` after it fetched a page
   * (docs.bunny.net, "Query CDN access logs for a pull zone": "country and free-text search are applied in-process
   * after fetch"), so a page can be short, even empty, while more follow. Bounded by PageGuard.
   */
  async *query(pullZoneId: number | string, params: LogQueryRangeParams = {}, options: { maxEntries?: number } = {}): AsyncGenerator<LogEntry> {
    const id = this.zoneId(pullZoneId);
    const path = this.v2Path(id);
    const q = validateRequest(LogQueryParamsSchema, params, "GET", path);
    const max = options.maxEntries ?? Number.POSITIVE_INFINITY;
    if (!(max >= 0) || (Number.isFinite(max) && !Number.isInteger(max))) {
      throw new InvalidRequestError("GET", path, [{ field: "maxEntries", message: "must be a non-negative integer" }]);
    }
    const to = q.to ?? new Date().toISOString();
    const from = q.from ?? new Date(Date.parse(to) - DAY_MS).toISOString();
    const query = logQueryString({ ...q, from, to });
    const guard = new PageGuard("GET", path, this.http.limits);
    // With a filter applied after the fetch, a page of N rows holds fewer than N entries: always ask for full pages.
    const filteredAfterFetch = q.country !== undefined || q.search !== undefined;
    let offset = q.offset ?? 0;
    let yielded = 0;
    while (yielded < max) {
      const limit = filteredAfterFetch ? LOG_MAX_PAGE_SIZE : Math.min(LOG_MAX_PAGE_SIZE, max - yielded);
      const page = await this.fetchPage(id, { ...query, offset, limit });
      guard.page(page.data);
      for (const entry of page.data) {
        yield entry;
        if (++yielded >= max) return;
      }
      if (!page.pagination.hasMore) return;
      const next = page.pagination.offset + page.pagination.limit;
      if (!(next > offset)) {
        throw new UnexpectedResponseError({ method: "GET", path, serverMessage: `the server's paging did not advance (asked for offset ${offset}, told to continue at ${next})` });
      }
      offset = next;
    }
  }

  /**
   * One day's v1 file (`GET /{MM-dd-yy}/{id}.log`) as a byte stream: it can run to gigabytes, so it is
   * never buffered. `date` is a Date or ISO date (its UTC day) or `MM-dd-yy`.
   */
  async downloadDay(pullZoneId: number | string, date: Date | string, params: LogDayParams = {}): Promise<Readable> {
    const id = this.zoneId(pullZoneId);
    const day = validateRequest(LogDaySchema, date, "GET", `/{date}/${id}.log`, "date");
    const path = encodePath(day, `${id}.log`);
    const p = validateRequest(LogDayParamsSchema, params, "GET", path);
    const res = await this.http.stream({
      api: "logging",
      method: "GET",
      path,
      query: { ...p, status: p.status?.map(v1StatusFilter).join(",") },
      auth: this.#auth,
      limiterKey: `logging:${id}`,
      retry: "idempotent",
    });
    return res.body;
  }

  private async fetchPage(id: number, query: Record<string, string | number | boolean | undefined>): Promise<LogPage> {
    const res = await this.http.request({
      api: "logging",
      method: "GET",
      path: this.v2Path(id),
      query,
      responseSchema: LogPageSchema,
      auth: this.#auth,
      limiterKey: `logging:${id}`,
      retry: "idempotent",
    });
    return res.body;
  }

  private zoneId(pullZoneId: number | string): number {
    return validateRequest(idFromString, pullZoneId, "GET", "/v2/pullzones/{pullZoneId}/logs", "pullZoneId");
  }

  private v2Path(id: number): string {
    return encodePath("v2", "pullzones", id, "logs");
  }
}

/**
 * A status filter as the v1 API documents it: a class as its digit (`5xx` → `5`, as in `status=4,5`) and a code as
 * itself. `5xx` itself is a v2 form no v1 document or client uses.
 */
function v1StatusFilter(filter: number | string): string {
  const cls = /^([1-5])xx$/i.exec(String(filter));
  return cls ? cls[1] : String(filter);
}
