import { CACHE_STATUSES } from "./facts";
import { boolParam, listParam, param, ParamError, substringParam, type Query } from "./query";
import type { DbRow } from "./table";

/**
 * Which stored rows a request's filters select: each filter parameter of v1 and v2 as an SQL condition on `cdn_logs`,
 * except v2's country and search, which are applied to the fetched page.
 *
 * Sources: the logging API's OpenAPI document (https://logging.bunnycdn.com/docs/all/swagger.json), its pages on
 * docs.bunny.net (cdn/logging, api-reference/cdn-logging) and BUNNY-API.md. From them:
 * - v2 `country` and `search` are applied after the page was fetched ("applied in-process after fetch"): a page holds
 *   the matching rows among the `limit` rows at `offset`, and may be short or empty while `hasMore` is true.
 * - v1 `status` takes codes and classes as digits (`4,5`); a round hundred is its class; `5xx` is refused.
 */

const MAX_SEARCH_TOKENS = 16;
const MAX_SEARCH_TOKEN_LENGTH = 128;

/** SQL conditions, ANDed, with their arguments in order. */
export interface Where {
  clauses: string[];
  args: (string | number)[];
}

function addIn(where: Where, column: string, values: string[]): void {
  where.clauses.push(`${column} IN (${values.map(() => "?").join(",")})`);
  where.args.push(...values);
}

const URL_EXPR = "(scheme || '://' || host || path)";
const SEARCH_COLUMNS = ["cache_status", "request_id", "edge_location", "host", "path", "user_agent", "referer"];

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

function addStatus(q: Query, where: Where, api: "v1" | "v2"): void {
  const status = listParam(q, "status");
  if (!status) return;
  const c = statusCondition(status, "status", api);
  where.clauses.push(c.sql);
  where.args.push(...c.args);
}

/**
 * The v2 filters applied after the page was fetched (the logging API's OpenAPI document and docs.bunny.net, "Query
 * CDN access logs for a pull zone": "country and free-text search are applied in-process after fetch"): a page
 * holds the matching entries among the `limit` rows at `offset`, so it can be short or empty while more follow.
 */
export interface PostFilters {
  countries?: Set<string>;
  tokens?: string[];
}

export function matchesPostFilters(r: DbRow, f: PostFilters): boolean {
  if (f.countries && !(r.country_code !== null && f.countries.has(r.country_code.toUpperCase()))) return false;
  if (f.tokens && f.tokens.length > 0) {
    const values = SEARCH_COLUMNS.map((c) => String((r as unknown as Record<string, unknown>)[c] ?? "").toLowerCase());
    if (!f.tokens.some((t) => values.some((v) => v.includes(t.toLowerCase())))) return false;
  }
  return true;
}

/** Every v2 filter but time and paging: as SQL, except country and search (returned, applied after the fetch). */
export function v2Filters(q: Query, where: Where): PostFilters {
  const post: PostFilters = {};
  addStatus(q, where, "v2");
  const cache = listParam(q, "cacheStatus");
  if (cache) {
    const upper = cache.map((c) => c.toUpperCase());
    const bad = upper.find((c) => !CACHE_STATUSES.includes(c));
    if (bad !== undefined) throw new ParamError("cacheStatus", `cacheStatus: ${JSON.stringify(bad)} is not one of ${CACHE_STATUSES.join(", ")}`);
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

/** The v1 filters: `status`, and `search` as one substring of the URL, referer, user agent or request id. */
export function v1Filters(q: Query, where: Where): void {
  addStatus(q, where, "v1");
  const search = substringParam(q, "search");
  if (search !== undefined) {
    where.clauses.push(`(${[URL_EXPR, "referer", "user_agent", "request_id"].map((c) => `${c} LIKE ? ESCAPE '\\'`).join(" OR ")})`);
    where.args.push(...Array(4).fill(likePattern(search)));
  }
}
