import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Command, Values } from "../command";
import { ExitCode, UsageError } from "../exitCodes";

/**
 * `bunnynet export --out DIR`: the account as a Pulumi TypeScript project whose resources adopt what exists
 * (issue 28). `pulumi import` cannot target dynamic resources (pulumi/pulumi#16175: the engine's import read carries
 * no inputs, so the plugin cannot load the provider), so adoption by input is the way in; import.json is written
 * beside for the day it can. The reading and the program are in ../export/.
 */

const FILTERS = ["pull-zone", "dns-zone", "script"] as const;

function list(values: Values, name: string): string[] {
  const v = values[name];
  const raw = Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
  return raw.flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s !== "");
}

/** The folder to write, refused (before any API call) when it holds files. */
function outFolder(values: Values): string {
  const out = values.out;
  if (typeof out !== "string" || out === "") throw new UsageError("--out DIR is required: the folder to write the project to (new or empty)");
  const dir = resolve(out);
  if (existsSync(dir)) {
    const entries = readdirSync(dir);
    if (entries.length > 0) throw new UsageError(`--out ${out} already has files (${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", …" : ""}): choose a new or empty folder, nothing is overwritten`);
  }
  return dir;
}

export const exportCommand: Command = {
  name: "export",
  summary: "Write the account out as a Pulumi TypeScript project whose resources adopt the objects that exist.",
  options: {
    out: { type: "string" },
    project: { type: "string" },
    only: { type: "string", multiple: true },
    "pull-zone": { type: "string", multiple: true },
    "dns-zone": { type: "string", multiple: true },
    script: { type: "string", multiple: true },
  },
  details: [
    "--out DIR          the folder to write (new or empty): Pulumi.yaml, package.json, tsconfig.json, index.ts,",
    "                   import.json (Pulumi's bulk-import file), scripts/ (edge scripts' code), storage/ (storage",
    "                   zones' files, up to 1000 files and 100 MiB a zone, read from the Storage API: each zone's",
    "                   own host, or --storage-api-url / BUNNYNET_STORAGE_API_URL, e.g. <emulator URL>/storage),",
    "                   EXPORT-REPORT.md",
    "--project NAME     the Pulumi project's name (default: the folder's name)",
    "--only KINDS       only these resource types, e.g. --only PullZone,PullZoneHostname (the parents are still read)",
    "--pull-zone, --dns-zone, --script NAME|ID   only these objects and what they hold (repeatable); kinds without",
    "                   such a flag (storage zones, video libraries) are then left out",
    "Every resource gets adoptExisting: true and protect: true (a StorageFolder takes over its files by itself); values",
    "the API never returns (script secrets, registry passwords) are read from stack config (config.requireSecret),",
    "never written. Progress on stderr; the report on stdout.",
  ].join("\n"),
  async run({ io, values, client }) {
    const dir = outFolder(values);
    const { EXPORT_KINDS } = await import("../export/kinds.js");
    const known = new Map(EXPORT_KINDS.map((k) => [k.type.toLowerCase(), k.type]));
    const only = new Set(
      list(values, "only").map((name) => {
        const type = known.get(name.toLowerCase());
        if (!type) throw new UsageError(`--only: unknown kind ${JSON.stringify(name)}; the kinds are ${[...known.values()].join(", ")}`);
        return type;
      }),
    );
    const project = typeof values.project === "string" ? values.project : basename(dir);
    const { slug, projectFiles } = await import("../export/program.js");
    const projectName = slug(project);
    const { readAccount, reportText } = await import("../export/account.js");
    const filters = Object.fromEntries(FILTERS.map((f) => [f, list(values, f)]));
    const exported = await readAccount(client(), { only, filters, signal: io.signal, progress: (line) => io.stderr(`bunnynet export: ${line}\n`) });
    if (!exported) {
      io.stderr("bunnynet export: interrupted, nothing written\n");
      return ExitCode.Interrupted;
    }
    const report = reportText(exported, projectName);
    const files = projectFiles(projectName, exported.sections, exported.files, `the account at ${client().settings.apiUrl}`, report);
    for (const [path, content] of Object.entries(files)) {
      const target = join(dir, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content, { flag: "wx" });
    }
    io.stderr(`bunnynet export: wrote ${Object.keys(files).length} files to ${dir}\n`);
    io.stdout(report);
    return exported.skipped.some((s) => s.reason.startsWith("cannot be read")) ? ExitCode.Partial : ExitCode.Ok;
  },
};
