import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ForbiddenError, InvalidRequestError, NotFoundError, RateLimitedError, ServerError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import {
  type CreateRateLimitInput,
  RateLimitAction,
  RateLimitBlockTime,
  RateLimitCounterKey,
  RateLimitTimeframe,
  RuleOperator,
  RuleTransformation,
  RuleVariable,
} from "bunnynet-pulumi/dist/schemas/shield.js";

/** A complete, valid rule for the seeded shield zone; `name` keeps rules apart. */
function ruleInput(shieldZoneId: number, name: string): CreateRateLimitInput {
  return {
    shieldZoneId,
    ruleName: name,
    ruleDescription: "login page",
    ruleConfiguration: {
      actionType: RateLimitAction.Block,
      variableTypes: { [RuleVariable.REQUEST_URI]: "" },
      operatorType: RuleOperator.BEGINSWITH,
      value: "/wp-login.php",
      transformationTypes: [RuleTransformation.LOWERCASE, RuleTransformation.URLDECODE],
      requestCount: 5,
      counterKeyType: RateLimitCounterKey.IP,
      timeframe: RateLimitTimeframe.PerTenSeconds,
      blockTime: RateLimitBlockTime.ForOneHour,
    },
  };
}

/** A request sent raw (no client-side check) to see what the server itself answers. */
async function rawCreate(emu: TestEmulator, body: unknown, contentType = "application/json"): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${emu.url}/shield/rate-limit`, {
    method: "POST",
    headers: { AccessKey: emu.fixtures.accessKey, "content-type": contentType },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe("client: Shield rate-limit rules", () => {
  let emu: TestEmulator;
  let zoneId: number;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());
  before(() => {
    zoneId = Number(emu.fixtures.shieldZoneId);
  });
  // Every test starts with empty zones (cheaper than a full emulator reset).
  afterEach(async () => {
    await emu.clearFaults();
    const shield = emu.client().shield;
    for (const zone of [zoneId, Number(emu.fixtures.provisioningShieldZoneId)]) {
      const rules = [];
      for await (const rule of shield.listRateLimits(zone)) rules.push(rule);
      for (const rule of rules) await shield.deleteRateLimit(rule.id);
    }
  });

  const calls = async (method: string, route: string) => (await emu.requests()).filter((r) => r.method === method && r.route === route);

  describe("shield zones", () => {
    it("finds the shield zone of the seeded pull zone, with its rule limit", async () => {
      const zone = await emu.client().shield.getShieldZoneByPullZone(String(emu.fixtures.pullZoneId));
      assert.equal(zone.shieldZoneId, zoneId);
      assert.equal(zone.pullZoneId, emu.fixtures.pullZoneId);
      assert.equal(zone.rateLimitRulesLimit, emu.fixtures.shieldRateLimitRulesLimit);
    });

    it("a pull zone without a shield zone is NotFoundError", async () => {
      await assert.rejects(emu.client().shield.getShieldZoneByPullZone(Number(emu.fixtures.suspendedPullZoneId)), (e: unknown) => e instanceof NotFoundError && e.status === 404);
    });

    it("a wrong key is refused with 401", async () => {
      await assert.rejects(emu.client({ apiKey: "not-a-key" }).shield.getShieldZoneByPullZone(Number(emu.fixtures.pullZoneId)), UnauthorizedError);
    });
  });

  describe("create, read, list, update, delete", () => {
    it("creates a rule from enum names and numbers and reads it back unchanged", async () => {
      const shield = emu.client().shield;
      await emu.markRequests();
      const input = ruleInput(zoneId, "login limit");
      const created = await shield.createRateLimit({
        ...input,
        ruleConfiguration: {
          ...input.ruleConfiguration,
          timeframe: "PerOneMinute",
          severityType: "WARNING",
          chainedRuleConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ", value: "POST", isNegated: true }],
        },
      });
      assert.equal(created.shieldZoneId, zoneId);
      assert.equal(created.ruleName, "login limit");
      const c = created.ruleConfiguration!;
      assert.equal(c.actionType, 1);
      assert.equal(c.timeframe, 60);
      assert.equal(c.severityType, 1);
      assert.equal(c.blockTime, 3600);
      assert.deepEqual(c.transformationTypes, [8, 19]);
      assert.deepEqual(c.variableTypes, { REQUEST_URI: "" });
      assert.deepEqual(c.chainedRuleConditions, [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: 15, value: "POST", isNegated: true, isRegexVariable: false }]);
      assert.equal((await calls("POST", "/shield/rate-limit")).length, 1);

      const read = await shield.getRateLimit(created.id);
      assert.deepEqual(read, created);
    });

    it("lists a zone's rules page by page without repeating one", async () => {
      const shield = emu.client().shield;
      for (let i = 0; i < 7; i++) await shield.createRateLimit(ruleInput(zoneId, `rule ${i}`));
      const first = await shield.listRateLimitsPage(zoneId, { page: 1, perPage: 3 });
      assert.deepEqual(first.page, { totalCount: 7, totalPages: 3, currentPage: 1, nextPage: 2, pageSize: 3 });

      await emu.markRequests();
      const names: string[] = [];
      for await (const rule of shield.listRateLimits(zoneId, { perPage: 3 })) names.push(rule.ruleName ?? "");
      assert.deepEqual(names, [0, 1, 2, 3, 4, 5, 6].map((i) => `rule ${i}`));
      assert.equal((await calls("GET", "/shield/rate-limits/:shieldZoneId")).length, 3);
    });

    it("finds a rule by exact name, or nothing", async () => {
      const shield = emu.client().shield;
      await shield.createRateLimit(ruleInput(zoneId, "alpha"));
      const beta = await shield.createRateLimit(ruleInput(zoneId, "beta"));
      assert.equal((await shield.findRateLimitByName(zoneId, "beta"))?.id, beta.id);
      assert.equal(await shield.findRateLimitByName(zoneId, "bet"), undefined);
    });

    it("updates the whole rule with PATCH", async () => {
      const shield = emu.client().shield;
      const created = await shield.createRateLimit(ruleInput(zoneId, "before"));
      const base = ruleInput(zoneId, "after").ruleConfiguration;
      const updated = await shield.updateRateLimit(created.id, {
        ruleName: "after",
        ruleDescription: null,
        ruleConfiguration: { ...base, actionType: RateLimitAction.Challenge, requestCount: 50, counterKeyType: RateLimitCounterKey.JA4 },
      });
      assert.equal(updated.id, created.id);
      assert.equal(updated.ruleName, "after");
      assert.equal(updated.ruleConfiguration?.actionType, 3);
      assert.equal(updated.ruleConfiguration?.requestCount, 50);
      assert.equal(updated.ruleConfiguration?.counterKeyType, 6);
      assert.deepEqual(await shield.getRateLimit(created.id), updated);
    });

    it("deletes a rule; reading it afterwards (Shield answers 202) is NotFoundError, deleting it again reports it gone", async () => {
      const shield = emu.client().shield;
      const created = await shield.createRateLimit(ruleInput(zoneId, "short lived"));
      assert.equal(await shield.deleteRateLimit(created.id), true);
      await emu.markRequests();
      await assert.rejects(shield.getRateLimit(created.id), (e: unknown) => e instanceof NotFoundError && e.status === 202);
      assert.deepEqual((await calls("GET", "/shield/rate-limit/:id")).map((c) => c.status), [202]);
      assert.equal(await shield.deleteRateLimit(created.id), false);
      await assert.rejects(shield.getRateLimit(Number(emu.fixtures.deletedRateLimitId)), (e: unknown) => e instanceof NotFoundError && e.status === 202);
    });

    it("a rule that never existed is NotFoundError 404, for read, update and delete", async () => {
      const shield = emu.client().shield;
      await assert.rejects(shield.getRateLimit(123456), (e: unknown) => e instanceof NotFoundError && e.status === 404);
      await assert.rejects(shield.updateRateLimit(123456, { ruleName: "x", ruleConfiguration: ruleInput(zoneId, "x").ruleConfiguration }), NotFoundError);
      assert.equal(await shield.deleteRateLimit(123456), false);
    });

    it("a create Shield accepts with 202 still gives the rule, read back once it is listed", async () => {
      const provisioningZone = Number(emu.fixtures.provisioningShieldZoneId);
      const shield = emu.client().shield;
      await emu.markRequests();
      const rule = await shield.createRateLimit(ruleInput(provisioningZone, "accepted later"));
      assert.equal(rule.ruleName, "accepted later");
      assert.equal(rule.shieldZoneId, provisioningZone);
      assert.deepEqual((await calls("POST", "/shield/rate-limit")).map((c) => c.status), [202]);
      // The first listing does not show the rule yet (provisioning); the client looks again.
      assert.equal((await calls("GET", "/shield/rate-limits/:shieldZoneId")).length, 2);
      assert.deepEqual(await shield.getRateLimit(rule.id), rule);
    });
  });

  describe("validation", () => {
    const refusedBeforeSending = async (input: unknown, field: string, message: RegExp) => {
      await emu.markRequests();
      await assert.rejects(emu.client().shield.createRateLimit(input as CreateRateLimitInput), (e: unknown) => {
        assert.ok(e instanceof InvalidRequestError, String(e));
        assert.equal(e.field, field);
        assert.match(e.message, message);
        return true;
      });
      assert.equal((await emu.requests()).length, 0, "nothing was sent");
    };

    it("refuses unknown properties, at the top and inside the configuration, before sending", async () => {
      const input = ruleInput(zoneId, "x");
      await refusedBeforeSending({ ...input, enabled: true }, "enabled", /unknown property/);
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...input.ruleConfiguration, burst: 3 } }, "ruleConfiguration.burst", /unknown property/);
      await refusedBeforeSending(
        { ...input, ruleConfiguration: { ...input.ruleConfiguration, chainedRuleConditions: [{ variableTypes: { ARGS: "" }, operatorType: 0, severityType: 1 }] } },
        "ruleConfiguration.chainedRuleConditions.0.severityType",
        /unknown property/,
      );
    });

    it("refuses bad enums, ranges, variables and missing fields, naming the field", async () => {
      const input = ruleInput(zoneId, "x");
      const config = input.ruleConfiguration;
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...config, timeframe: 120 } }, "ruleConfiguration.timeframe", /PerOneMinute/);
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...config, blockTime: "ForEver" } }, "ruleConfiguration.blockTime", /must be one of/);
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...config, operatorType: 10 } }, "ruleConfiguration.operatorType", /must be one of/);
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...config, transformationTypes: [8, 99] } }, "ruleConfiguration.transformationTypes.1", /must be one of/);
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...config, requestCount: 0 } }, "ruleConfiguration.requestCount", /./);
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...config, variableTypes: {} } }, "ruleConfiguration.variableTypes", /at least one variable/);
      await refusedBeforeSending({ ...input, ruleConfiguration: { ...config, variableTypes: { REQUEST_PATH: "" } } }, "ruleConfiguration.variableTypes.REQUEST_PATH", /unknown property/);
      const { timeframe: _t, ...withoutTimeframe } = config;
      await refusedBeforeSending({ ...input, ruleConfiguration: withoutTimeframe }, "ruleConfiguration.timeframe", /./);
      await refusedBeforeSending({ ...input, ruleName: "  " }, "ruleName", /must not be empty/);
      await refusedBeforeSending({ ...input, shieldZoneId: -1 }, "shieldZoneId", /./);
    });

    it("the server refuses the same with Shield's shape, naming the field", async () => {
      const input = ruleInput(zoneId, "x");
      const wrong = [
        [{ ...input, enabled: true }, /enabled: Unrecognized key/],
        [{ ...input, ruleConfiguration: { ...input.ruleConfiguration, timeframe: 120 } }, /ruleConfiguration\.timeframe: must be one of/],
        [{ ...input, ruleConfiguration: { ...input.ruleConfiguration, requestCount: 0 } }, /ruleConfiguration\.requestCount/],
        [{ ...input, ruleConfiguration: { ...input.ruleConfiguration, actionType: "Block" } }, /ruleConfiguration\.actionType/],
        [{ shieldZoneId: zoneId, ruleName: "x" }, /ruleConfiguration/],
      ] as const;
      for (const [body, message] of wrong) {
        const res = await rawCreate(emu, body);
        assert.equal(res.status, 400);
        const error = (res.json as { error: { message: string; errorKey: string } }).error;
        assert.equal(error.errorKey, "rate_limit.validation");
        assert.match(error.message, message);
      }
      // Through the transport without the client's check, the answer is a typed ValidationError.
      await assert.rejects(
        emu.client().http.request({ api: "core", method: "POST", path: "/shield/rate-limit", json: { ...input, enabled: true } }),
        (e: unknown) => e instanceof ValidationError && e.errorKey === "rate_limit.validation" && /enabled/.test(e.message),
      );
    });

    it("the server takes text/json and application/*+json bodies too", async () => {
      assert.equal((await rawCreate(emu, ruleInput(zoneId, "text json"), "text/json")).status, 200);
      assert.equal((await rawCreate(emu, ruleInput(zoneId, "plus json"), "application/problem+json")).status, 200);
    });

    it("an unknown shield zone (Shield's 202 envelope, not_found_or_unauthorised_access) is NotFoundError at once, without polling", async () => {
      await emu.markRequests();
      await assert.rejects(emu.client().shield.createRateLimit(ruleInput(999999, "x")), (e: unknown) => {
        assert.ok(e instanceof NotFoundError, String(e));
        assert.equal(e.status, 202);
        assert.equal(e.errorKey, "not_found_or_unauthorised_access.shieldzone");
        return true;
      });
      assert.equal((await emu.requests()).length, 1, "no read-back polling after an error envelope");
    });

    it("a create past the plan's rule limit (202 envelope, plan_limit_restriction) is ForbiddenError naming the key, at once", async () => {
      const shield = emu.client().shield;
      const limit = Number(emu.fixtures.shieldRateLimitRulesLimit);
      for (let i = 0; i < limit; i++) await shield.createRateLimit(ruleInput(zoneId, `rule ${i}`));
      await emu.markRequests();
      await assert.rejects(shield.createRateLimit(ruleInput(zoneId, "one too many")), (e: unknown) => {
        assert.ok(e instanceof ForbiddenError && !(e instanceof InvalidRequestError), String(e));
        assert.equal(e.status, 202);
        assert.equal(e.errorKey, "plan_limit_restriction.rate_limit");
        assert.match(e.message, new RegExp(`at most ${limit}.*\\(plan_limit_restriction\\.rate_limit\\)`));
        return true;
      });
      assert.equal((await emu.requests()).length, 1, "the 202 is not read as accepted and polled");
    });

    it("reading a rule whose zone lost rate limiting (202 envelope) is ForbiddenError, not gone; update too", async () => {
      const shield = emu.client().shield;
      const id = Number(emu.fixtures.downgradedRateLimitId);
      const isPlanError = (e: unknown) => e instanceof ForbiddenError && !(e instanceof NotFoundError) && e.errorKey === "plan_limit_restriction.rate_limit";
      await assert.rejects(shield.getRateLimit(id), isPlanError);
      await assert.rejects(shield.updateRateLimit(id, { ruleName: "x", ruleConfiguration: ruleInput(zoneId, "x").ruleConfiguration }), isPlanError);
      await assert.rejects(shield.findRateLimitByName(Number(emu.fixtures.downgradedShieldZoneId), "kept-from-the-old-plan"), isPlanError);
    });
  });

  describe("retries", () => {
    // Seed 7: the injector's first two rolls are below 0.9 and the third above, so exactly two requests fail.
    const failTwice = (method: string, path: string, phase: "before" | "after" = "before") =>
      emu.faults({ rules: [{ method: method as "GET", path, errorRate: 0.9, errorStatus: 503, phase }], seed: 7 });

    it("GET is retried through 503s, and gives up after maxRetries", async () => {
      const created = await emu.client().shield.createRateLimit(ruleInput(zoneId, "r"));
      await failTwice("GET", "^/shield/rate-limit/\\d+$");
      await emu.markRequests();
      assert.equal((await emu.client().shield.getRateLimit(created.id)).id, created.id);
      assert.deepEqual((await calls("GET", "/shield/rate-limit/:id")).map((c) => c.status), [503, 503, 200]);

      await emu.faults({ rules: [{ path: "^/shield/rate-limit/\\d+$", errorRate: 1, errorStatus: 503 }] });
      await emu.markRequests();
      await assert.rejects(emu.client({ maxRetries: 2 }).shield.getRateLimit(created.id), (e: unknown) => e instanceof ServerError && e.attempts === 3);
      assert.equal((await calls("GET", "/shield/rate-limit/:id")).length, 3);
    });

    it("PATCH is retried through 503s (it sends the whole rule)", async () => {
      const created = await emu.client().shield.createRateLimit(ruleInput(zoneId, "r"));
      await failTwice("PATCH", "^/shield/rate-limit/\\d+$");
      await emu.markRequests();
      const updated = await emu.client().shield.updateRateLimit(created.id, { ruleName: "r2", ruleConfiguration: ruleInput(zoneId, "r2").ruleConfiguration });
      assert.equal(updated.ruleName, "r2");
      assert.deepEqual((await calls("PATCH", "/shield/rate-limit/:id")).map((c) => c.status), [503, 503, 200]);
    });

    it("DELETE is retried through 503s; one whose lost answer had deleted the rule reports it gone", async () => {
      const shield = emu.client().shield;
      const first = await shield.createRateLimit(ruleInput(zoneId, "a"));
      await failTwice("DELETE", "^/shield/rate-limit/\\d+$");
      await emu.markRequests();
      assert.equal(await shield.deleteRateLimit(first.id), true);
      assert.deepEqual((await calls("DELETE", "/shield/rate-limit/:id")).map((c) => c.status), [503, 503, 200]);

      const second = await shield.createRateLimit(ruleInput(zoneId, "b"));
      await failTwice("DELETE", "^/shield/rate-limit/\\d+$", "after");
      await emu.markRequests();
      assert.equal(await shield.deleteRateLimit(second.id), false);
      assert.deepEqual((await calls("DELETE", "/shield/rate-limit/:id")).map((c) => c.status), [503, 503, 404]);
      await assert.rejects(shield.getRateLimit(second.id), NotFoundError);
    });

    it("a create refused with 503 is not repeated, and creates nothing", async () => {
      await emu.faults({ rules: [{ method: "POST", path: "^/shield/rate-limit$", errorRate: 1, errorStatus: 503, phase: "before" }] });
      await emu.markRequests();
      const client = emu.client({ maxRetries: 5 });
      await assert.rejects(client.shield.createRateLimit(ruleInput(zoneId, "once")), (e: unknown) => e instanceof ServerError && e.attempts === 1);
      assert.equal((await calls("POST", "/shield/rate-limit")).length, 1);
      assert.equal(client.http.stats.retries, 0);
      await emu.clearFaults();
      assert.equal(await client.shield.findRateLimitByName(zoneId, "once"), undefined);
    });

    it("a create whose answer was lost (503 after acting) is not repeated; the rule is found by name", async () => {
      await emu.faults({ rules: [{ method: "POST", path: "^/shield/rate-limit$", errorRate: 1, errorStatus: 503, phase: "after" }] });
      await emu.markRequests();
      const client = emu.client();
      await assert.rejects(client.shield.createRateLimit(ruleInput(zoneId, "orphan")), ServerError);
      assert.equal((await calls("POST", "/shield/rate-limit")).length, 1);
      await emu.clearFaults();
      const found = await client.shield.findRateLimitByName(zoneId, "orphan");
      assert.equal(found?.ruleName, "orphan");
    });

    it("a create refused with 429 is repeated after Retry-After, and creates the rule once", async () => {
      await emu.faults({ rules: [{ method: "POST", path: "^/shield/rate-limit$", burst429: 2, retryAfterSeconds: 0 }] });
      await emu.markRequests();
      const client = emu.client();
      const rule = await client.shield.createRateLimit(ruleInput(zoneId, "after 429"));
      assert.deepEqual((await calls("POST", "/shield/rate-limit")).map((c) => c.status), [429, 429, 200]);
      const names: string[] = [];
      for await (const r of client.shield.listRateLimits(zoneId)) names.push(r.ruleName ?? "");
      assert.deepEqual(names, ["after 429"]);
      assert.equal(rule.ruleName, "after 429");

      await emu.faults({ rules: [{ method: "POST", path: "^/shield/rate-limit$", burst429: 5, retryAfterSeconds: 0 }] });
      await assert.rejects(emu.client({ maxRetries: 1 }).shield.createRateLimit(ruleInput(zoneId, "never")), (e: unknown) => e instanceof RateLimitedError && e.attempts === 2);
    });
  });
});
