import type { FastifyReply } from "fastify";
import type { z } from "zod";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { shieldError, shieldNestedError } from "../errorShapes";
import { CreateRuleBody, type RuleConfigurationBody, UpdateRuleBody } from "./shieldRuleBodies";
import { liveShieldZone } from "./shieldZones";
import { parseBody } from "../unknownProperties";

/**
 * Shield: the rate-limit rules of shield zones, and the seeded shield zones (their own routes: shieldZones.ts).
 *
 * Sources: shield-api-v1.0.0.json (bunny.net's published OpenAPI document: shapes, 200/202 per operation),
 * BUNNY-API.md (the 202 for a deleted rule, seen in the field), and the error envelope Shield answers in the field
 * (`{data: null, error: {success: false, errorKey, message}}`, often with 202; not in the document; the Terraform
 * provider's issue #64, "Unable to create more than 2 … waf_rule resources" with an empty error, fits it).
 *
 * Seeded: the shield zone of fixture `pullZoneId` (`shieldZoneId`, Advanced plan, at most `shieldRateLimitRulesLimit`
 * rules), a second one still provisioning, on `loggingDisabledPullZoneId` (`provisioningShieldZoneId`), and a third
 * whose plan no longer includes rate limiting (`downgradedShieldZoneId`, holding rule `downgradedRateLimitId`).
 * `deletedRateLimitId` is a rule of the first zone that was deleted.
 *
 * Behaviour reproduced:
 * - Bodies are checked against the emulator's own reading of the contract (shieldRuleBodies.ts: unknown properties,
 *   types, enums, ranges, missing fields; Terraform's `ruleJson`, and on update `id` and `shieldZoneId`, accepted):
 *   400 `{error:{message, errorKey:"rate_limit.validation"}}`, the message naming every field at fault.
 * - Creating in an unknown shield zone answers 202 with the envelope `not_found_or_unauthorised_access.shieldzone`;
 *   a zone at its plan's rule limit answers 202 `plan_limit_restriction.rate_limit`. Unknown rules are 404
 *   GenericRequestResponse.
 * - In the downgraded zone every rule operation (get, list, update, create) answers 202 `plan_limit_restriction.rate_limit`:
 *   an error that must not read as "gone". Delete still works, so cleanup does.
 * - GET of a rule deleted earlier answers 202 with an AcceptedResult body (seen in the field); a never-existing id 404.
 * - When create answers 202: always, and only, for rules created in a provisioning zone (`provisioningShieldZoneId`).
 *   The rule is stored at once but provisioned asynchronously: it is left out of the first listing of its zone
 *   that would include it, and appears from the next one on. (Deterministic: counted in listings, not time.)
 */

export interface ShieldZoneRecord {
  shieldZoneId: number;
  pullZoneId: number;
  planType: number;
  rateLimitRulesLimit: number;
  customWafRulesLimit: number;
  wafEnabled: boolean;
  learningMode: boolean;
  /** Rules created here are accepted (202) and provisioned asynchronously. */
  provisioning: boolean;
  /** The plan no longer includes rate limiting: rule operations answer the plan error envelope. */
  downgraded?: boolean;
  /** Not tied to a core pull zone (a fixture): never gone with one. */
  detached?: boolean;
  /** Settings set through create or update (shieldZones.ts), by the API's names. */
  settings?: Record<string, unknown>;
}

interface RateLimitRecord {
  id: number;
  shieldZoneId: number;
  userId: string;
  ruleName: string;
  /** As sent: a rule made without one answers null, as RateLimitRule and CustomWafRule allow (nullable), not "". */
  ruleDescription: string | null;
  ruleConfiguration: Record<string, unknown>;
  /** Listings that still leave the rule out while it is provisioning (not part of the API's answer). */
  pendingListings?: number;
}

export const ZONE = "shieldZone";
export const RULE = "shieldRateLimit";
const DELETED_RULE = "shieldRateLimitDeleted";
export const USER_ID = "4f1c2b7e-9d3a-4c51-8e0f-2a6b5d7c9e10";
const MAIN_ZONE_RULE_LIMIT = 10;
export const MAX_PER_PAGE = 1000;
/** The pull zone of the downgraded shield zone: not a core pull zone (only the shield zone matters here). */
const DOWNGRADED_PULL_ZONE_ID = 990001;

/** A rule condition (rate-limit or custom WAF rule) with the fields the API defaults filled in. */
export function normalizedCondition(x: { variableTypes: Record<string, string | undefined>; operatorType: number; value?: string | null; isNegated?: boolean | null; isRegexVariable?: boolean | null }) {
  return {
    variableTypes: x.variableTypes,
    operatorType: x.operatorType,
    value: x.value ?? "",
    isNegated: x.isNegated ?? false,
    isRegexVariable: x.isRegexVariable ?? false,
  };
}

/** Fills the fields the API defaults, so reads show the whole configuration. */
function normalizeConfiguration(c: RuleConfigurationBody): Record<string, unknown> {
  const condition = normalizedCondition;
  return {
    actionType: c.actionType ?? 1,
    ...condition(c),
    severityType: c.severityType ?? 0,
    transformationTypes: c.transformationTypes ?? [],
    requestCount: c.requestCount,
    counterKeyType: c.counterKeyType ?? 0,
    timeframe: c.timeframe,
    blockTime: c.blockTime,
    chainedRuleConditions: (c.chainedRuleConditions ?? []).map(condition),
  };
}

/** The rule as the API answers it (RateLimitRule, no wrapper). */
function ruleAnswer(r: RateLimitRecord): Record<string, unknown> {
  const { pendingListings: _pending, ...rule } = r;
  return { ...rule, ruleJson: JSON.stringify(r.ruleConfiguration) };
}

/** Shield's error envelope, answered with 202 (see the header). */
export function envelopeError(reply: FastifyReply, errorKey: string, message: string): FastifyReply {
  return reply.code(202).send({ data: null, error: { success: false, errorKey, message, statusCode: 202 } });
}

/**
 * The key of a rate-limit refusal for the zone's plan (a Basic tier, or a plan's rule count reached): BUNNY-API.md,
 * "Evidence from the vendor's own Terraform provider" (`plan_limit_restriction.rate_limit`). Shield's
 * `invalid_plan_type.…` keys are for other features (`invalid_plan_type.bot_detection`,
 * terraform-provider-bunnynet internal/api/pullzone_shield.go).
 */
const PLAN_ERROR = "plan_limit_restriction.rate_limit";

function acceptedResult(reply: FastifyReply, location: string | null = null): FastifyReply {
  return reply.code(202).send({ location, value: null, formatters: [], contentTypes: [], declaredType: null, statusCode: 202 });
}

/** Every zod issue as `field: message`, the way Shield's validation errors name them. */
export function validationMessage(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const keys = i.code === "unrecognized_keys" ? i.keys : [];
      const field = [...i.path.map(String), ...keys.slice(0, 1)].join(".") || "(body)";
      return `${field}: ${i.message}`;
    })
    .join("; ");
}

export function validate<S extends z.ZodType>(strict: boolean, schema: S, body: unknown, reply: FastifyReply, errorKey = "rate_limit.validation"): z.output<S> | undefined {
  const parsed = parseBody(schema, body, strict);
  if (parsed.success) return parsed.data;
  shieldNestedError(reply, 400, `The request is invalid. ${validationMessage(parsed.error)}`, errorKey);
  return undefined;
}

export function numericId(value: string): number | undefined {
  return /^\d{1,18}$/.test(value) ? Number(value) : undefined;
}

export function intQuery(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined || value === "") return fallback;
  return /^-?\d+$/.test(value) ? Number(value) : undefined;
}

function isDowngraded(ctx: EmulatorContext, rule: RateLimitRecord): boolean {
  return ctx.store.get<ShieldZoneRecord>(ZONE, rule.shieldZoneId)?.downgraded === true;
}

/** A rule, unless unknown or gone with its zone's pull zone. */
function findRule(ctx: EmulatorContext, id: string): RateLimitRecord | undefined {
  const n = numericId(id);
  const rule = n === undefined ? undefined : ctx.store.get<RateLimitRecord>(RULE, n);
  return rule && zoneOf(ctx, rule.shieldZoneId) ? rule : undefined;
}

/** A shield zone, unless unknown or gone with its pull zone. */
export function zoneOf(ctx: EmulatorContext, id: number): ShieldZoneRecord | undefined {
  return liveShieldZone(ctx, ctx.store.get<ShieldZoneRecord>(ZONE, id));
}

export const shieldSurface: EmulatorSurface = {
  name: "shield",
  seed(ctx, seededSoFar) {
    const zone = (pullZoneId: number, fields: Partial<ShieldZoneRecord>): ShieldZoneRecord => {
      const record: ShieldZoneRecord = {
        shieldZoneId: ctx.store.nextId(ZONE, 3001),
        pullZoneId,
        planType: 1,
        rateLimitRulesLimit: MAIN_ZONE_RULE_LIMIT,
        customWafRulesLimit: 10,
        wafEnabled: true,
        learningMode: false,
        provisioning: false,
        ...fields,
      };
      ctx.store.put(ZONE, record.shieldZoneId, record);
      return record;
    };
    const main = zone(Number(seededSoFar.pullZoneId), {});
    const provisioning = zone(Number(seededSoFar.loggingDisabledPullZoneId), { planType: 0, rateLimitRulesLimit: 2, provisioning: true });
    const downgraded = zone(DOWNGRADED_PULL_ZONE_ID, { planType: 0, rateLimitRulesLimit: 0, downgraded: true, detached: true });
    const downgradedRule: RateLimitRecord = {
      id: ctx.store.nextId(RULE, 9001),
      shieldZoneId: downgraded.shieldZoneId,
      userId: USER_ID,
      ruleName: "kept-from-the-old-plan",
      ruleDescription: "",
      ruleConfiguration: normalizeConfiguration({ variableTypes: { REQUEST_URI: "" }, operatorType: 0, value: "/", requestCount: 100, timeframe: 60, blockTime: 300 }),
    };
    ctx.store.put(RULE, downgradedRule.id, downgradedRule, downgraded.shieldZoneId);
    const deletedRuleId = ctx.store.nextId(RULE, 9001);
    ctx.store.put(DELETED_RULE, deletedRuleId, { id: deletedRuleId, shieldZoneId: main.shieldZoneId });
    return {
      shieldZoneId: main.shieldZoneId,
      shieldRateLimitRulesLimit: main.rateLimitRulesLimit,
      provisioningShieldZoneId: provisioning.shieldZoneId,
      downgradedShieldZoneId: downgraded.shieldZoneId,
      downgradedRateLimitId: downgradedRule.id,
      deletedRateLimitId: deletedRuleId,
    };
  },
  routes(app, ctx) {
    // The shield zone routes themselves are in shieldZones.ts.
    app.post("/shield/rate-limit", async (req, reply) => {
      const body = validate(ctx.strict, CreateRuleBody, req.body, reply);
      if (!body) return reply;
      const zone = zoneOf(ctx, body.shieldZoneId);
      if (!zone) return envelopeError(reply, "not_found_or_unauthorised_access.shieldzone", `Shield zone ${body.shieldZoneId} was not found or is not yours.`);
      if (zone.downgraded) return envelopeError(reply, PLAN_ERROR, "Your shield zone's plan does not include rate limiting.");
      if (ctx.store.list(RULE, zone.shieldZoneId).length >= zone.rateLimitRulesLimit) {
        return envelopeError(reply, PLAN_ERROR, `Your plan allows at most ${zone.rateLimitRulesLimit} rate limit rules in this shield zone.`);
      }
      const rule: RateLimitRecord = {
        id: ctx.store.nextId(RULE, 9001),
        shieldZoneId: zone.shieldZoneId,
        userId: USER_ID,
        ruleName: body.ruleName,
        ruleDescription: body.ruleDescription ?? null,
        ruleConfiguration: normalizeConfiguration(body.ruleConfiguration),
        ...(zone.provisioning ? { pendingListings: 1 } : {}),
      };
      ctx.store.put(RULE, rule.id, rule, zone.shieldZoneId);
      if (zone.provisioning) return acceptedResult(reply);
      return ruleAnswer(rule);
    });

    app.get("/shield/rate-limit/:id", async (req, reply) => {
      const { id } = req.params as { id: string };
      const rule = findRule(ctx, id);
      if (rule && isDowngraded(ctx, rule)) return envelopeError(reply, PLAN_ERROR, "Your shield zone's plan does not include rate limiting.");
      if (rule) return ruleAnswer(rule);
      const n = numericId(id);
      if (n !== undefined && ctx.store.get(DELETED_RULE, n)) return acceptedResult(reply);
      return shieldError(reply, 404, "The rate limit was not found.", "rate_limit.not_found");
    });

    app.get("/shield/rate-limits/:shieldZoneId", async (req, reply) => {
      const zoneId = numericId((req.params as { shieldZoneId: string }).shieldZoneId);
      const zone = zoneId === undefined ? undefined : zoneOf(ctx, zoneId);
      if (!zone) return shieldError(reply, 404, "The shield zone was not found.", "shield_zone.not_found");
      if (zone.downgraded) return envelopeError(reply, PLAN_ERROR, "Your shield zone's plan does not include rate limiting.");
      const q = req.query as Record<string, string | undefined>;
      const page = intQuery(q.page, 1);
      const perPage = intQuery(q.perPage, 10);
      if (page === undefined || page < 1) return shieldError(reply, 400, "page must be a positive integer.", "validation_error");
      if (perPage === undefined || perPage < 1 || perPage > MAX_PER_PAGE) return shieldError(reply, 400, `perPage must be between 1 and ${MAX_PER_PAGE}.`, "validation_error");

      const visible: RateLimitRecord[] = [];
      for (const rule of ctx.store.list<RateLimitRecord>(RULE, zone.shieldZoneId)) {
        if (rule.pendingListings) {
          // Still provisioning: this listing leaves it out; it shows from the next one.
          ctx.store.put(RULE, rule.id, { ...rule, pendingListings: rule.pendingListings - 1 }, zone.shieldZoneId);
          continue;
        }
        visible.push(rule);
      }
      const totalPages = Math.ceil(visible.length / perPage);
      return {
        data: visible.slice((page - 1) * perPage, page * perPage).map(ruleAnswer),
        page: { totalCount: visible.length, totalPages, currentPage: page, nextPage: page < totalPages ? page + 1 : null, pageSize: perPage },
      };
    });

    app.patch("/shield/rate-limit/:id", async (req, reply) => {
      const rule = findRule(ctx, (req.params as { id: string }).id);
      if (!rule) return shieldError(reply, 404, "The rate limit was not found.", "rate_limit.not_found");
      if (isDowngraded(ctx, rule)) return envelopeError(reply, PLAN_ERROR, "Your shield zone's plan does not include rate limiting.");
      const body = validate(ctx.strict, UpdateRuleBody, req.body, reply);
      if (!body) return reply;
      const updated: RateLimitRecord = {
        ...rule,
        ruleName: body.ruleName,
        ruleDescription: body.ruleDescription ?? null,
        ruleConfiguration: normalizeConfiguration(body.ruleConfiguration),
      };
      ctx.store.put(RULE, rule.id, updated, rule.shieldZoneId);
      return ruleAnswer(updated);
    });

    app.delete("/shield/rate-limit/:id", async (req, reply) => {
      const rule = findRule(ctx, (req.params as { id: string }).id);
      if (!rule) return shieldError(reply, 404, "The rate limit was not found.", "rate_limit.not_found");
      ctx.store.transaction(() => {
        ctx.store.delete(RULE, rule.id);
        ctx.store.put(DELETED_RULE, rule.id, { id: rule.id, shieldZoneId: rule.shieldZoneId });
      });
      return { statusCode: 200, success: true, message: "The rate limit was deleted.", errorKey: null };
    });
  },
};
