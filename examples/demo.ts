/**
 * `npm run demo`: the main job. Starts the emulator in a temporary folder and deploys examples/quickstart
 * against it. With the Pulumi CLI on PATH: `pulumi up` on a file backend (no login). Without it: the same
 * program through the test harness (the real Pulumi SDK, the SDK's real provider host process over gRPC,
 * the emulator over HTTP). Then a second, unchanged deployment shows how many API calls a no-op costs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnEmulator, type EmulatorProcess } from "../bench/support";
import { ProgramHarness } from "../tests/support/programHarness";
import { ProviderHost } from "../tests/support/providerHost";
import { PulumiCliStack, pulumiCliUnavailable } from "../tests/support/pulumiCli";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, quickstartConfig } from "../tests/support/quickstart";
import { quickstart } from "./quickstart/program";


function say(line = ""): void {
  process.stdout.write(line + "\n");
}

async function apiCallsSince(emu: EmulatorProcess, seq: number): Promise<{ count: number; last: number }> {
  const res = await fetch(`${emu.url}/_emulator/requests?since=${seq}`);
  const log = (await res.json()) as { lastSeq: number; requests: unknown[] };
  return { count: log.requests.length, last: log.lastSeq };
}

/** The Pulumi CLI path: the repository's Pulumi.yaml (the compiled quickstart) on a file backend in the temporary folder. */
async function deployWithCli(emu: EmulatorProcess, work: string): Promise<void> {
  const stack = new PulumiCliStack("demo", join(work, "state"));
  stack.init(await quickstartConfig(emu), QUICKSTART_SECRET_CONFIG);
  stack.run(["up", "--yes", "--skip-preview"]);
  const mark = (await apiCallsSince(emu, Number.MAX_SAFE_INTEGER)).last;
  stack.run(["up", "--yes", "--skip-preview"]);
  say(`\nA second, unchanged \`pulumi up\` made ${(await apiCallsSince(emu, mark)).count} API calls.`);
  say(JSON.stringify(stack.outputs(), null, 2));
}

/** The harness path: the quickstart program in this process, its resources served by the SDK's provider host. */
async function deployWithHarness(emu: EmulatorProcess): Promise<void> {
  const host = await ProviderHost.start();
  try {
    const harness = new ProgramHarness({ project: QUICKSTART_PROJECT, stack: "demo", config: await quickstartConfig(emu), secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
    const first = await harness.up(quickstart);
    say("Created:");
    for (const step of first.steps) say(`  ${step.op.padEnd(7)} ${step.urn.split("::").slice(-2).join(" ")}`);
    for (const r of harness.resources()) say(`  ${r.name.padEnd(20)} id ${r.id}`);
    const mark = (await apiCallsSince(emu, Number.MAX_SAFE_INTEGER)).last;
    const again = await harness.up(quickstart);
    const unchanged = again.steps.filter((s) => s.op === "same").length;
    say(`\nA second, unchanged deployment: ${unchanged} of ${again.steps.length} resources unchanged, ${(await apiCallsSince(emu, mark)).count} API calls (lookups included).`);
    say("\nStack outputs:");
    say(JSON.stringify(again.outputs, null, 2));
  } finally {
    await host.stop();
  }
}

async function main(): Promise<void> {
  // A closed pipe (`npm run demo | head`) must not skip the clean-up below and leave the emulator running.
  process.stdout.on("error", () => undefined);
  const work = mkdtempSync(join(tmpdir(), "bunnynet-demo-"));
  const emu = await spawnEmulator(["--data", join(work, "emulator.db")]);
  say(`Emulator: ${emu.url} (state in ${join(work, "emulator.db")})`);
  try {
    if (!pulumiCliUnavailable()) {
      say("Deploying examples/quickstart with the Pulumi CLI (file backend, no login).\n");
      await deployWithCli(emu, work);
    } else {
      say("The Pulumi CLI is not on PATH, so the quickstart runs through the test harness instead:");
      say("the real Pulumi SDK runs the program, the SDK's own provider host serves the resources over gRPC,");
      say("and every API call goes to the emulator over HTTP.\n");
      await deployWithHarness(emu);
    }
  } finally {
    await emu.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`demo failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
