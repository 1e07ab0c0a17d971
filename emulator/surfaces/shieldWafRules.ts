import type { EmulatorSurface } from "../context";
import { shieldError } from "../errorShapes";
import { MAX_PER_PAGE, USER_ID, envelopeError, intQuery, normalizedCondition, numericId, validate, zoneOf } from "./shield";
import { CreateWafRuleBody, UpdateWafRuleBody, type WafRuleConfigurationBody } from "./shieldRuleBodies";

/**
 * Shield's custom WAF rules (`/shield/waf/custom-rule*`, `/shield/waf/custom-rules/{shieldZoneId}`).
 *
 * Sources: shield-api-v1.0.0.json ("Create / Get / Update (PUT and PATCH) / Delete Custom WAF Rule", "Get Custom WAF
 * Rules": CreateCustomWafRuleRequest, UpdateCustomWafRuleRequest, CustomWafRule, GetCustomWafRulesResponse with
 * PaginationResponse, perPage default 10), and Shield's error envelope as the rate-limit rules answer it (shield.ts).
 *
 * Behaviour reproduced:
 * - bodies checked against the emulator's own reading (shieldRuleBodies.ts): 400 `{error:{message, errorKey:
 *   "waf_rule.validation"}}` naming every field at fault;
 * - creating in an unknown shield zone (or one gone with its pull zone) answers 202 with the envelope
 *   `not_found_or_unauthorised_access.shieldzone`; a zone at its plan's `customWafRulesLimit` (Basic: none) answers
 *   202 `plan_limit_restriction.waf_rule`;
 * - unknown rules, and rules whose zone went with its pull zone, are 404 GenericRequestResponse (`waf_rule.not_found`);
 *   listing an unknown zone is 404 (`shield_zone.not_found`);
 * - answers fill what the API defaults (severity NOTICE, no transformations, "" value, not negated, no chain), and
 *   carry `ruleJson` rebuilt from the configuration.
 * Decided (the document is silent): PUT and PATCH both replace the whole rule (both take the same request).
 */

interface WafRuleRecord {
  id: number;
  shieldZoneId: number;
  userId: string;
  ruleName: string;
  ruleDescription: string;
  ruleConfiguration: Record<string, unknown>;
}

export const WAF_RULE = "shieldWafRule";
const PLAN_ERROR = "plan_limit_restriction.waf_rule";

function normalized(c: WafRuleConfigurationBody): Record<string, unknown> {
  return {
    actionType: c.actionType,
    ...normalizedCondition(c),
    severityType: c.severityType ?? 0,
    transformationTypes: c.transformationTypes ?? [],
    chainedRuleConditions: (c.chainedRuleConditions ?? []).map(normalizedCondition),
  };
}

const answer = (r: WafRuleRecord) => ({ ...r, ruleJson: JSON.stringify(r.ruleConfiguration) });

export const shieldWafRulesSurface: EmulatorSurface = {
  name: "shieldWafRules",
  seed: () => ({}),
  routes(app, ctx) {
    /** A rule, unless unknown or gone with its zone's pull zone. */
    const findRule = (id: string): WafRuleRecord | undefined => {
      const n = numericId(id);
      const rule = n === undefined ? undefined : ctx.store.get<WafRuleRecord>(WAF_RULE, n);
      return rule && zoneOf(ctx, rule.shieldZoneId) ? rule : undefined;
    };
    const notFound = (reply: Parameters<typeof shieldError>[0]) => shieldError(reply, 404, "The custom WAF rule was not found.", "waf_rule.not_found");

    app.post("/shield/waf/custom-rule", async (req, reply) => {
      const body = validate(ctx.strict, CreateWafRuleBody, req.body, reply, "waf_rule.validation");
      if (!body) return reply;
      const zone = zoneOf(ctx, body.shieldZoneId);
      if (!zone) return envelopeError(reply, "not_found_or_unauthorised_access.shieldzone", `Shield zone ${body.shieldZoneId} was not found or is not yours.`);
      if (ctx.store.list(WAF_RULE, zone.shieldZoneId).length >= zone.customWafRulesLimit) {
        return envelopeError(reply, PLAN_ERROR, `Your plan allows at most ${zone.customWafRulesLimit} custom WAF rules in this shield zone.`);
      }
      const rule: WafRuleRecord = {
        id: ctx.store.nextId(WAF_RULE, 12001),
        shieldZoneId: zone.shieldZoneId,
        userId: USER_ID,
        ruleName: body.ruleName,
        ruleDescription: body.ruleDescription ?? "",
        ruleConfiguration: normalized(body.ruleConfiguration),
      };
      ctx.store.put(WAF_RULE, rule.id, rule, zone.shieldZoneId);
      return answer(rule);
    });

    app.get("/shield/waf/custom-rule/:id", async (req, reply) => {
      const rule = findRule((req.params as { id: string }).id);
      return rule ? answer(rule) : notFound(reply);
    });

    app.get("/shield/waf/custom-rules/:shieldZoneId", async (req, reply) => {
      const zoneId = numericId((req.params as { shieldZoneId: string }).shieldZoneId);
      const zone = zoneId === undefined ? undefined : zoneOf(ctx, zoneId);
      if (!zone) return shieldError(reply, 404, "The shield zone was not found.", "shield_zone.not_found");
      const q = req.query as Record<string, string | undefined>;
      const page = intQuery(q.page, 1);
      const perPage = intQuery(q.perPage, 10);
      if (page === undefined || page < 1) return shieldError(reply, 400, "page must be a positive integer.", "validation_error");
      if (perPage === undefined || perPage < 1 || perPage > MAX_PER_PAGE) return shieldError(reply, 400, `perPage must be between 1 and ${MAX_PER_PAGE}.`, "validation_error");
      const rules = ctx.store.list<WafRuleRecord>(WAF_RULE, zone.shieldZoneId);
      const totalPages = Math.ceil(rules.length / perPage);
      return {
        data: rules.slice((page - 1) * perPage, page * perPage).map(answer),
        page: { totalCount: rules.length, totalPages, currentPage: page, nextPage: page < totalPages ? page + 1 : null, pageSize: perPage },
      };
    });

    for (const method of ["patch", "put"] as const) {
      app[method]("/shield/waf/custom-rule/:id", async (req, reply) => {
        const rule = findRule((req.params as { id: string }).id);
        if (!rule) return notFound(reply);
        const body = validate(ctx.strict, UpdateWafRuleBody, req.body, reply, "waf_rule.validation");
        if (!body) return reply;
        const updated: WafRuleRecord = { ...rule, ruleName: body.ruleName, ruleDescription: body.ruleDescription ?? "", ruleConfiguration: normalized(body.ruleConfiguration) };
        ctx.store.put(WAF_RULE, rule.id, updated, rule.shieldZoneId);
        return answer(updated);
      });
    }

    app.delete("/shield/waf/custom-rule/:id", async (req, reply) => {
      const rule = findRule((req.params as { id: string }).id);
      if (!rule) return notFound(reply);
      ctx.store.delete(WAF_RULE, rule.id);
      return { statusCode: 200, success: true, message: "The custom WAF rule was deleted.", errorKey: null };
    });
  },
};
