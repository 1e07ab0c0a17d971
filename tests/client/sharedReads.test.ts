import assert from "node:assert/strict";
import { request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { UnauthorizedError } from "bunnynet-pulumi/dist/http/errors.js";
import { beginDeployment } from "bunnynet-pulumi/dist/http/sharedReads.js";
import { PullZoneSchema } from "bunnynet-pulumi/dist/schemas/pullZones.js";
import type { FaultConfigInput } from "bunnynet-emulator";

/**
 * Coalescing and the deployment-scoped read cache (provider/http/sharedReads.ts), against the emulator over real
 * HTTP. Requests are counted with the emulator's request log; the truth a cached read is compared with is read
 * with plain undici, outside the package's HTTP layer.
 */
describe("client: shared reads (coalescing and the deployment's read cache)", function () {
  let emu: TestEmulator;
  let zoneId: number;
  let scriptId: number;
  let shieldZoneId: number;
  let counter = 0;
  const unique = (prefix: string) => `${prefix}${++counter}`;

  before(async () => {
    emu = await startEmulator();
    zoneId = Number(emu.fixtures.pullZoneId);
    scriptId = Number(emu.fixtures.emptyScriptId);
    shieldZoneId = Number(emu.fixtures.shieldZoneId);
  });
  after(() => emu.stop());
  beforeEach(() => beginDeployment());
  afterEach(async () => {
    beginDeployment();
    await emu.clearFaults();
  });

  /** The provider's client: parent reads cached. Many retries: the fault runs must not fail for want of them. */
  const cachedClient = () => new BunnyClient({ ...emu.settings({ maxRetries: 12 }), readCache: true });
  const gets = async (route: string) => (await emu.requests()).filter((r) => r.method === "GET" && r.route === route);

  /** The object as the emulator has it now, read past the package (and past injected faults, by asking again). */
  async function truth(path: string): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      const res = await request(`${emu.url}${path}`, { headers: { accesskey: emu.fixtures.accessKey } }).catch(() => undefined);
      const text = res ? await res.body.text().catch(() => "") : "";
      if (res?.statusCode === 200) return JSON.parse(text) as Record<string, unknown>;
      if (attempt >= 50) throw new Error(`GET ${path} answered ${res?.statusCode ?? "nothing"}`);
    }
  }

  describe("coalescing", () => {
    it("concurrent identical GETs share one request and one answer, each caller getting its own copy", async () => {
      await emu.faults({ rules: [{ path: "^/pullzone/\\d+$", method: "GET", latencyMs: 150 }] });
      const client = emu.client();
      await emu.markRequests();
      const zones = await Promise.all(Array.from({ length: 10 }, () => client.pullZones.getPullZone(zoneId)));
      assert.equal((await gets("/pullzone/:id")).length, 1);
      for (const zone of zones) assert.deepEqual(zone, zones[0]);
      zones[0].Hostnames.length = 0;
      assert.notEqual(zones[1].Hostnames.length, 0, "answers are not one shared object");
    });

    it("is per credential: a wrong key never gets the answer the right key's request is waiting for", async () => {
      await emu.faults({ rules: [{ path: "^/pullzone/\\d+$", method: "GET", latencyMs: 150 }] });
      await emu.markRequests();
      const [right, wrong] = await Promise.allSettled([emu.client().pullZones.getPullZone(zoneId), emu.client({ apiKey: "not-the-key" }).pullZones.getPullZone(zoneId)]);
      assert.equal(right.status, "fulfilled");
      assert.ok(wrong.status === "rejected" && wrong.reason instanceof UnauthorizedError);
      assert.deepEqual((await gets("/pullzone/:id")).map((r) => r.status).sort(), [200, 401]);
    });

    it("a GET marked as changing state is never shared, and invalidates cached reads like a write", async () => {
      await emu.faults({ rules: [{ path: "^/pullzone/\\d+$", method: "GET", latencyMs: 100 }] });
      const client = cachedClient();
      await client.pullZones.getPullZone(zoneId);
      await emu.markRequests();
      const mutating = () => client.http.request({ api: "core", method: "GET", path: `/pullzone/${zoneId}`, responseSchema: PullZoneSchema, mutates: true });
      await Promise.all([mutating(), mutating()]);
      assert.equal((await gets("/pullzone/:id")).length, 2, "two requests, not one shared");
      await client.pullZones.getPullZone(zoneId);
      assert.equal((await gets("/pullzone/:id")).length, 3, "the cached zone was dropped");
    });

    it("a read sent before our write finished is not joined by a read that starts after it", async () => {
      await emu.faults({ rules: [{ path: "^/pullzone/\\d+$", method: "GET", latencyMs: 300 }] });
      const client = emu.client();
      const hostname = `${unique("join")}.shared-reads.example`;
      await emu.markRequests();
      const early = client.pullZones.getPullZone(zoneId);
      await client.pullZones.addHostname(zoneId, hostname);
      const late = await client.pullZones.findHostname(zoneId, hostname);
      assert.ok(late, "the read that started after the add sees the hostname");
      await early;
      assert.equal((await gets("/pullzone/:id")).length, 2);
    });
  });

  describe("the deployment's read cache", () => {
    it("serves a parent from one fetch within a deployment; a new deployment reads it again", async () => {
      const client = cachedClient();
      await emu.markRequests();
      for (let i = 0; i < 3; i++) await client.edgeScripts.getScript(scriptId);
      assert.equal((await gets("/compute/script/:id")).length, 1);
      beginDeployment();
      await client.edgeScripts.getScript(scriptId);
      assert.equal((await gets("/compute/script/:id")).length, 2);
    });

    it("keeps only 200 answers: a 202 (accepted, still in progress) is read again", async () => {
      const client = cachedClient();
      const path = `/shield/rate-limit/${emu.fixtures.deletedRateLimitId}`;
      await emu.markRequests();
      for (let i = 0; i < 2; i++) assert.equal((await client.http.request({ api: "core", method: "GET", path, cacheable: true })).status, 202);
      assert.equal((await gets("/shield/rate-limit/:id")).length, 2);
    });

    it("is off unless asked for (the command-line tool and lookups always read afresh)", async () => {
      const client = emu.client();
      await emu.markRequests();
      for (let i = 0; i < 2; i++) await client.edgeScripts.getScript(scriptId);
      assert.equal((await gets("/compute/script/:id")).length, 2);
    });

    it("a write to one surface leaves the cached parents of another surface alone", async () => {
      const client = cachedClient();
      await client.pullZones.getPullZone(zoneId);
      await client.edgeScripts.getScript(scriptId);
      await emu.markRequests();
      await client.pullZones.addHostname(zoneId, `${unique("surface")}.shared-reads.example`);
      await client.edgeScripts.getScript(scriptId);
      await client.pullZones.getPullZone(zoneId);
      assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["POST /pullzone/:id/addHostname", "GET /pullzone/:id"]);
    });

    it("a write that failed after the server acted still drops the cached parent", async () => {
      const client = new BunnyClient({ ...emu.settings({ maxRetries: 1 }), readCache: true });
      const hostname = `${unique("lost")}.shared-reads.example`;
      await client.pullZones.getPullZone(zoneId);
      await emu.faults({ rules: [{ path: "/addHostname$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after" }] });
      await assert.rejects(client.pullZones.addHostname(zoneId, hostname), /answered 500/);
      assert.ok(await client.pullZones.findHostname(zoneId, hostname), "the add happened, and the next read shows it");

      const name = unique("LOST_");
      const variable = await client.edgeScripts.addVariable(scriptId, { Name: name, Required: false, DefaultValue: "before" });
      await client.edgeScripts.getScript(scriptId);
      await emu.faults({ rules: [{ path: "/variables/\\d+$", method: "POST", dropRate: 1, phase: "after" }] });
      await assert.rejects(client.edgeScripts.updateVariable(scriptId, variable.Id, { DefaultValue: "after" }));
      assert.equal((await client.edgeScripts.findVariableByName(scriptId, name))?.DefaultValue, "after");
    });

    /**
     * Workers share one zone, one script and one shield zone; each creates its own child, changes it, deletes it,
     * and after every write (succeeded or failed) reads the parent through the cached client and compares its own
     * child with the truth. Only the worker touches its child, so the truth cannot move between the two reads.
     */
    async function workload(workers: number): Promise<number> {
      const client = cachedClient();
      let compared = 0;
      const settle = (p: Promise<unknown>) => p.then(() => undefined, () => undefined);

      const hostnameWorker = async (i: number) => {
        const hostname = `${unique(`w${i}-`)}.shared-reads.example`;
        const check = async () => {
          const seen = await client.pullZones.findHostname(zoneId, hostname);
          const real = ((await truth(`/pullzone/${zoneId}`)).Hostnames as { Value: string; Id: number }[]).find((h) => h.Value === hostname);
          assert.deepEqual(seen?.Id, real?.Id, `hostname ${hostname}: the cached read matches the API`);
          compared++;
        };
        await settle(client.pullZones.addHostname(zoneId, hostname));
        await check();
        await settle(client.pullZones.removeHostname(zoneId, hostname));
        await check();
      };

      const variableWorker = async (i: number) => {
        const name = unique(`SHARED_${i}_`);
        const realVariable = async () => ((await truth(`/compute/script/${scriptId}`)).EdgeScriptVariables as { Id: number; Name: string; DefaultValue: string | null }[]).find((v) => v.Name === name);
        const check = async () => {
          const seen = await client.edgeScripts.findVariableByName(scriptId, name);
          const real = await realVariable();
          assert.deepEqual(seen && { Id: seen.Id, DefaultValue: seen.DefaultValue }, real && { Id: real.Id, DefaultValue: real.DefaultValue }, `variable ${name}`);
          compared++;
        };
        await settle(client.edgeScripts.addVariable(scriptId, { Name: name, Required: false, DefaultValue: "first" }));
        await check();
        const id = (await realVariable())?.Id;
        if (id === undefined) return;
        await settle(client.edgeScripts.updateVariable(scriptId, id, { DefaultValue: "second" }));
        await check();
        await settle(client.edgeScripts.deleteVariable(scriptId, id));
        await check();
      };

      const ruleWorker = async (i: number) => {
        const name = unique(`shared rule ${i} `);
        const configuration = (requestCount: number) => ({ variableTypes: { REQUEST_URI: "" }, operatorType: 0, value: `/w${i}`, requestCount, timeframe: 60, blockTime: 300 });
        const realRule = async () => ((await truth(`/shield/rate-limits/${shieldZoneId}?page=1&perPage=1000`)).data as { id: number; ruleName: string; ruleConfiguration: { requestCount: number } }[]).find((r) => r.ruleName === name);
        const check = async () => {
          const seen = await client.shield.findRateLimitByName(shieldZoneId, name);
          const real = await realRule();
          assert.deepEqual(seen && [seen.id, seen.ruleConfiguration?.requestCount], real && [real.id, real.ruleConfiguration.requestCount], `rule ${name}`);
          compared++;
        };
        await settle(client.shield.createRateLimit({ shieldZoneId, ruleName: name, ruleDescription: "", ruleConfiguration: configuration(10) }));
        await check();
        const id = (await realRule())?.id;
        if (id === undefined) return;
        await settle(client.shield.updateRateLimit(id, { ruleName: name, ruleDescription: "", ruleConfiguration: configuration(20) }));
        await check();
        await settle(client.shield.deleteRateLimit(id));
        await check();
      };

      // The main shield zone holds 10 rules: at most that many rule workers at once.
      const ruleWorkers = Math.min(workers, 8);
      await Promise.all([
        ...Array.from({ length: workers }, (_, i) => hostnameWorker(i)),
        ...Array.from({ length: workers }, (_, i) => variableWorker(i)),
        ...Array.from({ length: ruleWorkers }, (_, i) => ruleWorker(i)),
      ]);
      return compared;
    }

    it("never serves a parent older than our own last write to it: create, update, delete under concurrency", async () => {
      // Reads slower than writes, so reads are in flight while writes finish.
      await emu.faults({ rules: [{ method: "GET", latencyMs: 25 }, { latencyMs: 5 }] });
      const compared = await workload(12);
      assert.ok(compared >= 12 * 2 + 12 * 3 + 8 * 3, `every step compared (${compared})`);
    });

    it("never serves a parent older than our own last write to it, with writes failing before and after the server acted", async () => {
      const faults: FaultConfigInput = {
        seed: 12,
        rules: [
          { method: "POST", errorRate: 0.3, errorStatus: 500, phase: "after", latencyMs: 5 },
          { method: "DELETE", errorRate: 0.2, dropRate: 0.1, errorStatus: 502, phase: "after", latencyMs: 5 },
          { method: "PATCH", errorRate: 0.3, errorStatus: 503, phase: "before", latencyMs: 5 },
          { method: "GET", errorRate: 0.15, dropRate: 0.05, errorStatus: 503, latencyMs: 25 },
        ],
      };
      await emu.faults(faults);
      await emu.markRequests();
      const compared = await workload(10);
      assert.ok(compared >= 10 * 2 + 10 + 8, `every step compared (${compared})`);
      assert.ok((await emu.requests()).some((r) => r.fault !== undefined && r.method === "POST"), "writes did fail");
    });
  });
});
