import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import type { ZodError } from "zod";
import { type EmulatorSurface, refusedForeignAdminKey } from "../../context";
import { loggingError } from "../../errorShapes";
import type { PullZoneRecord } from "../pullZones";
import { createAdmission } from "./admission";
import { issueLoggingToken, signedWith, TokenRequestSchema } from "./jwt";
import { ParamError, type Query } from "./query";
import { addLiveTraffic, seedLogs, TrafficRequestSchema } from "./seed";
import { createLogTable, expiredRowPruner } from "./table";
import { readV1DayFileRequest, v1Lines } from "./v1DayFile";
import { v2Page } from "./v2Page";

/**
 * CDN logs (logging.bunnycdn.com): v2 JSON queries and v1 day files over one table of synthetic
 * requests, with the API's auth (account key or a zone-bound HS256 JWT), 3-day retention and
 * per-zone rate limit (30 requests per 10 s, counted for authenticated requests only).
 * This file registers the surface (its table, seed and routes); each question has its own file beside it:
 * admission.ts (auth, zone state, rate limit), jwt.ts (logging tokens), query.ts (reading parameters),
 * sqlFilter.ts (filters as SQL), table.ts (storage, retention), v2Page.ts, v1DayFile.ts (the two reads),
 * seed.ts (seeded and live traffic), generator.ts (synthetic requests).
 *
 * Sources: the logging API's OpenAPI document (https://logging.bunnycdn.com/docs/all/swagger.json), its pages on
 * docs.bunny.net (cdn/logging, api-reference/cdn-logging) and BUNNY-API.md. From them:
 * - v2 `country` and `search` are applied after the page was fetched ("applied in-process after fetch"): a page holds
 *   the matching rows among the `limit` rows at `offset`, and may be short or empty while `hasMore` is true.
 * - v2 entries omit null fields; the document marks most of them nullable (see LogEntrySchema).
 * - v1 `status` takes codes and classes as digits (`4,5`); a round hundred is its class; `5xx` is refused.
 * - v1 ordering: the document says `sort`, the pages `order`; both are read (400 when they disagree).
 *
 * Accounts: the admin routes act in the account whose key is sent as `AccessKey` (the first account without one; a
 * key that is no account's is refused, 403), so every account has tokens and traffic of its own; a token is signed
 * with its account's secret and a request bearing it runs in that account (`ownsBearer`, server.ts accountOf).
 */

/** A refused parameter as 400 invalid_request naming it; any other error is rethrown. */
function invalidParam(reply: FastifyReply, e: unknown): FastifyReply {
  if (e instanceof ParamError) return loggingError(reply, 400, "invalid_request", e.message, { field: e.field });
  throw e;
}

/** A refused `/_emulator` body: its first issue, with the path to the field. */
function invalidBody(reply: FastifyReply, error: ZodError): FastifyReply {
  const i = error.issues[0];
  return reply.code(400).send({ error: { code: "invalid_request", message: `${i.path.join(".") || "(body)"}: ${i.message}` } });
}

export const loggingSurface: EmulatorSurface = {
  name: "logging",
  migrate: createLogTable,
  seed: seedLogs,
  ownsBearer: (ctx, bearer) => signedWith(ctx.jwtSecret(), bearer),

  routes(app, ctx) {
    const admit = createAdmission(ctx);
    const prune = expiredRowPruner(ctx);

    app.post("/_emulator/logging-token", async (req, reply) => {
      if (refusedForeignAdminKey(ctx, req, reply)) return reply;
      const parsed = TokenRequestSchema.safeParse(req.body ?? {});
      if (!parsed.success) return invalidBody(reply, parsed.error);
      return issueLoggingToken(ctx, parsed.data.pullZoneId, parsed.data.ttlSeconds);
    });

    // Live traffic for demos and `logs tail` tests: `count` requests served just now.
    app.post("/_emulator/logs/traffic", async (req, reply) => {
      if (refusedForeignAdminKey(ctx, req, reply)) return reply;
      const parsed = TrafficRequestSchema.safeParse(req.body ?? {});
      if (!parsed.success) return invalidBody(reply, parsed.error);
      const zone = ctx.store.get<PullZoneRecord>("pullzone", parsed.data.pullZoneId);
      if (!zone) return reply.code(404).send({ error: { code: "not_found", message: `Pull zone ${parsed.data.pullZoneId} was not found.` } });
      return { requestIds: addLiveTraffic(ctx, zone, parsed.data.count) };
    });

    app.get("/v2/pullzones/:pullZoneId/logs", async (req, reply) => {
      const zone = await admit(req, reply, (req.params as { pullZoneId: string }).pullZoneId);
      if (!zone) return reply;
      const now = Date.now();
      prune(now);
      try {
        return v2Page(ctx, zone, req.query as Query, now);
      } catch (e) {
        return invalidParam(reply, e);
      }
    });

    app.get("/:date(^\\d{2}-\\d{2}-\\d{2}$)/:pullZoneId.log", async (req, reply) => {
      const params = req.params as { date: string; pullZoneId: string };
      const zone = await admit(req, reply, params.pullZoneId);
      if (!zone) return reply;
      const now = Date.now();
      prune(now);
      try {
        const file = readV1DayFileRequest(zone, params.date, req.query as Query, now);
        reply.header("content-type", "text/plain; charset=utf-8");
        if (file.download) reply.header("content-disposition", `attachment; filename="${params.date}-${zone.Id}.log"`);
        return reply.send(Readable.from(v1Lines(ctx, file), { objectMode: false }));
      } catch (e) {
        return invalidParam(reply, e);
      }
    });
  },
};
