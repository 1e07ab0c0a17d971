/**
 * `npm run docs`: the reference pages under docs/, generated, never edited by hand.
 * - docs/api/: TypeDoc (with typedoc-plugin-markdown, settings in typedoc.json) from the TSDoc of the public API of
 *   bunnynet-pulumi: every resource with its inputs and outputs, every lookup, the client and the errors.
 * - docs/emulator/: the same for bunnynet-emulator (settings in typedoc.emulator.json): `createEmulator` and the
 *   testing kit (`bunnynet-emulator/testing`).
 * - docs/cli/: one page per `bunnynet` command, from the tool's own `--help` text (so the pages cannot drift).
 * - docs/reference/: one page per resource and function in the Pulumi registry's layout, from the package schema
 *   (provider/plugin/schema.json, what every language's SDK is generated from): docs/reference.ts.
 * tests/docs.test.ts checks that every exported resource, lookup and command has a page and that the pages are current.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { toolHelp } from "bunnynet-pulumi/dist/cli/main.js";
import { commandHelp } from "bunnynet-pulumi/dist/cli/command.js";
import { commands } from "bunnynet-pulumi/dist/cli/commands/index.js";
import { generateReference, readEnumSpellings, readReferenceSnippets, readSchema } from "./reference";

/** The repository root (this file runs from dist/docs). */
export const REPO_ROOT = resolve(__dirname, "..", "..");
/** The package schema the reference pages are generated from (`npm run schema` writes it). */
export const SCHEMA = join(REPO_ROOT, "provider", "plugin", "schema.json");

/** The page of one command: `logs query` → `logs-query.md`. */
export const cliPageName = (command: string): string => `${command.replace(/\s+/g, "-")}.md`;

export function generateDocs(outDir = join(REPO_ROOT, "docs")): void {
  for (const [options, folder] of [["typedoc.json", "api"], ["typedoc.emulator.json", "emulator"]]) {
    const out = join(outDir, folder);
    rmSync(out, { recursive: true, force: true });
    const typedoc = spawnSync(process.execPath, [join(REPO_ROOT, "node_modules", "typedoc", "bin", "typedoc"), "--options", options, "--out", out, "--logLevel", "Error"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    if (typedoc.status !== 0) throw new Error(`typedoc ${options} failed (exit ${typedoc.status}):\n${typedoc.stdout}${typedoc.stderr}`);
  }

  const cli = join(outDir, "cli");
  rmSync(cli, { recursive: true, force: true });
  mkdirSync(cli, { recursive: true });
  const block = (text: string) => ["```text", text.trimEnd(), "```", ""].join("\n");
  writeFileSync(
    join(cli, "index.md"),
    [
      "# `bunnynet`: the command-line tool",
      "",
      "Installed with bunnynet-pulumi as its `bunnynet` bin (`npx bunnynet <command>`). Generated from the tool's own help.",
      "",
      block(toolHelp()),
      ...commands.map((c) => `- [\`bunnynet ${c.name}\`](${cliPageName(c.name)}): ${c.summary.split(". ")[0]}`),
      "",
    ].join("\n"),
  );
  for (const c of commands) writeFileSync(join(cli, cliPageName(c.name)), [`# \`bunnynet ${c.name}\``, "", block(commandHelp(c))].join("\n"));

  const schema = readSchema(SCHEMA);
  generateReference(join(outDir, "reference"), schema, readReferenceSnippets(REPO_ROOT), readEnumSpellings(REPO_ROOT, schema));
}

if (require.main === module) generateDocs();
