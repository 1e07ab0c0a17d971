import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProgramHarness, startEmulator, type TestEmulator } from "bunnynet-emulator/testing";
import { projectWithPackage, type Project } from "../support/projectLayout";

/**
 * The kit runs a project directory as `pulumi up` does (issue 37): no program function, only `hostPerCommand:
 * { projectDir }`; the module Pulumi.yaml's `main` names runs its top-level code anew each command, and its exports
 * are the stack's outputs. `bunnynet export` writes exactly such a project.
 */
describe("testing kit: a project directory's own program (Pulumi.yaml main, top-level code)", function () {
  this.timeout(120_000);
  let emu: TestEmulator;
  const projects: Project[] = [];

  before(async () => {
    emu = await startEmulator();
  });
  after(async () => {
    for (const p of projects) p.remove();
    await emu?.stop();
  });

  /** A project whose program declares a script variable from a file beside it, as top-level code. */
  function project(main: string | undefined, file: string, source: string): Project {
    const p = projectWithPackage("npm", main);
    projects.push(p);
    writeFileSync(join(p.dir, main ?? "", file), source);
    writeFileSync(join(p.dir, main ?? "", "greeting.txt"), "hello from the project");
    return p;
  }

  it("index.js at the project's root: preview, up, an unchanged up and destroy run its top-level code", async () => {
    const p = project(undefined, "index.js", [
      'const fs = require("fs");',
      'const bunnynet = require("bunnynet-pulumi");',
      `const variable = new bunnynet.ScriptVariable("greeting", { scriptId: ${Number(emu.fixtures.scriptId)}, name: "KIT_PROJECT_JS", defaultValue: fs.readFileSync("greeting.txt", "utf8") });`,
      "exports.value = variable.defaultValue;",
      "",
    ].join("\n"));
    const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir: p.dir } });
    assert.deepEqual((await stack.preview()).steps.map((s) => s.op), ["create"]);
    const up = await stack.up();
    assert.deepEqual(up.steps.map((s) => s.op), ["create"]);
    assert.equal(up.outputs.value, "hello from the project");
    assert.deepEqual((await stack.up()).steps.map((s) => s.op), ["same"], "the top-level code ran again, declaring the same resource");
    await stack.destroy();
    assert.equal(stack.resources().length, 0);
  });

  it("index.ts under main: src/ with ES imports and types, as `bunnynet export` and `pulumi new` write it", async () => {
    const p = project("src/", "index.ts", [
      'import * as fs from "fs";',
      'import * as bunnynet from "bunnynet-pulumi";',
      "",
      `const scriptId: number = ${Number(emu.fixtures.scriptId)};`,
      'const variable = new bunnynet.ScriptVariable("greeting", { scriptId, name: "KIT_PROJECT_TS", defaultValue: fs.readFileSync("greeting.txt", "utf8") });',
      "export const value = variable.defaultValue;",
      "",
    ].join("\n"));
    const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir: p.dir } });
    const up = await stack.up();
    assert.deepEqual(up.steps.map((s) => s.op), ["create"]);
    assert.equal(up.outputs.value, "hello from the project");
    await stack.destroy();
  });

  it("without a program or a project directory, preview says what to give", async () => {
    const stack = new ProgramHarness({ config: emu.stackConfig(), secretConfig: ["bunnynet:apiKey"] });
    await assert.rejects(stack.preview(), /give preview and up a program, or the harness hostPerCommand: \{ projectDir \}/);
  });
});
