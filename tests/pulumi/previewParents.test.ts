import assert from "node:assert/strict";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness } from "../support/programHarness";
import { ProviderHost } from "../support/providerHost";
import { PARENT_SETTINGS, PREVIEW_PARENTS_RESOURCES, previewParents } from "../support/previewParents";

const PROJECT = "kit-preview-parents";
const short = (urn: string) => urn.split("::").pop();

/**
 * The testing kit previews a parent's change as the engine does (tests/engine/previewParents.test.ts, issue 44 point
 * 2): one update, the children that take its id output unchanged. The kit's preview of an update answers the checked
 * inputs as outputs with the old id (emulator/testing/stepGenerator.ts, as provider_plugin.go and step.go do), so the
 * id outputs derived from the id (provider/pulumi/base.ts) stay known here too.
 */
describe("pulumi: a parent's change previews one update through the testing kit", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  let harness: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start({ project: PROJECT });
    harness = new ProgramHarness({ project: PROJECT, config: stackConfigFor(emu.url, emu.fixtures.accessKey), secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const run = await harness.up(previewParents);
    assert.deepEqual(run.steps.map((s) => `${short(s.urn)} ${s.op}`).sort(), PREVIEW_PARENTS_RESOURCES.map((name) => `${name} create`).sort());
  });
  after(async () => {
    await harness?.destroy().catch(() => undefined);
    await host?.stop();
    await emu?.stop();
  });

  const changed = (steps: { op: string; urn: string }[]) => steps.filter((s) => s.op !== "same").map((s) => `${short(s.urn)} ${s.op}`);
  for (const [parent, key, value] of PARENT_SETTINGS) {
    it(`${parent} (${key}): preview plans one update and no replacement, and up does what it planned`, async () => {
      harness.setConfig({ ...harness.stackConfig(), [`${PROJECT}:${key}`]: value });
      await emu.markRequests();
      assert.deepEqual(changed((await harness.preview(previewParents)).steps), [`${parent} update`]);
      assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), [], "preview writes nothing");
      assert.deepEqual(changed((await harness.up(previewParents)).steps), [`${parent} update`]);
    });
  }
});
