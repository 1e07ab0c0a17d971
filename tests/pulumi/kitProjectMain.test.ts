import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as bunnynet from "bunnynet-pulumi";
import { CommandFailedError, ProgramHarness, startEmulator, type TestEmulator } from "bunnynet-emulator/testing";
import { projectWithPackage, type Project } from "../support/projectLayout";

/**
 * A user's project with `main: src/` in Pulumi.yaml, tested with the kit given only the project's directory: the
 * program and the plugin run in src/, as under `pulumi up`, so the program's relative paths resolve there.
 */
describe("testing kit: a project whose Pulumi.yaml says main: src/", function () {
  this.timeout(120_000);
  let emu: TestEmulator;
  let project: Project;
  let stack: ProgramHarness;

  before(async () => {
    emu = await startEmulator();
    project = projectWithPackage("npm", "src/");
    writeFileSync(join(project.dir, "src", "greeting.txt"), "hello from src");
    stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir: project.dir } });
  });
  after(async () => {
    project?.remove();
    await emu?.stop();
  });

  /** The program reads a file beside it by a relative path, as programs do. */
  const program = () => {
    const greeting = new bunnynet.ScriptVariable("greeting", { scriptId: Number(emu.fixtures.scriptId), name: "KIT_MAIN_SRC", defaultValue: readFileSync("greeting.txt", "utf8") });
    return { value: greeting.defaultValue };
  };

  it("preview, up, refresh and destroy all run the program from src/", async () => {
    const cwd = process.cwd();
    assert.deepEqual((await stack.preview(program)).steps.map((s) => s.op), ["create"]);
    const { outputs } = await stack.up(program);
    assert.equal(outputs.value, "hello from src");
    assert.deepEqual((await stack.up(program)).steps.map((s) => s.op), ["same"]);
    assert.deepEqual((await stack.refresh()).map((s) => s.op), ["refresh"]);
    await stack.destroy();
    assert.equal(stack.resources().length, 0);
    assert.equal(process.cwd(), cwd, "the test's own directory is back after each command");
  });

  it("a Pulumi.yaml the engine refuses (a typed key of the provider's namespace) fails the command with the engine's message", async () => {
    const other = projectWithPackage("npm", "src/");
    try {
      writeFileSync(join(other.dir, "Pulumi.yaml"), "name: user-project\nruntime: nodejs\nmain: src/\nconfig:\n  bunnynet:apiKey:\n    type: string\n    secret: true\n");
      const refused = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir: other.dir } });
      await assert.rejects(
        refused.up(program),
        (e: unknown) => e instanceof CommandFailedError && /Configuration key 'bunnynet:apiKey' is not namespaced by the project and should not define a type/.test(e.message),
      );
    } finally {
      other.remove();
    }
  });

  it("a main that does not exist fails the command (a rejection, not a throw), naming it", async () => {
    const wrong = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir: project.dir, main: "lib/" } });
    let up: Promise<unknown> | undefined;
    assert.doesNotThrow(() => (up = wrong.up(program)));
    await assert.rejects(up!, (e: unknown) => e instanceof CommandFailedError && /project 'main' could not be read: .*lib does not exist/.test(e.message));
  });
});
