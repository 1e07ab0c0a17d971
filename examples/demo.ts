/**
 * `npm run demo`: the main job. Starts the emulator in a temporary folder and deploys examples/site against it: a
 * whole site from zero (DNS zone, storage zone, pull zone, a CNAME, a hostname with a free certificate and force-SSL,
 * a Shield zone with a rate-limit rule, an edge script with its code, a variable and a secret, a video library with a
 * video uploaded from a file and its thumbnail), with no fixture ids. With the Pulumi CLI (built by tools/pulumi-cli/build.sh, or
 * on PATH): `pulumi up` on a file backend (no login), and it says which engine ran. Without it: the same program
 * through the test harness (the real Pulumi SDK, the SDK's real provider host process over gRPC, the emulator over
 * HTTP). Then a second, unchanged deployment shows how many API calls a no-op costs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawnEmulator, type EmulatorProcess } from "../bench/support";
import { ProgramHarness } from "../tests/support/programHarness";
import { ProviderHost } from "../tests/support/providerHost";
import { compiledProject, PulumiCliStack, pulumiBinary, pulumiCliUnavailable, pulumiCliVersion } from "../tests/support/pulumiCli";
import { SITE_PROJECT, SITE_SECRET_CONFIG, siteConfig } from "../tests/support/site";
import { site } from "./site/program";


function say(line = ""): void {
  process.stdout.write(line + "\n");
}

async function apiCallsSince(emu: EmulatorProcess, seq: number): Promise<{ count: number; last: number }> {
  const res = await fetch(`${emu.url}/_emulator/requests?since=${seq}`);
  const log = (await res.json()) as { lastSeq: number; requests: unknown[] };
  return { count: log.requests.length, last: log.lastSeq };
}

/** The Pulumi CLI path: a project in the build folder running the compiled site, on a file backend in the temporary folder. */
async function deployWithCli(emu: EmulatorProcess, work: string): Promise<void> {
  const projectDir = compiledProject("demo-site", SITE_PROJECT, "examples/site/index.js");
  const stack = new PulumiCliStack("demo", join(work, "state"), projectDir);
  await stack.init(siteConfig(emu), SITE_SECRET_CONFIG);
  await stack.run(["up", "--yes", "--skip-preview"]);
  const mark = (await apiCallsSince(emu, Number.MAX_SAFE_INTEGER)).last;
  await stack.run(["up", "--yes", "--skip-preview"]);
  const [last] = JSON.parse(await stack.run(["stack", "history", "--json"], true)) as { resourceChanges?: Record<string, number> }[];
  const changes = last?.resourceChanges ?? {};
  const total = Object.values(changes).reduce((a, b) => a + b, 0);
  say(`\nA second, unchanged \`pulumi up\`: ${changes.same ?? 0} of ${total} resources unchanged, ${(await apiCallsSince(emu, mark)).count} API calls.`);
  say("\nStack outputs:");
  say(JSON.stringify(await stack.outputs(), null, 2));
}

/** The harness path: the site program in this process, its resources served by the SDK's provider host. */
async function deployWithHarness(emu: EmulatorProcess): Promise<void> {
  const host = await ProviderHost.start({ project: SITE_PROJECT });
  try {
    const harness = new ProgramHarness({ project: SITE_PROJECT, stack: "demo", config: siteConfig(emu), secretConfig: SITE_SECRET_CONFIG, providerHost: host });
    const first = await harness.up(site);
    say("Created:");
    for (const r of harness.resources()) say(`  ${r.type.split(":").pop()!.padEnd(17)} ${r.name.padEnd(10)} id ${r.id}`);
    const mark = (await apiCallsSince(emu, Number.MAX_SAFE_INTEGER)).last;
    const again = await harness.up(site);
    const unchanged = again.steps.filter((s) => s.op === "same").length;
    say(`\nA second, unchanged deployment: ${unchanged} of ${again.steps.length} resources unchanged, ${(await apiCallsSince(emu, mark)).count} API calls.`);
    say(`(The first made ${first.steps.length} resources.)`);
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
      say(`Engine: the Pulumi CLI ${pulumiCliVersion()} with its Node.js language host (${dirname(pulumiBinary()!)}).`);
      say("Deploying examples/site with it (file backend, no login).\n");
      await deployWithCli(emu, work);
    } else {
      say(`Engine: the testing kit (${pulumiCliUnavailable()}).`);
      say("So examples/site runs through the test harness instead:");
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
