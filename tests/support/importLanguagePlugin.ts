import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serveProgram } from "./sdkLanguageServer";

/**
 * A stand-in for the Node.js language host plugin (`pulumi-language-nodejs`, which these machines cannot get: see
 * sdkLanguageServer.ts), for `pulumi import` only. `pulumi import` runs no program and has no `--client` flag, but it
 * loads the project's language plugin (it fails with "failed to load language plugin nodejs" without one) and asks it
 * only for the plugins the program needs, before the engine's import step. The SDK's own LanguageServer
 * (automation/server.ts) answers that (`getRequiredPlugins`: none), so served as a plugin (the engine starts it and
 * reads its port from its first line of output: pulumi/pulumi v3.259.0 sdk/go/common/resource/plugin/plugin.go
 * `newPlugin`) it lets `pulumi import` go as far as it goes on a user's machine.
 */

/** Writes the stand-in into `dir` as `pulumi-language-nodejs`; put `dir` first on PATH for the CLI. Resolves `dir`. */
export function importLanguagePlugin(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const script = join(dir, "pulumi-language-nodejs");
  writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${__filename}" "$@"\n`);
  chmodSync(script, 0o755);
  return dir;
}

if (require.main === module) {
  // The engine's address and flags are not needed: this plugin only answers the engine's calls.
  void serveProgram(async () => ({})).then(({ address }) => process.stdout.write(`${address.slice(address.lastIndexOf(":") + 1)}\n`));
}
