import { type Transport, encodePath, validateRequest } from "../http/transport";
import { NotFoundError, UnexpectedResponseError } from "../http/errors";
import { PageGuard } from "../http/paging";
import { idFromString } from "../schemas/common";
import {
  type CreateRateLimitInput,
  CreateRateLimitRequestSchema,
  GenericRequestResponseSchema,
  RateLimitAnswerSchema,
  type RateLimitListQuery,
  RateLimitListQuerySchema,
  type RateLimitPage,
  RateLimitPageSchema,
  type RateLimitRule,
  type ShieldZone,
  ShieldZoneAnswerSchema,
  type UpdateRateLimitInput,
  UpdateRateLimitRequestSchema,
} from "../schemas/shield";

/** Pauses between the lookups that read back a rule the API accepted (202) but may not list yet. */
const READ_BACK_DELAYS_MS = [0, 250, 500, 1000, 2000, 4000];

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function isRule(body: unknown): body is RateLimitRule {
  return typeof body === "object" && body !== null && typeof (body as { id?: unknown }).id === "number";
}

/**
 * Shield rate-limit rules of a pull zone's shield zone.
 *
 * Shield answers some calls with 202 (AcceptedResult) instead of the object:
 * - create: the rule is accepted and provisioned asynchronously. The client then reads it back by name from the
 *   zone's rules (newest rule of that name), looking up to 6 times over about 8 s, so callers always get the rule;
 * - GET of a rule deleted earlier: thrown as NotFoundError (status 202), like a 404;
 * - update: the rule is read back by id.
 */
export class ShieldClient {
  constructor(private readonly http: Transport) {}

  /** The shield zone protecting a pull zone (its id and rule limits). NotFoundError when it has none (or it is not ready: 202). */
  async getShieldZoneByPullZone(pullZoneId: number | string): Promise<ShieldZone> {
    const path = encodePath("shield", "shield-zone", "get-by-pullzone", validateRequest(idFromString, pullZoneId, "GET", "/shield/shield-zone/get-by-pullzone", "pullZoneId"));
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ShieldZoneAnswerSchema });
    if (res.body && "data" in res.body) return res.body.data;
    throw new NotFoundError({ method: "GET", path, status: res.status, serverMessage: "the pull zone's shield zone is not ready (202 Accepted)" });
  }

  /**
   * Creates a rule. Never repeated blindly (RetryPolicy "create"): after a 5xx or timeout the rule may exist,
   * so callers look it up with findRateLimitByName before trying again. A 202 is read back (see the class).
   */
  async createRateLimit(input: CreateRateLimitInput): Promise<RateLimitRule> {
    const path = "/shield/rate-limit";
    const body = validateRequest(CreateRateLimitRequestSchema, input, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: RateLimitAnswerSchema, retry: "create" });
    if (res.status !== 202) return this.expectRule("POST", path, res.status, res.body);
    for (const delay of READ_BACK_DELAYS_MS) {
      await sleep(delay);
      const rule = await this.findRateLimitByName(body.shieldZoneId, body.ruleName);
      if (rule) return rule;
    }
    throw new UnexpectedResponseError({
      method: "POST",
      path,
      status: 202,
      serverMessage: `the rule "${body.ruleName}" was accepted but is not listed in shield zone ${body.shieldZoneId} yet; look it up by name before creating it again`,
    });
  }

  /** One rule. NotFoundError for an unknown id, and for one deleted earlier (which Shield answers with 202). */
  async getRateLimit(id: number | string): Promise<RateLimitRule> {
    const path = encodePath("shield", "rate-limit", this.ruleId(id, "GET"));
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: RateLimitAnswerSchema });
    if (res.status === 202) throw new NotFoundError({ method: "GET", path, status: 202, serverMessage: "the rule is gone (answered 202 Accepted)" });
    return this.expectRule("GET", path, res.status, res.body);
  }

  /** One page of a zone's rules. */
  async listRateLimitsPage(shieldZoneId: number | string, query: RateLimitListQuery = {}): Promise<RateLimitPage> {
    const zoneId = validateRequest(idFromString, shieldZoneId, "GET", "/shield/rate-limits", "shieldZoneId");
    const path = encodePath("shield", "rate-limits", zoneId);
    const q = validateRequest(RateLimitListQuerySchema, query, "GET", path);
    const res = await this.http.request({ api: "core", method: "GET", path, query: q, responseSchema: RateLimitPageSchema });
    return res.body;
  }

  /** Every rule of a zone, page by page. */
  async *listRateLimits(shieldZoneId: number | string, options: { perPage?: number } = {}): AsyncGenerator<RateLimitRule> {
    const guard = new PageGuard("GET", "/shield/rate-limits/{shieldZoneId}", this.http.limits);
    for (let page = 1; ; page++) {
      const res = await this.listRateLimitsPage(shieldZoneId, { page, perPage: options.perPage });
      guard.page(res.data);
      yield* res.data;
      const hasNext = res.page.nextPage !== null && res.page.nextPage !== undefined && res.page.currentPage < res.page.totalPages;
      if (!hasNext || res.data.length === 0) return;
    }
  }

  /** The zone's rule with exactly this name (the newest one if several share it), or undefined. */
  async findRateLimitByName(shieldZoneId: number | string, name: string): Promise<RateLimitRule | undefined> {
    let found: RateLimitRule | undefined;
    for await (const rule of this.listRateLimits(shieldZoneId, { perPage: 1000 })) {
      if (rule.ruleName === name && (!found || rule.id > found.id)) found = rule;
    }
    return found;
  }

  /** Replaces the rule's name, description and configuration (idempotent: the whole rule is sent, so retries are safe). */
  async updateRateLimit(id: number | string, input: UpdateRateLimitInput): Promise<RateLimitRule> {
    const path = encodePath("shield", "rate-limit", this.ruleId(id, "PATCH"));
    const body = validateRequest(UpdateRateLimitRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: RateLimitAnswerSchema, retry: "idempotent" });
    if (res.status === 202) return this.getRateLimit(id);
    return this.expectRule("PATCH", path, res.status, res.body);
  }

  /**
   * Deletes a rule. Returns false when it was already gone (404), which also covers a retry whose first attempt
   * deleted it but lost the answer.
   */
  async deleteRateLimit(id: number | string): Promise<boolean> {
    const path = encodePath("shield", "rate-limit", this.ruleId(id, "DELETE"));
    try {
      await this.http.request({ api: "core", method: "DELETE", path, responseSchema: GenericRequestResponseSchema.nullish(), retry: "idempotent" });
      return true;
    } catch (e) {
      if (e instanceof NotFoundError) return false;
      throw e;
    }
  }

  private ruleId(id: number | string, method: string): number {
    return validateRequest(idFromString, id, method, "/shield/rate-limit", "id");
  }

  private expectRule(method: string, path: string, status: number, body: unknown): RateLimitRule {
    if (isRule(body)) return body;
    throw new UnexpectedResponseError({ method, path, status, serverMessage: "the answer is not a rate-limit rule" });
  }
}
