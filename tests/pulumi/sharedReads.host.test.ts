import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProviderHost, secret } from "../support/providerHost";

/**
 * API calls of whole deployments through the SDK's provider host, counted with the emulator's request log:
 * a refresh of N children of K parents reads each parent once, a no-change deployment calls nothing, and reads
 * after the deployment's own writes (in the same plugin process) are never stale.
 */
describe("pulumi: API calls per deployment (shared reads through the provider host)", function () {
  let emu: TestEmulator;
  let host: ProviderHost;

  interface Deployed {
    type: string;
    name: string;
    id: string;
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
  }
  let deployed: Deployed[] = [];

  const config = () => ({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url });
  const routes = async () => (await emu.requests()).map((r) => `${r.method} ${r.route}`).sort();

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start();
    await host.configure(config());
    const zones = [Number(emu.fixtures.pullZoneId), Number(emu.fixtures.loggingDisabledPullZoneId)];
    const scripts = [Number(emu.fixtures.emptyScriptId), Number(emu.fixtures.otherEmptyScriptId)];
    const shieldZoneId = Number(emu.fixtures.shieldZoneId);
    const programs = [
      ...Array.from({ length: 12 }, (_, i) => ({ type: "PullZoneHostname", name: `h${i}`, props: { pullZoneId: zones[i % 2], hostname: `h${i}.shared-host.example` } })),
      ...Array.from({ length: 12 }, (_, i) => ({ type: "ScriptVariable", name: `v${i}`, props: { scriptId: scripts[i % 2], name: `SHARED_HOST_${i}`, defaultValue: "one" } })),
      ...Array.from({ length: 6 }, (_, i) => ({
        type: "RateLimitRule",
        name: `r${i}`,
        props: { shieldZoneId, name: `shared host ${i}`, configuration: { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: `/r${i}`, requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForOneMinute" } },
      })),
    ];
    // The engine sends Check, then Create, for every new resource, several at once.
    deployed = await Promise.all(
      programs.map(async ({ type, name, props }) => {
        const checked = await host.check(type, {}, props, name);
        const created = await host.create(type, checked.inputs, name);
        return { type, name, id: created.id, inputs: checked.inputs, outputs: created.outputs };
      }),
    );
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  it("a refresh of 30 resources reads each of their 5 parents once", async () => {
    host = await host.nextDeployment(config());
    await emu.markRequests();
    const reads = await Promise.all(deployed.map((r) => host.read(r.type, r.id, r.outputs, r.inputs, r.name)));
    assert.deepEqual(
      reads.map((r) => r.id),
      deployed.map((r) => r.id),
    );
    assert.deepEqual(await routes(), ["GET /compute/script/:id", "GET /compute/script/:id", "GET /pullzone/:id", "GET /pullzone/:id", "GET /shield/rate-limits/:shieldZoneId"]);
  });

  it("a deployment without changes calls nothing (Check and Diff for every resource)", async () => {
    host = await host.nextDeployment(config());
    await emu.markRequests();
    await Promise.all(
      deployed.map(async (r) => {
        const checked = await host.check(r.type, r.inputs, r.inputs, r.name);
        const diff = await host.diff(r.type, r.id, r.outputs, checked.inputs, r.inputs, r.name);
        assert.equal(diff.changes, "none");
      }),
    );
    assert.deepEqual(await routes(), []);
  });

  it("after deleting half in the same plugin process, a refresh sees exactly what is left", async () => {
    host = await host.nextDeployment(config());
    // Every parent cached first, as a refresh at the start of `pulumi up --refresh` would.
    await Promise.all(deployed.map((r) => host.read(r.type, r.id, r.outputs, r.inputs, r.name)));
    const gone = deployed.filter((_, i) => i % 2 === 0);
    await emu.markRequests();
    await Promise.all(gone.map((r) => host.delete(r.type, r.id, r.outputs, r.inputs, r.name)));
    assert.deepEqual((await emu.requests()).map((r) => r.method), gone.map(() => "DELETE"), "one call per delete, no read first");
    const reads = await Promise.all(deployed.map((r) => host.read(r.type, r.id, r.outputs, r.inputs, r.name)));
    assert.deepEqual(
      reads.map((r) => r.id),
      deployed.map((r, i) => (i % 2 === 0 ? "" : r.id)),
    );
  });
});
