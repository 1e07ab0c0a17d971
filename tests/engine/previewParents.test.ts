import assert from "node:assert/strict";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";
import { PARENT_SETTINGS, PREVIEW_PARENTS_RESOURCES as RESOURCES } from "../support/previewParents";

const PROJECT = "engine-preview-parents";
const changed = (ops: Record<string, string>) => Object.entries(ops).filter(([, op]) => op !== "same");

/**
 * A preview of a parent's change plans one update, its children unchanged, through the real Pulumi CLI and engine
 * (issue 44, point 2). At preview the Node.js dynamic-provider host does not run Update (it sets no supportsPreview:
 * @pulumi/pulumi cmd/dynamic-provider/index.js, configure), so the engine hands back the checked inputs as outputs
 * (pulumi/pulumi v3.276.0 sdk/go/common/resource/plugin/provider_plugin.go:1713, Update with Preview) and every
 * computed output is unknown; the id is always carried (pkg/resource/deploy/step.go:1078, UpdateStep.Apply), and the
 * id outputs derived from it on the program side (provider/pulumi/base.ts) keep the children's inputs known. Before,
 * a pull zone's cacheExpirationTime alone previewed its Shield zone, hostname, edge rule and rate-limit rule as replaced.
 */
describe("engine: a parent's change previews one update, its children unchanged", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    stack = await EngineStack.start(emu, compiledProject("engine-preview-parents", PROJECT, "tests/engine/programs/previewParents.js"), stackConfigFor(emu.url, emu.fixtures.accessKey), ["bunnynet:apiKey"]);
    assert.deepEqual(await stack.up(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
  });
  after(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.dispose();
    await emu?.stop();
  });

  for (const [parent, key, value] of PARENT_SETTINGS) {
    it(`${parent} (${key}): preview plans one update and no replacement, and up does what it planned`, async () => {
      await stack.setConfig({ [`${PROJECT}:${key}`]: value });
      await emu.markRequests();
      assert.deepEqual(changed(await stack.preview()), [[parent, "update"]]);
      assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), [], "preview writes nothing");
      assert.deepEqual(changed(await stack.up()), [[parent, "update"]]);
    });
  }
});
