import { setTimeout as sleep } from "node:timers/promises";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { NotFoundError, UnexpectedResponseError } from "../http/errors";
import { ANY_ANSWER, falseWhenGone, shieldAnswer } from "./shieldAnswers";
import { shieldPages } from "../http/paging";
import { idFromString } from "../schemas/common";
import {
  CreateRateLimitRequestSchema,
  GenericRequestResponseSchema,
  RateLimitListQuerySchema,
  RateLimitPageSchema,
  RateLimitRuleSchema,
  ShieldZoneSchema,
  UpdateRateLimitRequestSchema,
} from "../schemas/shield";
import type { CreateRateLimitInput, RateLimitListQuery, RateLimitPage, RateLimitRule, ShieldZone, UpdateRateLimitInput } from "../types.generated";


/** Pauses between the lookups that read back a rule the API accepted (202) but may not list yet. */
const READ_BACK_DELAYS_MS = [0, 250, 500, 1000, 2000, 4000];

/**
 * Shield rate-limit rules of a pull zone's shield zone.
 *
 * Shield answers some calls with 202 instead of the object, and may wrap any answer in `{data, error}`
 * (`shieldAnswer` reads every form, in one place):
 * - an envelope with an error (`{data: null, error: {errorKey, message}}`, 2xx, often 202) is that error, mapped by
 *   its key onto the error tree (errorForShieldKey): `not_found…` is NotFoundError, a plan or authorisation key
 *   ForbiddenError, a validation key ValidationError; never "accepted";
 * - a genuine accept (AcceptedResult, an empty body or `{data: null, error: null}`):
 *   - create: the rule is provisioned asynchronously. The client reads it back by name from the zone's rules
 *     (newest rule of that name), looking up to 6 times over about 8 s, so callers always get the rule;
 *   - GET of a rule deleted earlier: thrown as NotFoundError (status 202), like a 404;
 *   - update: the rule is read back by id.
 */
export class ShieldClient {
  constructor(private readonly http: Transport) {}

  /** The shield zone protecting a pull zone (its id and rule limits). NotFoundError when it has none (or it is not ready: 202). */
  async getShieldZoneByPullZone(pullZoneId: number | string): Promise<ShieldZone> {
    const path = encodePath("shield", "shield-zone", "get-by-pullzone", validateRequest(idFromString, pullZoneId, "GET", "/shield/shield-zone/get-by-pullzone", "pullZoneId"));
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER, cacheable: true });
    const answer = shieldAnswer("GET", path, res.status, res.body, ShieldZoneSchema);
    if (answer.kind === "value") return answer.value;
    throw new NotFoundError({ method: "GET", path, status: res.status, serverMessage: "the pull zone's shield zone is not ready (202 Accepted)" });
  }

  /**
   * Creates a rule. Never repeated blindly (RetryPolicy "create"): after a 5xx or timeout the rule may exist,
   * so callers look it up with findRateLimitByName before trying again. A 202 is read back (see the class);
   * a 202 carrying an error (plan limit, zone not found or not yours) is that error, at once.
   */
  async createRateLimit(input: CreateRateLimitInput): Promise<RateLimitRule> {
    const path = "/shield/rate-limit";
    const body = validateRequest(CreateRateLimitRequestSchema, input, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: ANY_ANSWER, retry: "create" });
    const answer = shieldAnswer("POST", path, res.status, res.body, RateLimitRuleSchema);
    if (answer.kind === "value") return answer.value;
    for (const delay of READ_BACK_DELAYS_MS) {
      await sleep(delay);
      // Polling for a change: every look-up reads the zone afresh.
      const rule = await this.findRateLimit(body.shieldZoneId, (r) => r.ruleName === body.ruleName, { fresh: true });
      if (rule) return rule;
    }
    throw new UnexpectedResponseError({
      method: "POST",
      path,
      status: 202,
      serverMessage: `the rule "${body.ruleName}" was accepted but is not listed in shield zone ${body.shieldZoneId} yet; look it up by name before creating it again`,
    });
  }

  /**
   * One rule. NotFoundError for an unknown id, and for one deleted earlier (which Shield answers with 202 and no
   * error). A 202 carrying an error is that error: a plan or authorisation failure is not "gone".
   */
  async getRateLimit(id: number | string): Promise<RateLimitRule> {
    const path = encodePath("shield", "rate-limit", this.ruleId(id, "GET"));
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER });
    const answer = shieldAnswer("GET", path, res.status, res.body, RateLimitRuleSchema);
    if (answer.kind === "value") return answer.value;
    throw new NotFoundError({ method: "GET", path, status: res.status, serverMessage: "the rule is gone (answered 202 Accepted)" });
  }

  /** One page of a zone's rules. `fresh`: never from the provider's read cache (for polling). */
  async listRateLimitsPage(shieldZoneId: number | string, query: RateLimitListQuery = {}, options: { fresh?: boolean } = {}): Promise<RateLimitPage> {
    const zoneId = validateRequest(idFromString, shieldZoneId, "GET", "/shield/rate-limits", "shieldZoneId");
    const path = encodePath("shield", "rate-limits", zoneId);
    const q = validateRequest(RateLimitListQuerySchema, query, "GET", path);
    const res = await this.http.request({ api: "core", method: "GET", path, query: q, responseSchema: ANY_ANSWER, cacheable: !options.fresh });
    const answer = shieldAnswer("GET", path, res.status, res.body, RateLimitPageSchema);
    if (answer.kind === "value") return answer.value;
    throw new UnexpectedResponseError({ method: "GET", path, status: res.status, serverMessage: "the list answered 202 Accepted without rules" });
  }

  /** Every rule of a zone, page by page. */
  async *listRateLimits(shieldZoneId: number | string, options: { perPage?: number; fresh?: boolean } = {}): AsyncGenerator<RateLimitRule> {
    yield* shieldPages("GET", "/shield/rate-limits/{shieldZoneId}", this.http.limits, (page) => this.listRateLimitsPage(shieldZoneId, { page, perPage: options.perPage }, { fresh: options.fresh }));
  }


  /** The zone's rule with exactly this name (the newest one if several share it), or undefined. */
  async findRateLimitByName(shieldZoneId: number | string, name: string): Promise<RateLimitRule | undefined> {
    return this.findRateLimit(shieldZoneId, (rule) => rule.ruleName === name);
  }

  /**
   * The zone's newest rule that `matches`, or undefined. Every look-up in a zone reads the same pages, so
   * concurrent ones share them (and the provider's read cache serves them within a deployment).
   */
  async findRateLimit(shieldZoneId: number | string, matches: (rule: RateLimitRule) => boolean, options: { fresh?: boolean } = {}): Promise<RateLimitRule | undefined> {
    let found: RateLimitRule | undefined;
    for (const rule of await this.findRateLimits(shieldZoneId, matches, options)) if (!found || rule.id > found.id) found = rule;
    return found;
  }

  /** Every rule of the zone that `matches` (the API takes two rules with one name). `fresh`: never from the read cache. */
  async findRateLimits(shieldZoneId: number | string, matches: (rule: RateLimitRule) => boolean, options: { fresh?: boolean } = {}): Promise<RateLimitRule[]> {
    const found: RateLimitRule[] = [];
    for await (const rule of this.listRateLimits(shieldZoneId, { perPage: 1000, fresh: options.fresh })) if (matches(rule)) found.push(rule);
    return found;
  }

  /** Replaces the rule's name, description and configuration (idempotent: the whole rule is sent, so retries are safe). */
  async updateRateLimit(id: number | string, input: UpdateRateLimitInput): Promise<RateLimitRule> {
    const path = encodePath("shield", "rate-limit", this.ruleId(id, "PATCH"));
    const body = validateRequest(UpdateRateLimitRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    const answer = shieldAnswer("PATCH", path, res.status, res.body, RateLimitRuleSchema);
    return answer.kind === "value" ? answer.value : this.getRateLimit(id);
  }

  /**
   * Deletes a rule. Returns false when it was already gone (404), which also covers a retry whose first attempt
   * deleted it but lost the answer.
   */
  async deleteRateLimit(id: number | string): Promise<boolean> {
    const path = encodePath("shield", "rate-limit", this.ruleId(id, "DELETE"));
    return falseWhenGone(async () => {
      const res = await this.http.request({ api: "core", method: "DELETE", path, responseSchema: ANY_ANSWER, retry: "idempotent" });
      shieldAnswer("DELETE", path, res.status, res.body, GenericRequestResponseSchema);
    });
  }


  private ruleId(id: number | string, method: string): number {
    return validateRequest(idFromString, id, method, "/shield/rate-limit", "id");
  }
}
