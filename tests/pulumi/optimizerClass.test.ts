import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { OptimizerClass } from "bunnynet-pulumi/dist/resources/optimizerClass.js";
import { PullZone } from "bunnynet-pulumi/dist/resources/pullZone.js";

const CLASS = "pulumi-nodejs:dynamic/bunnynet:OptimizerClass";

/**
 * OptimizerClass through the SDK's real provider host (a plugin per command) against a fresh emulator: a class is
 * one entry of the zone's OptimizerClasses; a change rewrites it in place, a rename replaces it, refresh shows drift,
 * and a class (or zone) removed outside the program is already gone.
 */
describe("pulumi: a pull zone's optimizer classes (OptimizerClass)", function () {
  let emu: TestEmulator;
  let harness: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    harness = new ProgramHarness({
      project: "optimizer-classes",
      config: { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url },
      secretConfig: ["bunnynet:apiKey"],
      hostPerCommand: {},
    });
  });
  after(() => emu?.stop());

  const program = (name = "thumb", quality = 80) => () => {
    const cdn = new PullZone("cdn", { name: "optimizer-cdn", origin: { url: "https://origin.site.example" } });
    new OptimizerClass("thumb", { pullZoneId: cdn.pullZoneId, name, width: 320, height: 180, quality, cropGravity: "center", sharpen: true, aspectRatio: "16:9" });
  };
  const zoneId = () => Number(harness.resources().find((r) => r.name === "cdn")!.id);
  const classes = async () => (await emu.client().pullZones.getPullZone(zoneId())).OptimizerClasses;

  it("up adds the class to the zone with its properties as the API keeps them", async () => {
    const run = await harness.up(program());
    assert.deepEqual(run.steps.map((s) => s.op), ["create", "create"]);
    assert.deepEqual(await classes(), [{ Name: "thumb", Properties: { width: "320", height: "180", quality: "80", crop_gravity: "center", sharpen: "true", aspect_ratio: "16:9" } }]);
    assert.equal(harness.resource(CLASS, "thumb")!.id, `${zoneId()}/thumb`);
  });

  it("an unchanged up makes no call; a changed quality updates in place; refresh finds no drift", async () => {
    await emu.markRequests();
    const same = await harness.up(program());
    assert.ok(same.steps.every((s) => s.op === "same"));
    assert.deepEqual(await emu.requests(), []);
    const run = await harness.up(program("thumb", 60));
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => s.op), ["update"]);
    assert.equal((await classes())[0].Properties.quality, "60");
    const before = JSON.stringify(harness.resources());
    await harness.refresh();
    assert.equal(JSON.stringify(harness.resources()), before);
  });

  it("refresh shows a class changed outside the program; a rename replaces the class", async () => {
    await emu.client().pullZones.updatePullZone(zoneId(), { OptimizerClasses: [{ Name: "thumb", Properties: { width: "640" } }] });
    await harness.refresh();
    const outputs = harness.resource(CLASS, "thumb")!.outputs;
    assert.deepEqual([outputs.width, outputs.quality], [640, undefined]);
    const run = await harness.up(program("small", 60));
    assert.deepEqual(run.steps.filter((s) => s.op !== "same").map((s) => s.op), ["replace"]);
    assert.deepEqual((await classes()).map((c) => c.Name), ["small"]);
  });

  it("a class removed outside the program is already gone; destroy leaves nothing", async () => {
    await emu.client().pullZones.updatePullZone(zoneId(), { OptimizerClasses: [] });
    const id = zoneId();
    await harness.destroy();
    assert.equal(harness.resources().length, 0);
    const res = await fetch(`${emu.url}/pullzone/${id}`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(res.status, 404);
  });

  it("six classes of one zone created, changed and deleted in one up each are all kept (the zone's list is written whole)", async () => {
    const names = ["a", "b", "c", "d", "e", "f"];
    const many = (quality: number, kept = names) => () => {
      const cdn = new PullZone("cdn", { name: "optimizer-many", origin: { url: "https://origin.site.example" } });
      for (const name of kept) new OptimizerClass(name, { pullZoneId: cdn.pullZoneId, name, width: 100, quality });
    };
    await harness.up(many(80));
    assert.deepEqual((await classes()).map((c) => c.Name).sort(), names);
    await harness.up(many(70));
    assert.deepEqual((await classes()).map((c) => c.Properties.quality), names.map(() => "70"));
    await harness.up(many(70, ["a", "f"]));
    assert.deepEqual((await classes()).map((c) => c.Name).sort(), ["a", "f"]);
    await harness.destroy();
  });
});
