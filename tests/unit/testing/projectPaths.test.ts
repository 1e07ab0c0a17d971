import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pluginDirectory, projectMain } from "bunnynet-emulator/dist/testing/projectPaths.js";

/** Where the kit runs a project's program and plugin: `main` from Pulumi.yaml, as the engine's getPwdMain reads it. */
describe("testing kit: the project's main", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "bunnynet-main-"));
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "index.ts"), "");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const withProject = (text: string, name = "Pulumi.yaml") => {
    writeFileSync(join(dir, name), text);
    return projectMain(dir);
  };

  it("reads main plain, quoted, with a comment, from Pulumi.yml too; none when absent", () => {
    assert.equal(withProject("name: p\nruntime: nodejs\nmain: src/\n"), "src/");
    assert.equal(withProject('name: p\nmain: "src/index.ts"  # the entry\n'), "src/index.ts");
    assert.equal(withProject("name: p\nmain: 'src'\n"), "src");
    assert.equal(withProject("name: p\nruntime:\n  name: nodejs\n  options:\n    main: nested\n"), undefined);
    assert.equal(withProject("{ name: p, runtime: nodejs, main: src/ }\n"), "src/");
    assert.equal(withProject("name: p\ndescription: |\n  main: not this\nmain: >-\n  src\n"), "src");
    rmSync(join(dir, "Pulumi.yaml"));
    assert.equal(withProject("name: p\nmain: src\n", "Pulumi.yml"), "src");
    rmSync(join(dir, "Pulumi.yml"));
    assert.equal(projectMain(dir), undefined);
  });

  it("refuses a project file that is not YAML, naming it", () => {
    assert.throws(() => withProject("name: p\nmain: [src\n"), /Pulumi\.yaml is not a valid project file/);
  });

  it("runs in main when it is a directory, in its directory when it is a file, in the project without one", () => {
    assert.equal(pluginDirectory(dir, "src/"), join(dir, "src"));
    assert.equal(pluginDirectory(dir, "src/index.ts"), join(dir, "src"));
    assert.equal(pluginDirectory(dir), dir);
  });

  it("refuses main that is absolute, outside the project or missing, naming it", () => {
    assert.throws(() => pluginDirectory(dir, "/etc"), /project 'main' must be a relative path \(got "\/etc"/);
    assert.throws(() => pluginDirectory(dir, "../elsewhere"), /project 'main' must be a subfolder .*"\.\.\/elsewhere"/);
    assert.throws(() => pluginDirectory(dir, "lib/"), /project 'main' could not be read: .*lib does not exist/);
  });
});
