import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { documentedGet } from "../support/documentedGet";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";

const PROJECT = "bunnynet-app";
const RESOURCES = ["front", "app", "zone", "app-record", "app-hostname", "videos", "tutorials", "clip"];

/**
 * examples/app (as tests/pulumi/appExample.test.ts runs it through the kit) through the real Pulumi CLI and engine:
 * up, an unchanged up that makes no call but its registry look-up, refresh without drift, a new image tag updating the
 * app in place, destroy leaving nothing. The engine behaviours relied on are cited in tests/support/engineCycle.ts.
 */
describe("engine: examples/app", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  const sessionSecret = `session-${randomBytes(12).toString("base64url")}`;

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    const config = {
      ...stackConfigFor(emu.url, emu.fixtures.accessKey),
      [`${PROJECT}:sessionSecret`]: sessionSecret,
      // The video the example ships, wherever the compiled program runs from (dist/tests/engine).
      [`${PROJECT}:mediaFolder`]: join(__dirname, "..", "..", "..", "examples", "app", "media"),
    };
    stack = await EngineStack.start(emu, compiledProject("engine-app", PROJECT, "examples/app/index.js"), config, ["bunnynet:apiKey", `${PROJECT}:sessionSecret`]);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  const mc = (path: string) => documentedGet(emu, `/mc${path}`);

  it("up deploys the app and its media", async () => {
    assert.deepEqual(await stack.up(), Object.fromEntries(RESOURCES.map((name) => [name, "create"])));
    const out = await stack.cli.outputs();
    assert.equal((await mc(`/apps/${out.appId}`))?.status, "active");
    assert.ok(!(await stack.exportText()).includes(sessionSecret), "the session secret in plain state");
  });

  it("an unchanged up makes no call but the registry look-up; refresh finds no drift; preview plans nothing", async () => {
    await stack.expectUnchangedUp(RESOURCES, ["GET /mc/registries"]);
    await stack.expectNoDrift(RESOURCES);
  });

  it("a new image tag is one in-place update of the app", async () => {
    await stack.setConfig({ [`${PROJECT}:imageTag`]: "1.28" });
    const ops = await stack.up();
    assert.deepEqual(Object.entries(ops).filter(([, op]) => op !== "same"), [["app", "update"]]);
  });

  it("destroy leaves nothing", async () => {
    const appId = String((await stack.cli.outputs()).appId);
    await stack.destroy();
    assert.deepEqual(await stack.resources(), []);
    assert.equal(await mc(`/apps/${appId}`), undefined);
  });
});
