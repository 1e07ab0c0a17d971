import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { PULUMI_TEMPLATE_TSCONFIG } from "./pulumiTemplate";

/**
 * A user's project compiled against the package's built declarations: `index.ts` beside the tsconfig of Pulumi's
 * TypeScript template, with the package and @pulumi/pulumi installed (linked from this repository).
 */

/** The package as users install it. */
export const PACKAGE_NAME = "bunnynet-pulumi";

/** Where an installed package is, as this repository resolves it. */
export function installed(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

export interface UserProject {
  dir: string;
  program: ts.Program;
  /** The diagnostics of the program, formatted (the first `limit`), or "" when there are none. */
  diagnostics(limit?: number): { count: number; text: string };
  remove(): void;
}

/** Writes the project with `index.ts` and type-checks it. */
export function compileUserProject(source: string, prefix = "bunnynet-types-"): UserProject {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@pulumi"), { recursive: true });
  mkdirSync(join(modules, "@types"), { recursive: true });
  symlinkSync(installed(PACKAGE_NAME), join(modules, PACKAGE_NAME), "dir");
  symlinkSync(installed("@pulumi/pulumi"), join(modules, "@pulumi", "pulumi"), "dir");
  // The template's devDependencies: @types/node (and typescript, here this repository's).
  symlinkSync(installed("@types/node"), join(modules, "@types", "node"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "user-project", main: "index.ts", dependencies: { [PACKAGE_NAME]: "*", "@pulumi/pulumi": "*" } }));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(PULUMI_TEMPLATE_TSCONFIG, null, 2));
  writeFileSync(join(dir, "index.ts"), source);

  const config = ts.getParsedCommandLineOfConfigFile(join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")) });
  assert.ok(config);
  assert.deepEqual(config.errors, []);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  return {
    dir,
    program,
    diagnostics(limit = 10) {
      const diagnostics = ts.getPreEmitDiagnostics(program);
      const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => "\n" };
      const files = new Set(diagnostics.map((d) => d.file && relative(dir, d.file.fileName)));
      const text = diagnostics.length === 0 ? "" : `${diagnostics.length} errors in ${[...files].join(", ")}:\n${ts.formatDiagnostics(diagnostics.slice(0, limit), host)}`;
      return { count: diagnostics.length, text };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
