import type { FastifyReply, FastifyRequest } from "fastify";
import { validationProblem } from "./problems";

/**
 * Paging of Magic Containers lists with an opaque cursor.
 *
 * Sources: magic-containers-api-v1.0.0.json (bunny.net's published OpenAPI document); BUNNY-API.md.
 * - Regions page with an opaque cursor: `?limit=` (1..1000, default 20) and `?nextCursor=` (the previous answer's
 *   `cursor`); the last page answers `cursor: null` (the document's parameters for GET /regions).
 */

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 1000;

export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}

function decodeCursor(cursor: string): number | undefined {
  try {
    const o = (JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown }).o;
    return typeof o === "number" && Number.isInteger(o) && o >= 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

/** One page of `items` per `?limit=&nextCursor=`, or undefined after answering 400 (extended problem details). */
export function pageOf<T>(req: FastifyRequest, reply: FastifyReply, items: T[]): { items: T[]; meta: { totalItems: number }; cursor: string | null } | undefined {
  const q = req.query as { limit?: string; nextCursor?: string };
  let limit = DEFAULT_PAGE_SIZE;
  if (q.limit !== undefined) {
    limit = /^\d+$/.test(q.limit) ? Number(q.limit) : NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_SIZE)) return void validationProblem(reply, "limit", `The field limit must be between 1 and ${MAX_PAGE_SIZE}.`);
  }
  let offset = 0;
  if (q.nextCursor !== undefined && q.nextCursor !== "") {
    const decoded = decodeCursor(q.nextCursor);
    if (decoded === undefined) return void validationProblem(reply, "nextCursor", "The cursor is not valid.");
    offset = decoded;
  }
  const end = offset + limit;
  return { items: items.slice(offset, end), meta: { totalItems: items.length }, cursor: end < items.length ? encodeCursor(end) : null };
}
