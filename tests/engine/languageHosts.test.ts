import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Language, languageUnavailable, pathWith, pythonVirtualenv } from "../support/languages";
import { PulumiCliStack } from "../support/pulumiCli";

/**
 * The language hosts tools/pulumi-cli/build.sh builds (older releases than the CLI: their go.mod files say why) run
 * programs of today's SDKs under today's CLI: a program in each language exports a value and destroys cleanly. The
 * programs of the plugin's SDKs (examples/site-python, -go, -yaml) rely on exactly this.
 */
const PROGRAMS: Record<Language, { files: Record<string, string>; env?: () => NodeJS.ProcessEnv }> = {
  python: {
    files: { "__main__.py": 'import pulumi\n\npulumi.export("greeting", "hello from " + pulumi.get_project())\n' },
    env: () => ({ PATH: pathWith(pythonVirtualenv()) }),
  },
  go: {
    files: {
      "main.go":
        'package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tctx.Export("greeting", pulumi.String("hello from "+ctx.Project()))\n\t\treturn nil\n\t})\n}\n',
      // The Go SDK of the CLI's own release (its module is in the Go cache once the CLI is built).
      "go.mod": "module hosts-go\n\ngo 1.26\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.276.0\n",
    },
  },
  yaml: { files: {} },
};

describe("engine: the Python, Go and YAML language hosts run programs of today's SDKs", function () {
  this.timeout(900_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const language of Object.keys(PROGRAMS) as Language[]) {
    it(`${language}: up exports the program's value; destroy leaves an empty stack`, async function () {
      const reason = languageUnavailable(language);
      if (reason) {
        console.log(`      skipped: ${reason}`);
        this.skip();
      }
      const root = mkdtempSync(join(tmpdir(), `hosts-${language}-`));
      dirs.push(root);
      const project = join(root, "project");
      mkdirSync(project);
      const name = `hosts-${language}`;
      const yamlOutputs = language === "yaml" ? `outputs:\n  greeting: hello from ${name}\n` : "";
      writeFileSync(join(project, "Pulumi.yaml"), `name: ${name}\nruntime: ${language}\n${yamlOutputs}`);
      for (const [file, text] of Object.entries(PROGRAMS[language].files)) writeFileSync(join(project, file), text);
      if (language === "go") {
        // go.sum from the module proxy (the modules are in Go's cache once the CLI is built).
        execFileSync("go", ["mod", "tidy"], { cwd: project, stdio: "inherit" });
      }
      const stack = new PulumiCliStack("dev", join(root, "state"), project, PROGRAMS[language].env?.() ?? {});
      await stack.init({}, []);
      await stack.run(["up", "--yes", "--skip-preview"], true);
      assert.deepEqual(await stack.outputs(), { greeting: `hello from ${name}` });
      await stack.run(["destroy", "--yes", "--skip-preview"], true);
      await stack.remove();
    });
  }
});
