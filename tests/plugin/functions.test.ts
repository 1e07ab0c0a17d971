import assert from "node:assert/strict";
import { configureFunctions, invokeFunction } from "bunnynet-pulumi/dist/plugin/functions.js";
import { getAccessLists, getApiKeys } from "bunnynet-pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * The plugin's functions whose TypeScript lookups take something else than one object of arguments: called with
 * their schema's arguments as the engine sends them, they answer what the TypeScript lookup does for the same account
 * (getApiKeys read no account at all, getAccessLists took the object for the shield zone's id: both failed on every
 * call, as examples/reference/yaml showed). Every function also runs through the real CLI in
 * tests/engine/referenceExamples.test.ts.
 */
describe("plugin: functions whose TypeScript form takes no arguments object", () => {
  let emu: TestEmulator;
  const config: Record<string, string> = {};

  before(async () => {
    emu = await startEmulator();
    Object.assign(config, { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" });
    configureFunctions({ get: (key) => config[key] });
  });
  after(async () => {
    configureFunctions({ get: () => undefined });
    await emu?.stop();
  });

  it("getApiKeys takes no arguments and reads the configured account", async () => {
    const result = (await invokeFunction("bunnynet:index:getApiKeys", {})) as { keys: unknown[] };
    assert.ok(result.keys.length > 0);
    assert.deepEqual(result, JSON.parse(JSON.stringify(await getApiKeys({ client: emu.client() }))));
  });

  it("getAccessLists takes the shield zone's id by name", async () => {
    const shieldZoneId = Number((emu.fixtures as Record<string, unknown>).shieldZoneId);
    const result = await invokeFunction("bunnynet:index:getAccessLists", { shieldZoneId });
    assert.deepEqual(result, JSON.parse(JSON.stringify(await getAccessLists(shieldZoneId, { client: emu.client() }))));
  });
});
