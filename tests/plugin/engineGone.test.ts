import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { languageUnavailable } from "../support/languages";
import { commandLine, hasEnded, msUntilEnded, parentOf, processTree } from "../support/processes";
import { PulumiCliStack } from "../support/pulumiCli";
import { installPlugin } from "./pluginSupport";

/**
 * Issue 42: the CLI SIGKILLed in the middle of an `up` of a YAML program through the provider plugin. The plugin is
 * started in a process group of its own (pulumi/pulumi v3.276.0 sdk/go/common/resource/plugin/plugin.go:597-598), so
 * the kill does not reach it: before provider/plugin/engineWatch.ts it lived on and sent every create it still held,
 * which no state records. Here the program declares PULLZONES pull zones; the plugin creates pull zones one at a time
 * (provider/http/zoneWrites.ts, `pullzone:creates`) and the emulator holds each create CREATE_MS, so when the CLI is
 * killed, after two are made, the engine has sent the plugin several creates it has not yet sent on. The plugin must
 * then end within seconds, and the emulator must receive no request begun after the kill: those in flight at the kill
 * were begun before it (the emulator logs each request when it ends, with its duration, so its start is known).
 */
const PULLZONES = 12;
const CREATE_MS = 1_000;
/**
 * The kill takes effect once the kernel has ended the CLI, a few milliseconds after the signal is sent; a request begun
 * in between was sent while the engine was alive.
 */
const KILL_TAKES_MS = 50;

function program(): string {
  const zones = Array.from({ length: PULLZONES }, (_, i) => `  cdn-${i}:\n    type: bunnynet:index:PullZone\n    properties:\n      name: engine-gone-${i}\n      origin:\n        url: https://origin.example.net\n`);
  return `name: plugin-engine-gone\nruntime: yaml\nresources:\n${zones.join("")}`;
}

describe("plugin: the CLI killed in the middle of an up, the plugin sends nothing more and ends", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  let work: string;
  let stack: PulumiCliStack;
  let tree: number[] = [];

  before(async function () {
    const reason = languageUnavailable("yaml");
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    emu = await startEmulator();
    work = mkdtempSync(join(tmpdir(), "bunnynet-engine-gone-"));
    writeFileSync(join(work, "Pulumi.yaml"), program());
    stack = new PulumiCliStack(`engine-gone-${process.pid}`, join(work, "state"), work);
    await stack.init(stackConfigFor(emu.url, emu.fixtures.accessKey), ["bunnynet:apiKey"]);
    installPlugin(stack);
  });
  after(async () => {
    // What the kill left (the language host, the plugin if it stayed): ended, then the stack's folder removed.
    for (const pid of tree) if (!hasEnded(pid)) process.kill(pid, "SIGKILL");
    await emu?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(`SIGKILL of the CLI after 2 of ${PULLZONES} pull zones: the plugin ends within seconds, and no request begins after the kill`, async () => {
    await emu.markRequests();
    await emu.faults({ rules: [{ method: "POST", path: "^/pullzone$", latencyMs: CREATE_MS }] });
    let cli: ChildProcess | undefined;
    const up = stack.attempt(["up", "--yes", "--skip-preview"], true, (child) => (cli = child));
    const created = async () => (await emu.requests()).filter((r) => r.method === "POST" && r.route === "/pullzone" && r.status >= 200 && r.status < 300).length;
    while ((await created()) < 2) await sleep(20);
    tree = processTree(cli!.pid!);
    // The engine's plugin is the CLI's own child; the YAML language host starts another for the schema, which it
    // stops itself once the engine is gone (SIGINT): every one must end.
    const plugins = tree.filter((pid) => commandLine(pid).includes("pulumi-resource-bunnynet.js"));
    assert.ok(plugins.some((pid) => parentOf(pid) === cli!.pid), `no plugin process started by the CLI: ${tree.map((pid) => `${pid} ${parentOf(pid)} ${commandLine(pid)}`).join("; ")}`);

    const startedBy = plugins.map((pid) => commandLine(parentOf(pid)!).split(" ")[0].split("/").pop());
    const killedAt = Date.now();
    cli!.kill("SIGKILL");
    const ended = await Promise.all(plugins.map((pid) => msUntilEnded(pid, 20_000)));
    const pluginEndedAfterMs = ended.includes(undefined) ? undefined : Math.max(...(ended as number[]));
    await up;
    // The emulator logs a held create when it is answered or its client is gone: at most CREATE_MS after the kill.
    await sleep(CREATE_MS + 500);
    const requests = (await emu.requests()).map((r) => ({ line: `${r.method} ${r.url} → ${r.status}`, began: Date.parse(r.time) - r.durationMs }));
    const afterKill = requests.filter((r) => r.began > killedAt + KILL_TAKES_MS).map((r) => `${r.line}, begun ${r.began - killedAt} ms after the kill`);
    console.log(`      plugin processes started by ${startedBy.join(", ")}, the last ended ${pluginEndedAfterMs ?? "> 20000"} ms after the kill; ${await created()} pull zones made; requests begun before the kill: ${requests.length - afterKill.length}, after: ${afterKill.length}`);
    assert.ok(pluginEndedAfterMs !== undefined && pluginEndedAfterMs < 3_000, `the plugin processes ended ${ended.map((ms) => ms ?? "not within 20 000").join(", ")} ms after the kill`);
    assert.deepEqual(afterKill, []);
    assert.ok((await created()) < PULLZONES, "every pull zone was made: the kill came too late to test anything");
  });
});
