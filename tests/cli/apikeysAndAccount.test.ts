import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { emulatorEnv, runTool } from "../support/cli";
import { commands } from "bunnynet-pulumi/dist/cli/commands/index.js";

describe("cli: bunnynet apikeys, account close, usage", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("lists the keys masked by default, in JSON lines when piped", async () => {
    const run = await runTool(["apikeys"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(rows.length, emu.fixtures.apiKeyCount);
    assert.ok(!run.stdout.includes(emu.fixtures.accessKey), "no key value printed");
    assert.equal(rows[0].key, `****${emu.fixtures.accessKey.slice(-4)}`);
  });

  it("shows key values with --show-keys, as CSV or an aligned table", async () => {
    const csv = await runTool(["apikeys", "--show-keys", "--format", "csv"], emulatorEnv(emu));
    assert.equal(csv.code, 0, csv.stderr);
    const lines = csv.stdout.trim().split("\n");
    assert.equal(lines[0], "id,key,roles");
    assert.ok(lines[1].includes(emu.fixtures.accessKey));
    const table = await runTool(["apikeys", "--format", "table"], emulatorEnv(emu));
    const [header, rule, first] = table.stdout.split("\n");
    assert.match(header, /^id\s+key\s+roles$/);
    assert.match(rule, /^-+ {2}-+ {2}-+$/);
    assert.equal(first.indexOf("****"), header.indexOf("key"), "columns are aligned");
  });

  it("usage errors exit 2 and name the problem; API errors exit 3 without the key", async () => {
    const bad = await runTool(["apikeys", "--format", "xml"], emulatorEnv(emu));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format must be one of table, jsonl, csv/);
    const unknown = await runTool(["apikeys", "--nope"], emulatorEnv(emu));
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^bunnynet apikeys: unknown option --nope: the options are listed below\n/);
    const noCommand = await runTool(["frobnicate"], emulatorEnv(emu));
    assert.equal(noCommand.code, 2);
    const wrongKey = "wrong-key-value-123456";
    const denied = await runTool(["apikeys"], emulatorEnv(emu, { BUNNYNET_API_KEY: wrongKey }));
    assert.equal(denied.code, 3);
    // Which key (its last four characters), from where, and how to set it: in the tool's words.
    assert.match(denied.stderr, /GET \/apikey answered 401[^\n]*\. The API key ending in 3456 from BUNNYNET_API_KEY in the environment was refused: set the account's API key with export BUNNYNET_API_KEY=<key>\.\n$/);
    assert.ok(!denied.stderr.includes(wrongKey));
    const noKey = await runTool(["apikeys"], { ...emulatorEnv(emu), BUNNYNET_API_KEY: "" });
    assert.equal(noKey.code, 2, "a settings error, like a usage error: nothing was sent");
    assert.match(noKey.stderr, /^bunnynet apikeys: No bunny\.net API key: export BUNNYNET_API_KEY=<key> \(the account's API key, from the bunny\.net dashboard; the tool reads it only from the environment\)\.\n$/);
    assert.doesNotMatch(noKey.stderr, /pulumi config/);
    const badUrl = await runTool(["apikeys", "--api-url", "ftp://x"], emulatorEnv(emu));
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.stderr, /--api-url must be an http\(s\) URL, got ftp:/);
  });

  it("a refused connection names the host and the flag or variable that chose it", async () => {
    const refused = await runTool(["apikeys", "--api-url", "http://127.0.0.1:9"], { ...emulatorEnv(emu), BUNNYNET_MAX_RETRIES: "0" });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /GET \/apikey failed: ECONNREFUSED\. Could not connect to 127\.0\.0\.1:9: check that it is reachable, or set the URL with --api-url <value> \(or export BUNNYNET_API_URL=<value>\)/);
  });

  it("a command group's --help lists its commands; a bare group says what it takes", async () => {
    const help = await runTool(["logs", "--help"], { PATH: process.env.PATH });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: bunnynet logs <command> \[options\]\n\nCommands:\n {2}logs query +Query CDN logs/);
    assert.match(help.stdout, /logs tail/);
    assert.match(help.stdout, /logs download/);
    const bare = await runTool(["logs"], { PATH: process.env.PATH });
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^usage: bunnynet logs <command>/);
    const typo = await runTool(["logs", "qeury"], { PATH: process.env.PATH });
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^bunnynet: unknown command "logs qeury"\n\nusage: bunnynet <command>[\s\S]*logs query/);
  });

  it("runs as the package's bin through npx, as the command-line guide shows (docs/guides/cli.md)", () => {
    const root = join(__dirname, "..", "..", "..");
    const run = spawnSync("npx", ["--no-install", "bunnynet", "--help"], { cwd: root, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /usage: bunnynet <command>/);
    assert.match(run.stdout, /logs query/);
  });

  it("--help works on every command without a key", async () => {
    for (const args of [["--help"], ...commands.map((c) => [...c.name.split(" "), "--help"])]) {
      const run = await runTool(args, { PATH: process.env.PATH });
      assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stdout, /usage: bunnynet/);
    }
  });

  describe("account close", () => {
    const passwordFile = () => {
      const f = join(mkdtempSync(join(tmpdir(), "bunnynet-")), "password");
      writeFileSync(f, `${emu.fixtures.accountPassword}\n`);
      return f;
    };
    const closeCalls = async () => (await emu.requests()).filter((r) => r.route === "/user/closeaccount");

    it("refuses without a terminal unless --confirm-account names the account; sends nothing", async () => {
      await emu.markRequests();
      const run = await runTool(["account", "close", "--password-file", passwordFile()], emulatorEnv(emu));
      assert.equal(run.code, 2);
      assert.match(run.stderr, /refusing to close the account without a terminal/);
      const wrong = await runTool(["account", "close", "--confirm-account", "zzzzzz", "--password-file", passwordFile()], emulatorEnv(emu));
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /does not name this account/);
      assert.equal((await closeCalls()).length, 0);
    });

    it("a wrong password is an API error, sent once and never retried", async () => {
      await emu.markRequests();
      await emu.faults({ rules: [{ path: "^/user/closeaccount$", errorRate: 1, errorStatus: 503 }] });
      const tag = emu.fixtures.accessKey.slice(-6);
      const failed = await runTool(["account", "close", "--confirm-account", tag, "--password-file", passwordFile()], emulatorEnv(emu));
      await emu.clearFaults();
      assert.equal(failed.code, 3);
      assert.equal((await closeCalls()).length, 1, "a failed close is not repeated");
      const wrongPassword = await runTool(["account", "close", "--confirm-account", tag], emulatorEnv(emu, { BUNNYNET_ACCOUNT_PASSWORD: "nope" }));
      assert.equal(wrongPassword.code, 3);
      assert.match(wrongPassword.stderr, /400/);
    });

    it("closes the account with the confirmation flag and the password", async () => {
      const tag = emu.fixtures.accessKey.slice(-6);
      const run = await runTool(["account", "close", "--confirm-account", tag, "--password-file", passwordFile(), "--reason", "testing"], emulatorEnv(emu));
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /closed/);
      const after = await runTool(["apikeys"], emulatorEnv(emu));
      assert.equal(after.code, 3, "a closed account's key is refused");
      assert.match(after.stderr, /answered 401/);
    });
  });
});
