import { parseArgs, type ParseArgsConfig } from "node:util";
import { BunnyClient } from "../client";
import { BunnyError, ConfigurationError } from "../http/errors";
import { SETTING_SOURCES, type SettingName, type SettingsInput, resolveSettings } from "../settings";
import { ExitCode, UsageError } from "./exitCodes";
import { parseFormat, type OutputFormat } from "./output";

type Options = NonNullable<ParseArgsConfig["options"]>;
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

/** What a command sees of the world: injected so the tool can be driven by tests and by a terminal alike. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Progress lines go to stderr only when a person is watching it. */
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Reads one line from the terminal; `hidden` does not echo (passwords). */
  prompt: (question: string, hidden?: boolean) => Promise<string>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

export interface CommandContext {
  io: CliIO;
  values: Values;
  positionals: string[];
  format: OutputFormat;
  /** The client, built from flags then BUNNYNET_* variables (lazily: `--help` needs no key). */
  client(): BunnyClient;
}

export interface Command {
  /** e.g. "logs query". */
  name: string;
  summary: string;
  /** Positional arguments shown in the usage line, e.g. "<appId>". */
  args?: string;
  positionals?: { min: number; max: number };
  options: Options;
  /** Extra help text after the option list. */
  details?: string;
  run(ctx: CommandContext): Promise<number>;
}

/** Flags every command takes: where the API is, and how to print. */
export const GLOBAL_OPTIONS: Options = {
  "api-url": { type: "string" },
  "stream-api-url": { type: "string" },
  "containers-api-url": { type: "string" },
  "logging-api-url": { type: "string" },
  "storage-api-url": { type: "string" },
  "timeout-ms": { type: "string" },
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
};

const GLOBAL_HELP = `Settings: flags first, then BUNNYNET_API_KEY, BUNNYNET_API_URL, BUNNYNET_STREAM_API_URL,
BUNNYNET_CONTAINERS_API_URL, BUNNYNET_LOGGING_API_URL, BUNNYNET_STORAGE_API_URL, BUNNYNET_TIMEOUT_MS. The API key
is read from the environment only (a flag would show it in the process list). The Storage API (a storage zone's
files) is each zone's own host unless set (an emulator's: its URL followed by /storage).
  --api-url URL, --stream-api-url URL, --containers-api-url URL, --logging-api-url URL, --storage-api-url URL,
  --timeout-ms N
  --format table|jsonl|csv   (default: table on a terminal, jsonl in a pipe)
  -h, --help
Exit codes: 0 ok, 2 usage or settings error (nothing sent), 3 API error, 4 partial results, 130 interrupted.`;

function describeOption(name: string, o: Options[string]): string {
  return `  --${name}${o.type === "string" ? " VALUE" : ""}${o.multiple ? " (repeatable)" : ""}`;
}

export function commandHelp(c: Command): string {
  const lines = [`usage: bunnynet ${c.name}${c.args ? " " + c.args : ""} [options]`, "", c.summary, ""];
  const own = Object.entries(c.options);
  if (own.length) lines.push("Options:", ...own.map(([n, o]) => describeOption(n, o)), "");
  if (c.details) lines.push(c.details, "");
  lines.push(GLOBAL_HELP, "");
  return lines.join("\n");
}

/** The settings given as flags (SETTING_SOURCES names each one's flag); its messages speak of flags and environment. */
export function settingsFromFlags(values: Values): SettingsInput {
  const input: SettingsInput = { origin: "cli" };
  for (const [name, source] of Object.entries(SETTING_SOURCES) as [SettingName, { flag?: string }][]) {
    const value = source.flag ? values[source.flag] : undefined;
    if (typeof value === "string") input[name] = value;
  }
  return input;
}

/** Parses argv for one command and runs it, turning every failure into a message and an exit code. */
export async function runCommand(c: Command, argv: string[], io: CliIO): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...c.options }, allowPositionals: true, strict: true });
    values = parsed.values as Values;
    positionals = parsed.positionals;
  } catch (e) {
    io.stderr(`bunnynet ${c.name}: ${argumentProblem(e as Error & { code?: string })}\n\n${commandHelp(c)}`);
    return ExitCode.Usage;
  }
  if (values.help) {
    io.stdout(commandHelp(c));
    return ExitCode.Ok;
  }
  const range = c.positionals ?? { min: 0, max: 0 };
  if (positionals.length < range.min || positionals.length > range.max) {
    io.stderr(`bunnynet ${c.name}: expected ${c.args ?? "no arguments"}, got ${positionals.length === 0 ? "none" : positionals.join(" ")}\n\n${commandHelp(c)}`);
    return ExitCode.Usage;
  }
  let client: BunnyClient | undefined;
  try {
    const format = parseFormat(values.format as string | undefined, io.stdoutIsTTY);
    return await c.run({
      io,
      values,
      positionals,
      format,
      client: () => (client ??= new BunnyClient(resolveSettings(settingsFromFlags(values), io.env))),
    });
  } catch (e) {
    return reportFailure(c, e, io);
  }
}

/**
 * What parseArgs refused, said plainly: its own text for an unknown option suggests quoting it after `--` (for a
 * positional that starts with `-`) with an unbalanced quote, which misleads more than it helps here.
 */
function argumentProblem(e: Error & { code?: string }): string {
  const unknown = e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /'(-[^']*)'/.exec(e.message) : null;
  return unknown ? `unknown option ${unknown[1]}: the options are listed below` : e.message;
}

export function reportFailure(c: Command, e: unknown, io: CliIO): number {
  if (e instanceof UsageError) {
    io.stderr(`bunnynet ${c.name}: ${e.message}\n`);
    return ExitCode.Usage;
  }
  // Missing or wrong settings are the user's to fix, like a wrong flag: nothing was sent.
  if (e instanceof ConfigurationError) {
    io.stderr(`bunnynet ${c.name}: ${e.message}\n`);
    return ExitCode.Usage;
  }
  if (e instanceof BunnyError) {
    io.stderr(`bunnynet ${c.name}: ${e.message}\n`);
    return ExitCode.ApiError;
  }
  io.stderr(`bunnynet ${c.name}: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  return ExitCode.Internal;
}

/** Parses an integer flag, naming it when it is wrong. */
export function intFlag(values: Values, name: string, min: number, max: number): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}
