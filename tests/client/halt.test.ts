import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * The process-wide halt of requests (provider/http/halt.ts), which the provider plugin sets once its engine is gone
 * (issue 42). A halt is never undone, so it runs in a child process of its own, against this process's emulator: the
 * halt's test answers "go" during the first call and a reason from then on.
 */
const CHILD = `
const { BunnyClient } = require("bunnynet-pulumi/dist/client/index.js");
const { haltRequestsWhen } = require("bunnynet-pulumi/dist/http/halt.js");
let reason;
let askedOnceHalted = 0;
haltRequestsWhen(() => (reason && askedOnceHalted++, reason));
const client = new BunnyClient({ apiUrl: process.argv[1], apiKey: process.argv[2], maxRetries: 3 });
const call = () => client.apiKeys.listPage().then(() => "answered", (e) => ({ name: e.name, message: e.message, notSent: e.notSent }));
(async () => {
  const outcomes = [await call()];
  reason = "the Pulumi engine it served is gone";
  outcomes.push(await call(), await call());
  console.log(JSON.stringify({ outcomes, askedOnceHalted, sent: client.http.stats.requests }));
})();`;

describe("transport: requests halted (the plugin's engine gone) are not sent", () => {
  let emu: TestEmulator;
  before(async () => (emu = await startEmulator()));
  after(() => emu.stop());

  it("from the moment the halt's test gives a reason, every request fails unsent, naming it, and none reaches the server", async () => {
    await emu.markRequests();
    // Asynchronously: the emulator answers from this process's event loop.
    const { stdout: output } = await promisify(execFile)(process.execPath, ["-e", CHILD, emu.url, emu.fixtures.accessKey], { cwd: join(__dirname, "..", "..", ".."), encoding: "utf8" });
    const { outcomes, askedOnceHalted, sent } = JSON.parse(output) as { outcomes: unknown[]; askedOnceHalted: number; sent: number };
    const halted = { name: "NetworkError", message: "GET /apikey not sent: the Pulumi engine it served is gone", notSent: true };
    assert.deepEqual(outcomes, ["answered", halted, halted]);
    // Once it gave a reason, the test is not asked again: the halt stays.
    assert.equal(askedOnceHalted, 1);
    // What the first call sent (its account JWT's exchange, then the listing) and nothing after.
    const received = (await emu.requests()).map((r) => `${r.method} ${r.route}`);
    assert.equal(received.at(-1), "GET /apikey");
    assert.equal(received.length, sent);
  });
});
