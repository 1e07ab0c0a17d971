import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { emulatorEnv, runTool } from "../support/cli";

describe("cli: bunnynet regions / endpoints", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("lists every region across pages, and filters by capacity and anycast", async () => {
    const all: { id: string; hasCapacity: boolean; anycast: boolean }[] = [];
    for await (const r of emu.client().containers.listRegions()) all.push({ id: r.id, hasCapacity: r.hasCapacity === true, anycast: r.hasAnycastSupport === true });
    const run = await runTool(["regions"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const ids = run.stdout.trim().split("\n").map((l) => JSON.parse(l).id);
    assert.deepEqual(ids, all.map((r) => r.id));
    assert.ok(ids.length > 20, "more than one page at the default limit");

    const filtered = await runTool(["regions", "--has-capacity", "--anycast"], emulatorEnv(emu));
    const got = filtered.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l).id);
    const want = all.filter((r) => r.hasCapacity && r.anycast).map((r) => r.id);
    assert.ok(want.length > 0 && want.length < all.length, "the fixtures have regions on both sides of the filter");
    assert.deepEqual(got, want);
  });

  it("lists an app's endpoints; an unknown app is an API error (exit 3); a missing argument is a usage error", async () => {
    const run = await runTool(["endpoints", String(emu.fixtures.appId), "--format", "csv"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n");
    assert.equal(lines[0], "id,name,type,publicHost,container,ports");
    assert.ok(lines.length > 2);
    const missing = await runTool(["endpoints", "no-such-app"], emulatorEnv(emu));
    assert.equal(missing.code, 3);
    // Said once: the error document's message, not again as its entry's (a 404 is ErrorDetails, without a type link).
    assert.match(missing.stderr, /^bunnynet endpoints: there is no container app no-such-app in this account \(GET \/apps\/no-such-app\/endpoints answered 404: ([^—\n]+) \[field appId\]\)\n$/);
    assert.equal(missing.stderr.split("not found").length, 2, missing.stderr);
    const usage = await runTool(["endpoints"], emulatorEnv(emu));
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /expected <appId>/);
  });

  it("an unknown option is named plainly, with balanced quotes", async () => {
    const run = await runTool(["regions", "--bogus"], emulatorEnv(emu));
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^bunnynet regions: unknown option --bogus: the options are listed below\n\nusage: bunnynet regions/);
    assert.doesNotMatch(run.stderr, /'-- "/);
  });
});
