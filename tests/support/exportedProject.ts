import assert from "node:assert/strict";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";

const installed = (name: string) => dirname(require.resolve(`${name}/package.json`));

/**
 * Installs what a project `bunnynet export` wrote needs (this package, @pulumi/pulumi and @types/node, linked into its
 * node_modules as `npm install` would put them) and compiles it with its own tsconfig (Pulumi's template: outDir
 * bin), or into `outDir`, with `stricter` options on top if given. Fails with the compiler's diagnostics. Resolves the compiled entry, `<outDir>/index.js`.
 */
export function compileExportedProject(out: string, outDir = join(out, "bin"), stricter: ts.CompilerOptions = {}): string {
  const modules = join(out, "node_modules");
  if (!existsSync(join(modules, "bunnynet-pulumi"))) {
    mkdirSync(join(modules, "@pulumi"), { recursive: true });
    mkdirSync(join(modules, "@types"), { recursive: true });
    symlinkSync(installed("bunnynet-pulumi"), join(modules, "bunnynet-pulumi"), "dir");
    symlinkSync(installed("@pulumi/pulumi"), join(modules, "@pulumi", "pulumi"), "dir");
    symlinkSync(installed("@types/node"), join(modules, "@types", "node"), "dir");
  }
  const config = ts.getParsedCommandLineOfConfigFile(join(out, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")) });
  assert.ok(config);
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, ...stricter, outDir } });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => out, getNewLine: () => "\n" };
  assert.equal(diagnostics.length, 0, ts.formatDiagnostics(diagnostics.slice(0, 10), host));
  const entry = join(outDir, "index.js");
  assert.ok(existsSync(entry));
  return entry;
}
