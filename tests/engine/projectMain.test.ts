import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { projectWithPackage, type Project } from "../support/projectLayout";

/**
 * Where the engine runs a program and its plugin when Pulumi.yaml names a `main` (pulumi/pulumi v3.259.0
 * pkg/engine/project.go:45-69 `getPwdMain`): in main's folder (main itself when it is a folder), for the language
 * host and every plugin alike; a relative main is joined to the project's folder and an absolute one taken as is,
 * with no check that it lies inside the project.
 *
 * Kit difference: the kit's `pluginDirectory` (emulator/testing/projectPaths.ts) refuses an absolute main ("must be
 * a relative path") and one outside the project ("must be a subfolder"), which the engine runs (the second test here;
 * tests/support/pulumiCli.ts `compiledProject` relies on a main outside the project too).
 */
describe("engine: a project whose Pulumi.yaml names main", function () {
  this.timeout(300_000);
  let emu: TestEmulator;
  const projects: Project[] = [];
  const stacks: EngineStack[] = [];

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
  });
  after(async () => {
    for (const stack of stacks) await stack.dispose();
    for (const project of projects) project.remove();
    await emu?.stop();
  });

  /**
   * A project with `main` (given, or src/), whose program in src/ reads greeting.txt beside it by a relative path;
   * @pulumi/pulumi installed beside bunnynet-pulumi, as in a user's project (the engine's dynamic-provider plugin,
   * pulumi-resource-pulumi-nodejs, resolves it from the folder it runs in).
   */
  function project(variable: string, main?: (dir: string) => string): Project {
    const made = projectWithPackage("npm", "src/");
    projects.push(made);
    mkdirSync(join(made.dir, "node_modules", "@pulumi"));
    symlinkSync(dirname(require.resolve("@pulumi/pulumi/package.json")), join(made.dir, "node_modules", "@pulumi", "pulumi"), "dir");
    const src = join(made.dir, "src");
    writeFileSync(join(src, "greeting.txt"), `hello from ${variable}`);
    writeFileSync(
      join(src, "index.js"),
      [
        'const fs = require("node:fs");',
        'const bunnynet = require("bunnynet-pulumi");',
        `const variable = new bunnynet.ScriptVariable("greeting", { scriptId: ${Number(emu.fixtures.scriptId)}, name: "${variable}", defaultValue: fs.readFileSync("greeting.txt", "utf8") });`,
        "module.exports = { cwd: process.cwd(), value: variable.defaultValue };",
        "",
      ].join("\n"),
    );
    if (main) writeFileSync(join(made.dir, "Pulumi.yaml"), `name: user-project\nruntime: nodejs\nmain: ${main(made.dir)}\n`);
    return made;
  }
  const variable = async (name: string) => (await emu.client().edgeScripts.getScript(Number(emu.fixtures.scriptId))).EdgeScriptVariables.find((v) => v.Name === name)?.DefaultValue;

  for (const [title, name, main] of [
    ["main: src/ runs the program in src/", "ENGINE_MAIN_SRC", undefined],
    ["an absolute main (which the kit refuses) runs it there too", "ENGINE_MAIN_ABSOLUTE", (dir: string) => join(dir, "src")],
  ] as const) {
    it(title, async () => {
      const made = project(name, main);
      const stack = await EngineStack.start(emu, made.dir, stackConfigFor(emu.url, emu.fixtures.accessKey), ["bunnynet:apiKey"]);
      stacks.push(stack);
      assert.deepEqual(await stack.up(), { greeting: "create" });
      assert.deepEqual(await stack.cli.outputs(), { cwd: join(made.dir, "src"), value: `hello from ${name}` });
      assert.equal(await variable(name), `hello from ${name}`);
      await stack.destroy();
      assert.equal(await variable(name), undefined);
    });
  }
});
