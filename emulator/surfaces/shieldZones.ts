import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { shieldError } from "../errorShapes";
import { ZONE, type ShieldZoneRecord } from "./shield";
import { parseBody } from "../unknownProperties";

/**
 * Shield zones: create, update and read (shield-api-v1.0.0.json: "Create Shield Zone" `POST /shield/shield-zone`,
 * "Update Shield Zone" `PATCH /shield/shield-zone`, "Get Shield Zone Configuration" `GET /shield/shield-zone/{id}`
 * and "…by Pull Zone" `GET /shield/shield-zone/get-by-pullzone/{pullZoneId}`). The document has no delete.
 * Validation is written here from the document's request schemas (CreateShieldZoneRequest, UpdateShieldZoneRequest,
 * ShieldZoneRequest: all `additionalProperties: false`), independently of the client's.
 *
 * Where the document is silent (emulator/README.md lists these):
 * - creating for a pull zone that does not exist answers 400 `{error: {…, errorKey:
 *   "pullzone.not_found"}}`; for one that has a shield zone already, 409 `shield_zone.already_exists`;
 * - a write answers 200 `{data: <the request, with shieldZone.shieldZoneId>}` (the documented shape);
 * - updating an unknown zone answers 202 with the envelope `not_found_or_unauthorised_access.shieldzone` (as the
 *   rules' create does); reading one, 404;
 * - a shield zone whose pull zone was deleted is gone with it (every route treats it as unknown);
 * - the rule limits follow the plan: Basic 2, Advanced 10, Business 25, Enterprise 50 rate-limit rules.
 */

const RULE_LIMITS = [2, 10, 25, 50];
const WAF_RULE_LIMITS = [0, 10, 25, 50];

/** What a zone reads as for every setting not set since its creation. */
const DEFAULTS = {
  learningModeUntil: null,
  wafExecutionMode: 1,
  wafDisabledRules: [],
  wafLogOnlyRules: [],
  wafCustomRuleOrder: [],
  wafRequestHeaderLoggingEnabled: true,
  requestBodyLoggingEnabled: false,
  wafRequestIgnoredHeaders: ["Cookie", "Authorization"],
  wafRealtimeThreatIntelligenceEnabled: false,
  wafProfileId: null,
  wafEngineConfig: [],
  wafRequestBodyLimitAction: 1,
  wafResponseBodyLimitAction: 2,
  dDoSShieldSensitivity: 2,
  dDoSExecutionMode: 1,
  dDoSChallengeWindow: 3600,
  whitelabelResponsePages: false,
};

const int64 = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const int32 = z.number().int().min(-2147483648).max(2147483647);
const oneOf = (...values: number[]) => z.number().refine((n) => values.includes(n), { message: `must be one of ${values.join(", ")}` });
const uniqueStrings = z
  .array(z.string())
  .refine((a) => new Set(a).size === a.length, { message: "items must be unique" })
  .nullish();

/** ShieldZoneRequest. */
const settingsSchema = z.strictObject({
  shieldZoneId: int64.optional(),
  premiumPlan: z.boolean().nullish(),
  planType: oneOf(0, 1, 2, 3).optional(),
  learningMode: z.boolean().nullish(),
  learningModeUntil: z.iso.datetime({ offset: true }).nullish(),
  wafEnabled: z.boolean().nullish(),
  wafExecutionMode: oneOf(0, 1).optional(),
  wafDisabledRules: uniqueStrings,
  wafLogOnlyRules: uniqueStrings,
  wafCustomRuleOrder: z.array(int64).nullish(),
  wafRequestHeaderLoggingEnabled: z.boolean().nullish(),
  requestBodyLoggingEnabled: z.boolean().nullish(),
  wafRequestIgnoredHeaders: uniqueStrings,
  wafRealtimeThreatIntelligenceEnabled: z.boolean().nullish(),
  wafProfileId: int32.nullish(),
  wafEngineConfig: z.array(z.strictObject({ name: z.string().nullable(), valueEncoded: z.string().nullable() })).nullish(),
  wafRequestBodyLimitAction: oneOf(0, 1, 2).optional(),
  wafResponseBodyLimitAction: oneOf(0, 1, 2).optional(),
  dDoSShieldSensitivity: oneOf(0, 1, 2, 3, 4).optional(),
  // Not in ShieldZoneRequest, but in ShieldZoneResponse, and kept: bunny.net's Terraform provider sends it on create
  // and update and reads it back (internal/api/pullzone_shield.go lines 45, 430 and 503; 0 Log, 1 Block, enums_static.go).
  dDoSExecutionMode: oneOf(0, 1).optional(),
  dDoSChallengeWindow: int32.nullish(),
  whitelabelResponsePages: z.boolean().nullish(),
});

const createSchema = z.strictObject({
  shieldZone: settingsSchema.optional(),
  pullZoneId: int64,
  accessLists: z.record(z.string(), z.unknown()).nullish(),
  botDetectionExecutionMode: oneOf(0, 1).optional(),
  csamScanningMode: oneOf(0, 1, 2).optional(),
  antivirusScanningMode: oneOf(0, 1, 2).optional(),
});

const updateSchema = z.strictObject({ shieldZone: settingsSchema.optional(), shieldZoneId: int64 });

type Settings = z.output<typeof settingsSchema>;

function writeError(reply: FastifyReply, status: number, errorKey: string, message: string): FastifyReply {
  return reply.code(status).send({ error: { statusCode: status, success: false, message, errorKey } });
}

function invalid(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const message = error.issues.map((i) => `${[...i.path.map(String), ...(i.code === "unrecognized_keys" ? i.keys.slice(0, 1) : [])].join(".") || "(body)"}: ${i.message}`).join("; ");
  return writeError(reply, 400, "shield_zone.validation", `The request is invalid. ${message}`);
}

/** The zone, unless it is unknown or went with its pull zone. */
export function liveShieldZone(ctx: EmulatorContext, zone: ShieldZoneRecord | undefined): ShieldZoneRecord | undefined {
  if (!zone) return undefined;
  return zone.detached || ctx.store.get("pullzone", zone.pullZoneId) ? zone : undefined;
}

/** Applies a request's settings: the plan, learning mode and WAF switch on the record, the rest in `settings`. */
function applied(zone: ShieldZoneRecord, s: Settings | undefined): ShieldZoneRecord {
  const { shieldZoneId: _id, premiumPlan: _premium, planType, learningMode, wafEnabled, ...rest } = s ?? {};
  const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null));
  const plan = planType ?? zone.planType;
  return {
    ...zone,
    planType: plan,
    rateLimitRulesLimit: planType === undefined ? zone.rateLimitRulesLimit : RULE_LIMITS[plan],
    customWafRulesLimit: planType === undefined ? zone.customWafRulesLimit : WAF_RULE_LIMITS[plan],
    learningMode: learningMode ?? zone.learningMode,
    wafEnabled: wafEnabled ?? zone.wafEnabled,
    settings: { ...zone.settings, ...given },
  };
}

/** ShieldZoneResponse. */
function view(zone: ShieldZoneRecord): Record<string, unknown> {
  return {
    shieldZoneId: zone.shieldZoneId,
    pullZoneId: zone.pullZoneId,
    planType: zone.planType,
    learningMode: zone.learningMode,
    wafEnabled: zone.wafEnabled,
    rateLimitRulesLimit: zone.rateLimitRulesLimit,
    customWafRulesLimit: zone.customWafRulesLimit,
    ...DEFAULTS,
    ...zone.settings,
  };
}

function requestEcho(zone: ShieldZoneRecord): Record<string, unknown> {
  const { rateLimitRulesLimit: _r, customWafRulesLimit: _c, pullZoneId: _p, dDoSExecutionMode: _m, ...settings } = view(zone);
  return settings;
}

export const shieldZonesSurface: EmulatorSurface = {
  name: "shieldZones",
  seed: () => ({}),
  routes(app, ctx) {
    const numeric = (v: string) => (/^\d{1,15}$/.test(v) ? Number(v) : undefined);
    const byPullZone = (pullZoneId: number | undefined) =>
      pullZoneId === undefined ? undefined : liveShieldZone(ctx, ctx.store.list<ShieldZoneRecord>(ZONE).find((z) => z.pullZoneId === pullZoneId));

    app.get("/shield/shield-zone/get-by-pullzone/:pullZoneId", async (req, reply) => {
      const zone = byPullZone(numeric((req.params as { pullZoneId: string }).pullZoneId));
      if (!zone) return shieldError(reply, 404, "No shield zone exists for this pull zone.", "shield_zone.not_found");
      return { data: view(zone) };
    });

    app.get("/shield/shield-zone/:shieldZoneId", async (req, reply) => {
      const id = numeric((req.params as { shieldZoneId: string }).shieldZoneId);
      const zone = id === undefined ? undefined : liveShieldZone(ctx, ctx.store.get<ShieldZoneRecord>(ZONE, id));
      if (!zone) return shieldError(reply, 404, "The shield zone was not found.", "shield_zone.not_found");
      return { data: view(zone) };
    });

    app.post("/shield/shield-zone", async (req, reply) => {
      const parsed = parseBody(createSchema, req.body, ctx.strict);
      if (!parsed.success) return invalid(reply, parsed.error);
      const body = parsed.data;
      if (!ctx.store.get("pullzone", body.pullZoneId)) return writeError(reply, 400, "pullzone.not_found", `Pull zone ${body.pullZoneId} was not found.`);
      if (byPullZone(body.pullZoneId)) return writeError(reply, 409, "shield_zone.already_exists", `Pull zone ${body.pullZoneId} already has a shield zone.`);
      const fresh: ShieldZoneRecord = {
        shieldZoneId: ctx.store.nextId(ZONE, 3001),
        pullZoneId: body.pullZoneId,
        planType: 0,
        rateLimitRulesLimit: RULE_LIMITS[0],
        customWafRulesLimit: WAF_RULE_LIMITS[0],
        wafEnabled: true,
        learningMode: false,
        provisioning: false,
        settings: {},
      };
      const zone = applied(fresh, body.shieldZone);
      ctx.store.put(ZONE, zone.shieldZoneId, zone);
      return { data: { pullZoneId: zone.pullZoneId, shieldZone: requestEcho(zone) } };
    });

    app.patch("/shield/shield-zone", async (req, reply) => {
      const parsed = parseBody(updateSchema, req.body, ctx.strict);
      if (!parsed.success) return invalid(reply, parsed.error);
      const zone = liveShieldZone(ctx, ctx.store.get<ShieldZoneRecord>(ZONE, parsed.data.shieldZoneId));
      if (!zone) {
        return reply.code(202).send({
          data: null,
          error: { success: false, errorKey: "not_found_or_unauthorised_access.shieldzone", message: `Shield zone ${parsed.data.shieldZoneId} was not found or is not yours.`, statusCode: 202 },
        });
      }
      const updated = applied(zone, parsed.data.shieldZone);
      ctx.store.put(ZONE, updated.shieldZoneId, updated);
      return { data: { shieldZoneId: updated.shieldZoneId, shieldZone: requestEcho(updated) } };
    });
  },
};
