import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../../context";
import { accessKeyOf, bearerOf } from "../../context";
import { loggingError } from "../../errorShapes";
import { ZONE_REQUEST_BUDGET, ZoneRequestWindow } from "./facts";
import type { PullZoneRecord } from "../pullZones";
import { zoneClaimOf } from "./jwt";

/**
 * Whether a logging request (v1 or v2) may read its zone's logs, checked in the API's order: credentials (the account
 * key, or a logging token for this zone), the zone (exists, not suspended, logging enabled), then the per-zone rate
 * limit (30 requests per 10 s, counted for authenticated requests only).
 */

/** The zone when the request is admitted; otherwise answers the error itself and returns undefined. */
export type Admit = (req: FastifyRequest, reply: FastifyReply, rawZoneId: string) => Promise<PullZoneRecord | undefined>;

/** An admission check with its own rate limiters (one per zone). */
export function createAdmission(ctx: EmulatorContext): Admit {
  // Per account's store: zones of two accounts may share an id.
  const windowsOf = new WeakMap<object, Map<number, ZoneRequestWindow>>();
  return async (req, reply, rawZoneId) => {
    const zoneId = /^\d{1,12}$/.test(rawZoneId) ? Number(rawZoneId) : NaN;
    const key = accessKeyOf(req);
    const bearer = bearerOf(req);
    if (key !== undefined) {
      if (!ctx.isAccountKey(key)) return void loggingError(reply, 403, "forbidden", "The credentials are not valid.");
    } else if (bearer !== undefined) {
      let claim: unknown;
      try {
        claim = await zoneClaimOf(ctx, bearer);
      } catch {
        return void loggingError(reply, 403, "forbidden", "The token is not valid or has expired.");
      }
      // Issued tokens carry the zone as a number: no coercion, so `[1001]` or `"1001"` is not zone 1001.
      if (claim !== zoneId) return void loggingError(reply, 403, "forbidden", "The token is not valid for this pull zone.");
    } else {
      return void loggingError(reply, 401, "unauthorized", "No credentials: send an AccessKey header or an Authorization: Bearer token.");
    }
    if (!Number.isFinite(zoneId)) return void loggingError(reply, 400, "invalid_request", "pullZoneId must be an integer", { field: "pullZoneId" });
    const zone = ctx.store.get<PullZoneRecord>("pullzone", zoneId);
    if (!zone) return void loggingError(reply, 404, "not_found", `Pull zone ${zoneId} was not found.`);
    if (zone.Suspended) return void loggingError(reply, 403, "forbidden", `Pull zone ${zoneId} is suspended.`);
    if (!zone.EnableLogging) return void loggingError(reply, 404, "logging_disabled", `Logging is disabled for pull zone ${zoneId}.`);
    let windows = windowsOf.get(ctx.store);
    if (!windows) windowsOf.set(ctx.store, (windows = new Map()));
    let window = windows.get(zoneId);
    if (!window) windows.set(zoneId, (window = new ZoneRequestWindow()));
    const waitMs = window.admit();
    if (waitMs > 0) {
      reply.header("retry-after", String(Math.max(1, Math.ceil(waitMs / 1000))));
      return void loggingError(reply, 429, "rate_limited", `More than ${ZONE_REQUEST_BUDGET.requests} requests in ${ZONE_REQUEST_BUDGET.windowMs / 1000} s for pull zone ${zoneId}.`);
    }
    return zone;
  };
}
