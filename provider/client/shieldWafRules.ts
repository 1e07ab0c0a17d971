import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { NotFoundError, UnexpectedResponseError } from "../http/errors";
import { shieldPages } from "../http/paging";
import { idFromString } from "../schemas/common";
import { CreateWafRuleRequestSchema, GenericRequestResponseSchema, RateLimitListQuerySchema, UpdateWafRuleRequestSchema, WafRulePageSchema, WafRuleSchema } from "../schemas/shield";
import type { CreateWafRuleInput, RateLimitListQuery, UpdateWafRuleInput, WafRule, WafRulePage } from "../types.generated";
import { ANY_ANSWER, falseWhenGone, shieldAnswer } from "./shieldAnswers";

/**
 * Custom WAF rules of a Shield zone.
 *
 * shield-api-v1.0.0.json: "Create Custom WAF Rule" (`POST /shield/waf/custom-rule`, CreateCustomWafRuleRequest →
 * 200 CustomWafRule or 202 AcceptedResult), "Get Custom WAF Rules" (`GET /shield/waf/custom-rules/{shieldZoneId}`,
 * paged GetCustomWafRulesResponse, perPage default 10), "Get Custom WAF Rule" (`GET /shield/waf/custom-rule/{id}`),
 * "Update Custom WAF Rule" (`PATCH` and `PUT /shield/waf/custom-rule/{id}`, UpdateCustomWafRuleRequest: the whole
 * rule; PATCH is used, as the Terraform provider does: internal/api/pullzone_waf_rule.go) and "Delete Custom WAF Rule"
 * (`DELETE …/{id}`, 200 GenericRequestResponse or 202). Answers are read by `shieldAnswer` (envelopes, errors in 2xx,
 * 202), as the rate-limit rules' are (client/shield.ts).
 */
export class ShieldWafRulesClient {
  constructor(private readonly http: Transport) {}

  /**
   * Creates a rule. Never repeated blindly (RetryPolicy "create"): after a 5xx or timeout the rule may exist, so
   * callers look it up by name first. A 202 without the rule is read back by name (the newest of that name).
   */
  async create(input: CreateWafRuleInput): Promise<WafRule> {
    const path = "/shield/waf/custom-rule";
    const body = validateRequest(CreateWafRuleRequestSchema, input, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: ANY_ANSWER, retry: "create" });
    const answer = shieldAnswer("POST", path, res.status, res.body, WafRuleSchema);
    if (answer.kind === "value") return answer.value;
    const rule = await this.find(body.shieldZoneId, (r) => r.ruleName === body.ruleName, { fresh: true });
    if (rule) return rule;
    throw new UnexpectedResponseError({
      method: "POST",
      path,
      status: res.status,
      serverMessage: `the WAF rule "${body.ruleName}" was accepted but is not listed in shield zone ${body.shieldZoneId} yet; look it up by name before creating it again`,
    });
  }

  /** One rule. NotFoundError for an unknown id, or a 202 without the rule (not there). */
  async get(id: number | string): Promise<WafRule> {
    const path = encodePath("shield", "waf", "custom-rule", this.ruleId(id, "GET"));
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER });
    const answer = shieldAnswer("GET", path, res.status, res.body, WafRuleSchema);
    if (answer.kind === "value") return answer.value;
    throw new NotFoundError({ method: "GET", path, status: res.status, serverMessage: "the WAF rule is gone (answered 202 Accepted)" });
  }

  /** One page of a zone's rules. `fresh`: never from the provider's read cache. */
  async listPage(shieldZoneId: number | string, query: RateLimitListQuery = {}, options: { fresh?: boolean } = {}): Promise<WafRulePage> {
    const zoneId = validateRequest(idFromString, shieldZoneId, "GET", "/shield/waf/custom-rules", "shieldZoneId");
    const path = encodePath("shield", "waf", "custom-rules", zoneId);
    const q = validateRequest(RateLimitListQuerySchema, query, "GET", path);
    const res = await this.http.request({ api: "core", method: "GET", path, query: q, responseSchema: ANY_ANSWER, cacheable: !options.fresh });
    const answer = shieldAnswer("GET", path, res.status, res.body, WafRulePageSchema);
    if (answer.kind === "value") return answer.value;
    throw new UnexpectedResponseError({ method: "GET", path, status: res.status, serverMessage: "the list answered 202 Accepted without rules" });
  }

  /** Every rule of a zone, page by page (bounded by the paging limits). */
  async *list(shieldZoneId: number | string, options: { perPage?: number; fresh?: boolean } = {}): AsyncGenerator<WafRule> {
    yield* shieldPages("GET", "/shield/waf/custom-rules/{shieldZoneId}", this.http.limits, (page) => this.listPage(shieldZoneId, { page, perPage: options.perPage }, { fresh: options.fresh }));
  }


  /** The zone's newest rule that `matches`, or undefined (one listing serves every look-up in the zone). */
  async find(shieldZoneId: number | string, matches: (rule: WafRule) => boolean, options: { fresh?: boolean } = {}): Promise<WafRule | undefined> {
    let found: WafRule | undefined;
    for await (const rule of this.list(shieldZoneId, { perPage: 1000, fresh: options.fresh })) if (matches(rule) && (!found || rule.id > found.id)) found = rule;
    return found;
  }

  /** Replaces the rule's name, description and configuration (the whole rule: retries are safe). */
  async update(id: number | string, input: UpdateWafRuleInput): Promise<WafRule> {
    const path = encodePath("shield", "waf", "custom-rule", this.ruleId(id, "PATCH"));
    const body = validateRequest(UpdateWafRuleRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    const answer = shieldAnswer("PATCH", path, res.status, res.body, WafRuleSchema);
    return answer.kind === "value" ? answer.value : this.get(id);
  }

  /** Deletes a rule. False when it was already gone (404), also after a retry whose first attempt deleted it. */
  async delete(id: number | string): Promise<boolean> {
    const path = encodePath("shield", "waf", "custom-rule", this.ruleId(id, "DELETE"));
    return falseWhenGone(async () => {
      const res = await this.http.request({ api: "core", method: "DELETE", path, responseSchema: ANY_ANSWER, retry: "idempotent" });
      shieldAnswer("DELETE", path, res.status, res.body, GenericRequestResponseSchema);
    });
  }


  private ruleId(id: number | string, method: string): number {
    return validateRequest(idFromString, id, method, "/shield/waf/custom-rule", "id");
  }
}
