import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { HostError, ProviderHost, secret } from "../support/providerHost";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, quickstartConfig } from "../support/quickstart";
import type { FaultConfigInput } from "bunnynet-emulator";
import { prng } from "bunnynet-emulator/dist/faults.js";
import type { RequestLogEntry } from "bunnynet-emulator/dist/requestLog.js";
import { quickstart } from "../../examples/quickstart/program";

const HOSTNAMES = ["api.quickstart.example", "www.quickstart.example"];
const RULE_NAME = "quickstart-login";
const VARIABLE_NAMES = ["QUICKSTART_API_BASE"];
const SECRET_NAMES = ["QUICKSTART_SIGNING_KEY"];
const short = (urn: string) => urn.split("::").pop();

/** Reads fail before the server acts; every other method (POST, PATCH, DELETE) fails after it acted. */
const failsBeforeActing = (method: string) => method === "GET";

/**
 * One in five API requests fails, with every kind of failure, after a 429 burst at the start of each step.
 * The seed is fixed; the order of concurrent requests is not, so runs differ only as far as it does.
 */
function faultsFor(seed: number): FaultConfigInput {
  const latencyMs = 10;
  return {
    seed,
    rules: [
      // Reads: refused before the server acts (503), or the connection dropped before any answer.
      { method: "GET", errorRate: 0.1, errorStatus: 503, dropRate: 0.1, phase: "before", burst429: 2, retryAfterSeconds: 1, latencyMs },
      // Creates and the other POSTs: the server acts, then its answer is lost (a 500 instead, or a dropped connection).
      { method: "POST", errorRate: 0.1, errorStatus: 500, dropRate: 0.1, phase: "after", burst429: 1, retryAfterSeconds: 1, latencyMs },
      // Updates and deletes: acted on, then the answer is lost.
      { errorRate: 0.1, errorStatus: 502, dropRate: 0.1, phase: "after", burst429: 1, retryAfterSeconds: 1, latencyMs },
    ],
  };
}

const FIGURES = ["requests", "faults", "rateLimited", "serverErrorsBefore", "serverErrorsAfter", "droppedBefore", "droppedAfter", "repeated"] as const;
type Figures = Record<(typeof FIGURES)[number], number>;

/** What the emulator's request log shows of one step: the provider's own retry counter is in another process. */
function figures(log: RequestLogEntry[]): Figures {
  const faulted = log.filter((e) => e.fault !== undefined);
  const count = (kind: "status" | "drop", before: boolean, status?: (s: number) => boolean) =>
    faulted.filter((e) => e.fault === kind && failsBeforeActing(e.method) === before && (status === undefined || status(e.status))).length;
  const serverError = (s: number) => s >= 500;
  return {
    requests: log.length,
    faults: faulted.length,
    rateLimited: faulted.filter((e) => e.status === 429).length,
    serverErrorsBefore: count("status", true, serverError),
    serverErrorsAfter: count("status", false, serverError),
    droppedBefore: count("drop", true),
    droppedAfter: count("drop", false),
    // Sent again as the same request (method and URL); the other faults were recovered by a look-up.
    repeated: faulted.filter((f) => log.some((e) => e.seq > f.seq && e.method === f.method && e.url === f.url)).length,
  };
}

function sum(all: Figures[]): Figures {
  return Object.fromEntries(FIGURES.map((k) => [k, all.reduce((n, f) => n + f[k], 0)])) as Figures;
}

const describeFigures = (f: Figures) =>
  `${f.requests} requests, ${f.faults} faults = ${Math.round((100 * f.faults) / Math.max(1, f.requests))}% (${f.rateLimited}×429, 5xx ${f.serverErrorsBefore} before/${f.serverErrorsAfter} after acting, ` +
  `dropped ${f.droppedBefore} before/${f.droppedAfter} after), ${f.repeated} repeated`;

/** Three full cycles, for more than one run's worth of faults; each cycle is a new stack. */
const CYCLES = [8100, 8200, 8300];

describe("reliability: the quickstart deployed, changed and destroyed with 20% of API requests failing", function () {
  this.timeout(90_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  const measured = new Map<string, Figures>();

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start({ project: QUICKSTART_PROJECT });
  });
  after(async () => {
    const steps = ["deploy", "change", "destroy"].map((step) => `${step} ${describeFigures(sum([...measured].filter(([k]) => k.endsWith(step)).map(([, f]) => f)))}`);
    console.log(`      faults over ${CYCLES.length} cycles — ${steps.join("; ")}; total ${describeFigures(sum([...measured.values()]))}`);
    await host?.stop();
    await emu?.stop();
  });

  /** Runs one step with faults injected, then clears them and records what the emulator saw. */
  async function underFaults<T>(step: string, seed: number, run: () => Promise<T>): Promise<T> {
    await emu.faults(faultsFor(seed));
    await emu.markRequests();
    try {
      return await run();
    } finally {
      await emu.clearFaults();
      measured.set(step, figures(await emu.requests()));
    }
  }

  const client = () => emu.client();
  const pullZoneId = () => Number(emu.fixtures.pullZoneId);
  const scriptId = () => Number(emu.fixtures.scriptId);
  const thumbnail = async () => (await client().stream.getVideo(Number(emu.fixtures.videoLibraryId), String(emu.fixtures.videoId))).thumbnailFileName;

  /** What the API holds of the quickstart's objects, read without faults. */
  async function inventory() {
    const hostnames = (await client().pullZones.getPullZone(pullZoneId())).Hostnames.filter((h) => HOSTNAMES.includes(h.Value));
    const shieldZoneId = (await client().shield.getShieldZoneByPullZone(pullZoneId())).shieldZoneId;
    const rules = [];
    for await (const rule of client().shield.listRateLimits(shieldZoneId)) if (rule.ruleName === RULE_NAME) rules.push(rule);
    const variables = (await client().edgeScripts.getScript(scriptId())).EdgeScriptVariables.filter((v) => VARIABLE_NAMES.includes(v.Name));
    const secrets = (await client().edgeScripts.listSecrets(scriptId())).filter((s) => SECRET_NAMES.includes(s.Name));
    return { hostnames, rules, variables, secrets };
  }

  for (const [cycle, seed] of CYCLES.entries()) {
    describe(`cycle ${cycle + 1} (fault seeds ${seed + 1}..${seed + 3})`, () => {
      let harness: ProgramHarness;
      let config: Record<string, string>;

      before(async () => {
        // Generous retries: at 20% failures, 11 attempts all failing is a one-in-50-million event.
        config = await quickstartConfig(emu, { "bunnynet:maxRetries": "10" });
        harness = new ProgramHarness({ project: QUICKSTART_PROJECT, config, secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
      });

      /** Exactly one object of each kind, and it is the one in the stack's state. */
      async function assertExactlyOneOfEach() {
        const { hostnames, rules, variables, secrets } = await inventory();
        const idOf = (name: string) => harness.resources().find((r) => r.name === name)?.id;
        assert.deepEqual(hostnames.map((h) => h.Value).sort(), HOSTNAMES, "one hostname of each name");
        assert.deepEqual(hostnames.map((h) => String(h.Id)).sort(), [idOf("api"), idOf("www")].sort(), "the stack's hostnames");
        assert.ok(hostnames.every((h) => h.HasCertificate), "each with its certificate");
        assert.deepEqual(rules.map((r) => String(r.id)), [idOf("login-limit")], "one rule, the stack's");
        assert.deepEqual(variables.map((v) => String(v.Id)), [idOf("api-base")], "one variable, the stack's");
        assert.deepEqual(secrets.map((s) => String(s.Id)), [idOf("signing-key")], "one secret, the stack's");
        return { rule: rules[0], variables };
      }

      it("deploys: every step succeeds, and no object is duplicated", async () => {
        const run = await underFaults(`${cycle}:deploy`, seed + 1, () => harness.up(quickstart));
        assert.deepEqual(run.steps.map((s) => s.op), Array(7).fill("create"));
        const { rule, variables } = await assertExactlyOneOfEach();
        assert.equal(rule.ruleConfiguration?.requestCount, 10);
        assert.equal(variables.find((v) => v.Name === "QUICKSTART_API_BASE")?.DefaultValue, "https://api.quickstart.example");
        assert.equal(await thumbnail(), "thumbnail_2.jpg");
        const volume = await client().containers.findVolume(String(emu.fixtures.appId), String(emu.fixtures.attachedVolumeId));
        assert.ok(!volume?.volumeInstances.some((i) => i.id === emu.fixtures.attachedInstanceId), "the instance is deleted");
        assert.equal(run.outputs.apiKeyCount, emu.fixtures.apiKeyCount, "the lookups answered too");
      });

      it("changes to the second edition in place: every step succeeds, nothing is replaced or duplicated", async () => {
        const ids = new Map(harness.resources().map((r) => [r.name, r.id]));
        harness.setConfig({ ...config, [`${QUICKSTART_PROJECT}:edition`]: "second" }, QUICKSTART_SECRET_CONFIG);
        const run = await underFaults(`${cycle}:change`, seed + 2, () => harness.up(quickstart));
        const byName = Object.fromEntries(run.steps.map((s) => [short(s.urn), s.op]));
        assert.deepEqual(byName, { www: "same", api: "update", "login-limit": "update", "api-base": "update", "signing-key": "same", poster: "update", "old-cache-instance": "same" });
        for (const r of harness.resources()) assert.equal(r.id, ids.get(r.name), `${r.name} kept its id`);
        const { rule, variables } = await assertExactlyOneOfEach();
        assert.equal(rule.ruleConfiguration?.requestCount, 5);
        assert.equal(variables.find((v) => v.Name === "QUICKSTART_API_BASE")?.DefaultValue, "https://api-v2.quickstart.example");
        assert.equal(await thumbnail(), "thumbnail_4.jpg");
      });

      it("destroys: every step succeeds, and nothing is left behind", async () => {
        await underFaults(`${cycle}:destroy`, seed + 3, () => harness.destroy());
        assert.equal(harness.resources().length, 0);
        assert.deepEqual(await inventory(), { hostnames: [], rules: [], variables: [], secrets: [] });
      });
    });
  }

  // A suite after the cycles: mocha runs a suite's own tests before its nested suites.
  describe("over all cycles", () => {
    it("every step had faults, and every kind of fault was injected", () => {
      assert.equal(measured.size, CYCLES.length * 3);
      for (const [step, f] of measured) assert.ok(f.faults > 0 && f.repeated > 0, `${step}: ${describeFigures(f)}`);
      const all = sum([...measured.values()]);
      for (const k of FIGURES) assert.ok(all[k] > 0, `${k}: ${describeFigures(all)}`);
    });
  });
});

describe("reliability: a create whose answer was lost is not sent again while the look-up cannot tell whether it happened", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  const TYPE = "RateLimitRule";
  const LOOKUP_FAILURE_RATE = 0.5;
  const configuration = { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/login", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForFiveMinutes" };

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start();
    // No retries: a look-up that fails once has failed.
    await host.configure({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "0" });
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  /**
   * A seed under which, for the one sequential create, the look-up before it succeeds (first roll) and the
   * look-up after the lost answer fails (third roll; the second is the POST's, which always fails).
   */
  function seedWhereTheSecondLookupFails(): number {
    for (let seed = 1; ; seed++) {
      const roll = prng(seed);
      const [beforeCreate, , afterCreate] = [roll(), roll(), roll()];
      if (beforeCreate >= LOOKUP_FAILURE_RATE && afterCreate < LOOKUP_FAILURE_RATE) return seed;
    }
  }

  it("the run fails saying so, with exactly one rule created; the next run adopts that rule", async () => {
    const shieldZoneId = Number(emu.fixtures.shieldZoneId);
    const news = { shieldZoneId, name: "lost-answer", configuration };
    const checked = await host.check(TYPE, {}, news);
    assert.deepEqual(checked.failures, []);
    await emu.faults({
      seed: seedWhereTheSecondLookupFails(),
      rules: [
        { path: "^/shield/rate-limit$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after" },
        { path: "^/shield/rate-limits/", method: "GET", errorRate: LOOKUP_FAILURE_RATE, errorStatus: 503 },
      ],
    });
    await emu.markRequests();
    try {
      await assert.rejects(host.create(TYPE, checked.inputs), (e: unknown) => e instanceof HostError && /answered 500/.test(e.message) && /look-up/.test(e.message));
    } finally {
      await emu.clearFaults();
    }
    const calls = (await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`);
    assert.deepEqual(calls, ["GET /shield/rate-limits/:shieldZoneId 200", "POST /shield/rate-limit 500", "GET /shield/rate-limits/:shieldZoneId 503"], "the create was sent once");
    const named = async () => {
      const ids: string[] = [];
      for await (const rule of emu.client().shield.listRateLimits(shieldZoneId)) if (rule.ruleName === news.name) ids.push(String(rule.id));
      return ids;
    };
    const [created] = await named();
    assert.ok(created, "the server did create the rule");
    const adopted = await host.create(TYPE, (await host.check(TYPE, {}, { ...news, adoptExisting: true })).inputs);
    assert.equal(adopted.id, created);
    assert.deepEqual(await named(), [created], "still exactly one rule");
  });
});
