import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { CLI_PATH, emulatorEnv } from "../support/cli";

/**
 * The tool at a real terminal: util-linux `script` gives it a pseudo-terminal, and the test answers its prompts
 * as a person would.
 */
function atTerminal(args: string[], env: NodeJS.ProcessEnv, answers: [prompt: RegExp, answer: string][]): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, CLI_PATH, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
    const child = spawn("script", ["-qefc", command, "/dev/null"], { env: { ...env, TERM: "dumb" }, stdio: ["pipe", "pipe", "pipe"] });
    let screen = "";
    const pending = [...answers];
    child.stdout.on("data", (d: Buffer) => {
      screen += d.toString();
      while (pending.length > 0 && pending[0][0].test(screen)) child.stdin.write(pending.shift()![1] + "\n");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, screen }));
  });
}

describe("cli: at a terminal", function () {
  let emu: TestEmulator;
  before(async function () {
    if (spawnSync("script", ["--version"]).status !== 0) {
      console.log("      skipped: util-linux `script` (to give the tool a terminal) is not installed");
      this.skip();
    }
    emu = await startEmulator();
  });
  after(() => emu?.stop());

  const closeCalls = async () => (await emu.requests()).filter((r) => r.route === "/user/closeaccount");

  it("logs query shows a table and a progress line", async () => {
    const run = await atTerminal(["logs", "query", String(emu.fixtures.pullZoneId), "--from", new Date(Date.now() - 48 * 3600_000).toISOString()], emulatorEnv(emu), []);
    assert.equal(run.code, 0, run.screen.slice(-500));
    assert.match(run.screen, /^timestamp\s+status\s+cache\s+edge/m, "an aligned table on a terminal");
    assert.match(run.screen, /\r\d+ entries in \d+\.\d s\r?\n/, "a progress line, rewritten in place");
  });

  it("a mistyped confirmation sends nothing", async () => {
    await emu.markRequests();
    const run = await atTerminal(["account", "close"], emulatorEnv(emu), [
      [/Account password: $/, String(emu.fixtures.accountPassword)],
      [/to confirm: $/, "close it"],
    ]);
    assert.equal(run.code, 2);
    assert.match(run.screen, /Not confirmed; nothing was sent/);
    assert.equal((await closeCalls()).length, 0);
  });

  it("asks for the password without echoing it, then the typed confirmation, then closes once", async () => {
    await emu.markRequests();
    const tag = emu.fixtures.accessKey.slice(-6);
    const password = String(emu.fixtures.accountPassword);
    const run = await atTerminal(["account", "close", "--reason", "moving on"], emulatorEnv(emu), [
      [/Account password: $/, password],
      [/to confirm: $/, `close ${tag}`],
    ]);
    assert.equal(run.code, 0, run.screen);
    assert.ok(!run.screen.includes(password), "the password is not shown");
    assert.match(run.screen, new RegExp(`API key ends in ${tag}\\. It cannot be undone`));
    assert.match(run.screen, /The account was closed/);
    assert.equal((await closeCalls()).length, 1);
  });

});
