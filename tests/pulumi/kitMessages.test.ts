import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import { STORAGE_API_PATH } from "bunnynet-emulator/dist/testing/stackConfig.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { type HarnessOptions, ProgramHarness } from "../support/programHarness";

/**
 * The testing kit keeps what the provider and the program log for the engine (pulumi.log: a StorageFolder's
 * progress, the program's own warning) in the command's result, `messages` of preview and up and the harness's
 * `messages()` after any command, and prints nothing into the test's output unless `printMessages` asks, whether
 * the provider runs in this process or in a provider host per command (emulator/testing/engineLog.ts).
 */
describe("kit: engine messages are kept in the command's result, not printed", function () {
  let emu: TestEmulator;
  let dir: string;
  let zone: { Id: number; Name: string };

  before(async () => {
    emu = await startEmulator();
    zone = await emu.client().storageZones.createStorageZone({ Name: "kit-messages", Region: "DE" });
    dir = mkdtempSync(join(tmpdir(), "bunnynet-kit-messages-"));
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `page${i}.html`), `<p>${i}</p>`);
  });
  after(async () => {
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const harnessWith = (options: Partial<HarnessOptions>) =>
    new ProgramHarness({ config: { ...emu.stackConfig(), "bunnynet:storageApiUrl": `${emu.url}${STORAGE_API_PATH}` }, secretConfig: ["bunnynet:apiKey"], ...options });
  const program = (prefix: string) => () => {
    void pulumi.log.warn("the program's own warning");
    new bunnynet.StorageFolder("site", { storageZoneId: zone.Id, source: dir, prefix });
  };


  for (const [mode, options] of [
    ["the provider in this process", {}],
    ["a provider host per command", { hostPerCommand: {} }],
  ] as const) {
    it(`${mode}: up holds the provider's progress and the program's warning, destroy's in messages(); nothing printed`, async () => {
      const prefix = mode.includes("host") ? "host" : "here";
      const harness = harnessWith(options);
      const printed: string[] = [];
      const restore = capture(printed);
      let up, destroyed;
      try {
        up = await harness.up(program(prefix));
        await harness.destroy();
        destroyed = harness.messages();
      } finally {
        restore();
      }
      assert.deepEqual(up.steps.map((s) => s.op), ["create"]);
      assert.deepEqual(
        up.messages.filter((m) => m.message.startsWith("StorageFolder:") || m.message.includes("program's")),
        [
          { severity: "warning", message: "the program's own warning" },
          ...[1, 2, 3].map((n) => ({ severity: "info", message: `StorageFolder: uploaded to kit-messages/${prefix} ${n}/3` })),
        ],
      );
      assert.deepEqual(destroyed, [1, 2, 3].map((n) => ({ severity: "info", message: `StorageFolder: deleted from kit-messages/${prefix} ${n}/3` })));
      assert.equal(printed.join(""), "", "nothing in the test's output");
    });
  }

  it("printMessages: true prints them as they come, and keeps them too", async () => {
    const harness = harnessWith({ printMessages: true });
    const printed: string[] = [];
    const restore = capture(printed);
    let up;
    try {
      up = await harness.up(program("printed"));
      await harness.destroy();
    } finally {
      restore();
    }
    assert.ok(up.messages.some((m) => m.message === "StorageFolder: uploaded to kit-messages/printed 3/3"));
    assert.match(printed.join(""), /^warning: the program's own warning$/m);
    assert.match(printed.join(""), /^info: StorageFolder: uploaded to kit-messages\/printed 3\/3$/m);
    assert.match(printed.join(""), /^info: StorageFolder: deleted from kit-messages\/printed 3\/3$/m);
  });
});

/** Collects what the process writes to stdout and stderr into `into` until the returned function restores them. */
function capture(into: string[]): () => void {
  const [stdout, stderr] = [process.stdout.write, process.stderr.write];
  const collect = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    (rest.find((r) => typeof r === "function") as (() => void) | undefined)?.();
    return true;
  };
  process.stdout.write = collect as typeof process.stdout.write;
  process.stderr.write = collect as typeof process.stderr.write;
  return () => {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  };
}
