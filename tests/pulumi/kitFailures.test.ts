import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as bunnynet from "bunnynet-pulumi";
import { CommandFailedError, ProgramHarness, ProviderHost, startEmulator, type TestEmulator } from "bunnynet-emulator/testing";

/**
 * A deployment that fails, as a user's test or script meets it: `up()` rejects once with the kit's CommandFailedError
 * naming what was left unfinished, nothing escapes as an unhandled rejection, and a provider host that dies mid-`up`
 * fails the command at once with the state holding only what the provider confirmed.
 */
describe("testing kit: failed commands", function () {
  this.timeout(120_000);
  let emu: TestEmulator;
  let scriptId: number;

  before(async () => {
    emu = await startEmulator();
    scriptId = Number(emu.fixtures.scriptId);
  });
  after(() => emu?.stop());

  it("a failing up in a plain Node script is caught by the script's own try, with no unhandled rejection", () => {
    const script = `
      const { ProgramHarness, startEmulator } = require("bunnynet-emulator/testing");
      const bunnynet = require("bunnynet-pulumi");
      let unhandled = 0;
      process.on("unhandledRejection", () => unhandled++);
      (async () => {
        const emu = await startEmulator();
        const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"] });
        try {
          await stack.up(() => {
            const a = new bunnynet.ScriptVariable("a", { scriptId: 999999, name: "A" });
            new bunnynet.ScriptVariable("b", { scriptId: 999999, name: a.name.apply((n) => n + "_B") });
          });
          console.log("up resolved");
        } catch (e) {
          console.log("caught " + e.name + ": " + e.message.split("\\n")[0]);
        }
        await new Promise((r) => setTimeout(r, 200));
        console.log("unhandled rejections: " + unhandled);
        await emu.stop();
      })();
    `;
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", cwd: __dirname });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^caught CommandFailedError: up failed: .*404/m);
    assert.match(run.stdout, /^unhandled rejections: 0$/m);
  });

  it("a program that throws (at once, after a registration, or later) fails preview and up with no unhandled rejection (issue 37)", () => {
    const script = `
      const { ProgramHarness, startEmulator } = require("bunnynet-emulator/testing");
      const bunnynet = require("bunnynet-pulumi");
      const unhandled = [];
      process.on("unhandledRejection", (r) => unhandled.push(r));
      (async () => {
        const emu = await startEmulator();
        const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"] });
        const programs = {
          sync: () => { throw new Error("sync-boom"); },
          registered: () => { new bunnynet.DnsZone("zone", { domain: "throws.example" }); throw new Error("registered-boom"); },
          later: async () => { await new Promise((r) => setTimeout(r, 10)); throw new Error("later-boom"); },
        };
        for (const [label, program] of Object.entries(programs)) {
          for (const command of ["preview", "up"]) {
            try {
              await stack[command](program);
              console.log(label + " " + command + " resolved");
            } catch (e) {
              console.log(label + " " + command + " caught " + e.name + ": " + e.message.split("\\n")[0]);
            }
          }
        }
        await new Promise((r) => setTimeout(r, 200));
        console.log("unhandled rejections: " + unhandled.length);
        await emu.stop();
      })();
    `;
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", cwd: __dirname });
    assert.equal(run.status, 0, run.stderr);
    for (const label of ["sync", "registered", "later"]) {
      for (const command of ["preview", "up"]) assert.match(run.stdout, new RegExp(`^${label} ${command} caught CommandFailedError: ${command} failed: ${label}-boom$`, "m"));
    }
    assert.match(run.stdout, /^unhandled rejections: 0$/m);
  });

  it("a failing up in mocha rejects once, naming the failure and what was left unfinished", async () => {
    const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"] });
    const error = await stack
      .up(() => {
        new bunnynet.ScriptVariable("fine", { scriptId, name: "KIT_FINE" });
        new bunnynet.ScriptVariable("broken", { scriptId: 999999, name: "KIT_BROKEN" });
      })
      .then(
        () => assert.fail("up resolved"),
        (e: unknown) => e,
      );
    assert.ok(error instanceof CommandFailedError, String(error));
    assert.equal(error.command, "up");
    assert.match(error.message, /404/);
    assert.deepEqual(error.unfinished.map((urn) => urn.split("::").pop()), ["broken"]);
    assert.deepEqual(stack.resources().map((r) => r.name), ["fine"]);
    await stack.destroy();
  });

  it("killing the provider host during an up of 50 resources fails up at once; the state holds only what the emulator has", async () => {
    const host = await ProviderHost.start();
    const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], providerHost: host });
    await emu.markRequests();
    // The first add answers at once; the later ones are held, so the host is still creating when it is killed (on a
    // quiet machine all fifty could otherwise be done before the kill).
    await emu.faults({ rules: [{ method: "POST", path: "/variables/add$", latencyMs: 2_000, skip: 1 }] });
    const up = stack.up(() => {
      for (let i = 0; i < 50; i++) new bunnynet.ScriptVariable(`v${i}`, { scriptId, name: `KIT_KILLED_${i}` });
    });
    const outcome = up.then(
      () => assert.fail("up resolved"),
      (e: unknown) => e,
    );
    // Killed once the provider has started creating.
    while (!(await emu.requests()).some((r) => r.method === "POST")) await new Promise((r) => setTimeout(r, 5));
    process.kill(host.pid!, "SIGKILL");
    const error = await outcome;
    await emu.clearFaults();

    assert.ok(error instanceof CommandFailedError, String(error));
    assert.match(error.message, /the provider host was killed by SIGKILL before answering/);
    const stored = stack.resources();
    assert.ok(error.unfinished.length > 0 && stored.length < 50, `${stored.length} stored`);
    assert.equal(error.unfinished.length + stored.length, 50, "every resource is either confirmed or named unfinished");
    const onScript = new Set((await emu.client().edgeScripts.getScript(scriptId)).EdgeScriptVariables.map((v) => String(v.Id)));
    assert.deepEqual(stored.filter((r) => !onScript.has(r.id)), [], "nothing in the state that the emulator lacks");
    await host.stop();
  });

  it("a provider host that stops answering fails the command after answerTimeoutSeconds, naming the call", async () => {
    const host = await ProviderHost.start({ answerTimeoutSeconds: 2 });
    const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], providerHost: host });
    await emu.markRequests();
    // The first variable's add answers at once; the others are held, so the host still has creates to answer when it
    // is stopped (on a fast machine all five could otherwise be done before the stop).
    await emu.faults({ rules: [{ method: "POST", path: "/variables/add$", latencyMs: 3_000, skip: 1 }] });
    const outcome = stack
      .up(() => {
        for (let i = 0; i < 5; i++) new bunnynet.ScriptVariable(`frozen${i}`, { scriptId, name: `KIT_FROZEN_${i}` });
      })
      .then(
        () => assert.fail("up resolved"),
        (e: unknown) => e,
      );
    // On a loaded machine the host may already miss the 2 s at check, before any POST: then that is the failure seen.
    let settled = false;
    void outcome.then(
      () => (settled = true),
      () => (settled = true),
    );
    while (!settled && !(await emu.requests()).some((r) => r.method === "POST")) await new Promise((r) => setTimeout(r, 5));
    process.kill(host.pid!, "SIGSTOP");
    try {
      const error = await outcome;
      assert.ok(error instanceof CommandFailedError, String(error));
      assert.match(error.message, /(check|create): the provider host did not answer within 2 s/);
      assert.ok(error.unfinished.length > 0);
    } finally {
      await emu.clearFaults();
      process.kill(host.pid!, "SIGCONT");
      await host.stop();
    }
  });

  it("a bad answerTimeoutSeconds is refused before any host starts, naming the option", async () => {
    await assert.rejects(ProviderHost.start({ answerTimeoutSeconds: 0 }), /answerTimeoutSeconds must be a positive number of seconds \(got 0\)/);
  });
});
