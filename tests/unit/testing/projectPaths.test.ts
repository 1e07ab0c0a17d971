import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
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

  it("takes main absolute or outside the project, as the engine's getPwdMain does; refuses a missing one, naming it", () => {
    assert.equal(pluginDirectory(dir, join(dir, "src")), join(dir, "src"));
    mkdirSync(join(dir, "..", `${basename(dir)}-elsewhere`));
    try {
      assert.equal(pluginDirectory(join(dir, "src"), `../../${basename(dir)}-elsewhere`), join(dir, "..", `${basename(dir)}-elsewhere`));
    } finally {
      rmSync(join(dir, "..", `${basename(dir)}-elsewhere`), { recursive: true });
    }
    assert.throws(() => pluginDirectory(dir, "lib/"), /project 'main' could not be read: .*lib does not exist/);
  });

  it("refuses a project file the engine refuses (project.go, Validate), with the engine's message", () => {
    const refused = (text: string, reason: RegExp, stage = "unmarshal") =>
      assert.throws(() => withProject(text), (e: Error) => e.message.startsWith(`could not ${stage} '${join(dir, "Pulumi.yaml")}': `) && reason.test(e.message));
    // The mistake the real CLI caught in this repository: a typed key of the provider's namespace.
    refused("name: p\nconfig:\n  bunnynet:apiKey:\n    type: string\n    secret: true\n", /Configuration key 'bunnynet:apiKey' is not namespaced by the project and should not define a type/);
    refused("name: p\nconfig:\n  bunnynet:apiUrl:\n    default: http://x\n", /'bunnynet:apiUrl' is not namespaced by the project and should not define a default value/);
    refused("name: p\nconfig:\n  bunnynet:apiUrl:\n    description: the URL\n", /'bunnynet:apiUrl' is namespaced and must provide an attribute 'value'/);
    refused("name: p\nconfig:\n  size:\n    default: 1\n    value: 2\n", /project config 'size' cannot have both a 'default' and 'value' attribute/);
    refused("name: p\nconfig:\n  zones:\n    type: array\n", /'zones' declares an array but does not specify the underlying type/);
    refused("name: p\nconfig:\n  p:count:\n    type: integer\n    default: many\n", /default value specified for configuration key 'p:count' is not of the expected type 'integer'/);
    refused("name: p\nconfig:\n  ids:\n    type: array\n    items:\n      type: integer\n    default: [1, x]\n", /not of the expected type 'array<integer>'/);
    refused("runtime: nodejs\nmain: src\n", /project is missing a 'name' attribute/, "validate");
    // What the engine takes: the shorthand forms, values of other namespaces, typed project keys with good defaults.
    assert.equal(
      withProject(
        "name: p\nmain: src\nconfig:\n  bunnynet:apiUrl: http://x\n  bunnynet:maxRetries:\n    value: 2\n  size: 3\n  p:count:\n    type: integer\n    default: \"4\"\n  flag:\n    type: boolean\n    default: \"true\"\n  ids:\n    type: array\n    items:\n      type: string\n    default: [a, b]\n  apiToken:\n    type: string\n    secret: true\n",
      ),
      "src",
    );
  });
});
