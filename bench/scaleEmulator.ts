import { parseArgs } from "node:util";
import { createEmulator } from "bunnynet-emulator/dist/server.js";
import { createPullZone } from "bunnynet-emulator/dist/surfaces/pullZones.js";
import type { EdgeScriptRecord } from "bunnynet-emulator/dist/surfaces/edgeScripts/records.js";

/**
 * The emulator with more parents than its fixtures, for the scale benchmark: `--parents K` pull zones, edge
 * scripts and shield zones (each shield zone allowing `--rules-per-zone` rules). Their ids are added to
 * `GET /_emulator/fixtures` as `scalePullZoneIds`, `scaleScriptIds`, `scaleShieldZoneIds` (comma-separated).
 * The emulator has no routes that create parents, so they are stored the way the surfaces seed theirs.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string", default: "0" }, parents: { type: "string", default: "4" }, "rules-per-zone": { type: "string", default: "100" } } });
  const parents = Number(values.parents);
  const rulesPerZone = Number(values["rules-per-zone"]);
  const emulator = createEmulator({ dataPath: ":memory:" });
  const { ctx } = emulator;
  const pullZoneIds: number[] = [];
  const scriptIds: number[] = [];
  const shieldZoneIds: number[] = [];
  for (let i = 0; i < parents; i++) {
    const zone = createPullZone(ctx, `scale-${i}`);
    pullZoneIds.push(zone.Id);
    const scriptId = ctx.store.nextId("edgescript", 3001);
    const script: EdgeScriptRecord = {
      Id: scriptId,
      Name: `scale-${i}`,
      LastModified: new Date().toISOString(),
      ScriptType: 1,
      CurrentReleaseId: 0,
      EdgeScriptVariables: [],
      Deleted: false,
      LinkedPullZones: [],
      DefaultHostname: `scale-${i}.b-cdn.net`,
      SystemHostname: `scale-${i}-${scriptId}.bunny.run`,
      DeploymentKey: `scale-${i}`,
      MonthlyCost: 0,
      MonthlyRequestCount: 0,
      MonthlyCpuTime: 0,
    };
    ctx.store.put("edgescript", scriptId, script);
    scriptIds.push(scriptId);
    const shieldZoneId = ctx.store.nextId("shieldZone", 3001);
    ctx.store.put("shieldZone", shieldZoneId, {
      shieldZoneId,
      pullZoneId: zone.Id,
      planType: 1,
      rateLimitRulesLimit: rulesPerZone,
      customWafRulesLimit: 10,
      wafEnabled: true,
      learningMode: false,
      provisioning: false,
    });
    shieldZoneIds.push(shieldZoneId);
  }
  ctx.store.setMeta("fixtures", { ...ctx.fixtures(), scalePullZoneIds: pullZoneIds.join(","), scaleScriptIds: scriptIds.join(","), scaleShieldZoneIds: shieldZoneIds.join(",") });
  const url = await emulator.listen(Number(values.port));
  process.stdout.write(`listening on ${url}\n`);
  process.on("SIGTERM", () => void emulator.close().then(() => process.exit(0)));
}

main().catch((e) => {
  process.stderr.write(`scale emulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
