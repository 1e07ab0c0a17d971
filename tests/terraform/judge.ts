import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startEmulator } from "bunnynet-emulator/dist/testing/emulator.js";

/**
 * bunny.net's Terraform provider's acceptance tests (internal/provider/*_test.go of
 * ../shared/peers/terraform-provider-bunnynet, v0.15.1) run against the emulator: they pass against the real API, so
 * each one that fails here is a place where the emulator is not bunny.net. tools/terraform-judge/build.sh builds the
 * Go test binary; this runs it one test at a time, each against a fresh emulator in this process (lenient, as users
 * get it: it ignores what the real API ignores), and records each test's outcome.
 *
 * One test a run, not the whole binary: a provider panic ends the Go test binary (the storage-file tests panic on a
 * nil response when the storage host cannot be reached), and a fresh emulator each keeps one test's leftovers out of
 * the next. The provider is reached as terraform-plugin-testing does it (ProtoV6ProviderFactories: the test process
 * serves the provider and reattaches Terraform to it), so only Terraform itself comes from the machine:
 * TF_ACC_TERRAFORM_PATH names it, or terraform-plugin-testing would download one. The machine's TF_CLI_CONFIG_FILE
 * may name a file that does not exist, which makes terraform-plugin-testing's version check fail: each run gets a CLI
 * config file of its own.
 *
 * Environment the provider reads (internal/provider/provider.go lines 76-96 and provider_test.go newApiClient):
 * BUNNYNET_API_KEY, BUNNYNET_API_URL (core, Shield and Magic Containers, which it reaches at `<api_url>/mc/...`) and
 * BUNNYNET_STREAM_API_URL; the emulator serves all three at one origin.
 *
 * Run by tests/terraform/acceptance.test.ts in CI, or by hand: `node dist/tests/terraform/judge.js [TestName ...]`.
 */

export type Outcome = "pass" | "fail" | "panic" | "skip" | "timeout";

export interface TestResult {
  name: string;
  outcome: Outcome;
  seconds: number;
  /** The first lines that say why (Terraform's `Error:` blocks, a panic's message), empty when it passed. */
  reason: string;
  /** The whole output of the test binary, kept in the work folder. */
  logFile: string;
}

export interface JudgeOptions {
  /** The Go test binary tools/terraform-judge/build.sh printed. */
  binary: string;
  /** A scratch folder: each test's Terraform working folders, CLI config and log land under it. */
  workDir: string;
  /** Tests to run (names, e.g. TestAccDnsZoneDnssecEnabled); default every `TestAcc*` the binary lists. */
  tests?: string[];
  /** How many tests run at once, each against its own emulator. Default 2. */
  concurrency?: number;
  /** Per test, in ms. Default 5 minutes. */
  timeoutMs?: number;
  /** Called as each test ends. */
  onResult?(result: TestResult): void;
}

/** The machine's `terraform`, or undefined (then terraform-plugin-testing would try to download one: refuse instead). */
export function terraformBinary(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v terraform"], { encoding: "utf8" });
  const path = found.status === 0 ? found.stdout.trim() : "";
  return path === "" ? undefined : path;
}

/** The repository's root (this file runs from dist/tests/terraform). */
export const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** Runs tools/terraform-judge/build.sh: the test binary's path, or undefined with the script's reason. */
export function buildJudge(): { binary?: string; reason: string } {
  const built = spawnSync("bash", [join(REPO_ROOT, "tools", "terraform-judge", "build.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  if (built.status !== 0) throw new Error(`tools/terraform-judge/build.sh failed (${built.status}):\n${built.stderr.slice(-4000)}`);
  const binary = built.stdout.trim();
  return binary === "" ? { reason: built.stderr.trim() } : { binary, reason: "" };
}

/** The acceptance tests the binary holds (`-test.list`), in its order. */
export function listAcceptanceTests(binary: string): string[] {
  const listed = spawnSync(binary, ["-test.list", "^TestAcc"], { encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`${binary} -test.list failed: ${listed.stderr}`);
  return listed.stdout.split("\n").filter((line) => line.startsWith("TestAcc"));
}

/** Runs the tests, `concurrency` at a time, and answers their results in the order asked. */
export async function judge(options: JudgeOptions): Promise<TestResult[]> {
  const terraform = terraformBinary();
  if (terraform === undefined) throw new Error("terraform is not on PATH");
  const tests = options.tests ?? listAcceptanceTests(options.binary);
  const results: TestResult[] = new Array(tests.length);
  let next = 0;
  const worker = async () => {
    while (next < tests.length) {
      const index = next++;
      results[index] = await runOne(options, terraform, tests[index]);
      options.onResult?.(results[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  // The record of the run, beside each test's log: name, outcome, seconds, reason.
  writeFileSync(join(options.workDir, "results.json"), JSON.stringify(results.map(({ logFile: _log, ...r }) => r), null, 2) + "\n");
  return results;
}

async function runOne(options: JudgeOptions, terraform: string, name: string): Promise<TestResult> {
  const dir = join(options.workDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "tmp"), { recursive: true });
  const cliConfig = join(dir, "terraform.rc");
  writeFileSync(cliConfig, "disable_checkpoint = true\n");
  const logFile = join(dir, "test.log");
  const emu = await startEmulator(":memory:");
  const started = Date.now();
  try {
    await prepareAccount(emu.url, emu.fixtures.accessKey);
    // The storage-file tests write to https://<StorageHostname>/ (internal/api/storage_file.go line 58): the emulator
    // serves that host over HTTPS, and Go trusts its certificate from SSL_CERT_FILE.
    const storage = await emu.emulator.listenStorageHttps();
    const caFile = join(dir, "storage-ca.pem");
    writeFileSync(caFile, storage.certificateAuthorityPem);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TF_ACC: "1",
      TF_ACC_TERRAFORM_PATH: terraform,
      TF_ACC_TEMP_DIR: join(dir, "tmp"),
      TF_CLI_CONFIG_FILE: cliConfig,
      TF_IN_AUTOMATION: "1",
      CHECKPOINT_DISABLE: "1",
      SSL_CERT_FILE: caFile,
      BUNNYNET_API_KEY: emu.fixtures.accessKey,
      BUNNYNET_API_URL: emu.url,
      BUNNYNET_STREAM_API_URL: emu.url,
      // The container app tests deploy to this Magic Containers region (resource_compute_container_app_test.go
      // lines 95-104: without it they fail at once); DE is one the emulator's account offers (containers/seed.ts).
      TESTACC_MC_REGION: process.env.TESTACC_MC_REGION ?? "DE",
    };
    const { output, code, timedOut } = await runBinary(options.binary, ["-test.run", `^${name}$`, "-test.v", "-test.count", "1"], env, options.timeoutMs ?? 5 * 60_000);
    writeFileSync(logFile, output);
    const outcome: Outcome = timedOut
      ? "timeout"
      : output.includes(`--- PASS: ${name} `) && code === 0
        ? "pass"
        : output.includes(`--- SKIP: ${name} `)
          ? "skip"
          : /^panic: /m.test(output)
            ? "panic"
            : "fail";
    return { name, outcome, seconds: Math.round((Date.now() - started) / 100) / 10, reason: outcome === "pass" ? "" : reasonOf(output), logFile };
  } finally {
    await emu.stop();
  }
}

/**
 * What the account the acceptance tests were written against holds before they run: the DNS record tests read the
 * zone `terraform.internal` with the `bunnynet_dns_zone` data source and never create it (resource_dns_record_test.go,
 * every config's `data "bunnynet_dns_zone" "domain"`), so it is made first, as a user of that account would have.
 */
async function prepareAccount(url: string, accessKey: string): Promise<void> {
  const made = await fetch(`${url}/dnszone`, {
    method: "POST",
    headers: { AccessKey: accessKey, "content-type": "application/json" },
    body: JSON.stringify({ Domain: "terraform.internal" }),
  });
  if (made.status !== 201) throw new Error(`POST /dnszone terraform.internal → ${made.status}: ${await made.text()}`);
}

function runBinary(binary: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ output: string; code: number | null; timedOut: boolean }> {
  return new Promise((done, fail) => {
    const child = spawn(binary, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => chunks.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ output: Buffer.concat(chunks).toString("utf8"), code, timedOut });
    });
  });
}

/** Terraform's error summaries and details (the lines after `Error:`), or a panic's first line: enough to sort by cause. */
export function reasonOf(output: string): string {
  const panic = /^panic: .*$/m.exec(output);
  if (panic) return panic[0];
  const lines = output.split("\n").map((l) => l.replace(/^\s*│?\s*/, "").trimEnd());
  const reasons: string[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith("Error: ")) return;
    // Terraform's block: the summary, where it happened (`with`, `on`, the source line), then the detail, up to `╵`.
    const block = lines.slice(i + 1, i + 16);
    const end = block.findIndex((l) => l.startsWith("╵") || l.startsWith("Error: ") || l.startsWith("---"));
    const detail = block.slice(0, end < 0 ? block.length : end).filter((l) => l !== "" && !l.startsWith("with ") && !l.startsWith("on ") && !/^\d+:/.test(l));
    reasons.push([line, ...detail.slice(0, 3)].join(" "));
  });
  // The first error, and how many others: a pull zone that drops 20 settings says so 20 times.
  const distinct = [...new Set(reasons)];
  if (distinct.length > 0) return `${distinct[0].slice(0, 400)}${distinct.length > 1 ? ` (and ${distinct.length - 1} more errors)` : ""}`;
  const failed = output.split("\n").filter((l) => /_test\.go:\d+:/.test(l));
  return failed.slice(0, 3).join(" ").trim().slice(0, 400);
}

if (require.main === module) {
  const only = process.argv.slice(2);
  const built = buildJudge();
  if (built.binary === undefined) {
    process.stderr.write(`skipped: ${built.reason}\n`);
    process.exit(0);
  }
  const workDir = join(REPO_ROOT, "dist", "terraform-judge");
  judge({
    binary: built.binary,
    workDir,
    tests: only.length > 0 ? only : undefined,
    onResult: (r) => process.stdout.write(`${r.outcome.padEnd(7)} ${r.name} (${r.seconds} s)${r.reason ? `\n        ${r.reason}` : ""}\n`),
  }).then(
    (results) => {
      const passed = results.filter((r) => r.outcome === "pass").length;
      process.stdout.write(`\n${passed} of ${results.length} passed; logs in ${workDir}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
