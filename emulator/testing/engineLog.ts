import { pulumiRequire } from "./sdkModules";

/**
 * The messages a command's provider and program log for the engine (`pulumi.log.info`, `warn`, `error`): what
 * `pulumi up` shows as diagnostics, kept in the command's result instead of printed, unless asked.
 *
 * How they travel under the engine, and so here:
 * - A dynamic provider has no engine connection (@pulumi/pulumi cmd/dynamic-provider: the engine's address is only
 *   checked), so pulumi.log writes `info: [runtime] <message>` to the plugin's stdout (log/index.js, `info` without an
 *   engine: console.log), and the engine shows each stdout line of a plugin as an info diagnostic (pulumi/pulumi
 *   sdk/go/common/resource/plugin/plugin.go, newPlugin). With a provider host, its stdout lines are read here.
 * - Without a host the provider runs in this process, and the program always does: under the SDK's mocks there is no
 *   engine either, so pulumi.log writes those same lines with console.log, console.warn and console.error, into the
 *   output of the user's tests. Those three are wrapped once per process: a `[runtime]` line written inside a
 *   command's runtime store (./pulumiRuntime.ts) goes to that command's log; everything else is written as before.
 *   (Not an Engine service stand-in in the store: pulumi.log then chains every message after the URN of the resource
 *   it names, process-wide, and one that never resolves, as in a failed command, would hold every later message.)
 * Debug messages are dropped, as the CLI hides them by default.
 */

export type EngineMessageSeverity = "info" | "warning" | "error";

/** A message logged for the engine during a command: the provider's progress, a warning, an error. */
export interface EngineMessage {
  severity: EngineMessageSeverity;
  message: string;
}

interface RuntimeState {
  getLocalStore(): Record<symbol, unknown> | undefined;
}
const state = pulumiRequire("@pulumi/pulumi/runtime/state") as RuntimeState;

/** Where a command's runtime store holds its log. */
const COMMAND_LOG = Symbol.for("bunnynet-emulator/testing: the command's engine log");
/** The console's own methods, kept once per process (shared by every copy of the kit) when they are wrapped. */
const CONSOLE = Symbol.for("bunnynet-emulator/testing: the console before the kit wrapped it");

type Write = (...args: unknown[]) => void;
type ConsoleMethods = { log: Write; warn: Write; error: Write };

/** `<severity>: [runtime] <message>`: what pulumi.log writes without an engine (`debug:` dropped). */
const RUNTIME_LINE = /^(debug|info|warning|error): \[runtime\] (.*)$/s;

/** The console's methods as they were, after wrapping them (once per process) to route `[runtime]` lines. */
function originalConsole(): ConsoleMethods {
  const slot = globalThis as Record<symbol, unknown>;
  const kept = slot[CONSOLE] as ConsoleMethods | undefined;
  if (kept) return kept;
  const original: ConsoleMethods = { log: console.log.bind(console), warn: console.warn.bind(console), error: console.error.bind(console) };
  slot[CONSOLE] = original;
  for (const method of ["log", "warn", "error"] as const) {
    console[method] = (...args: unknown[]) => {
      const log = state.getLocalStore()?.[COMMAND_LOG] as EngineLog | undefined;
      if (log && args.length === 1 && typeof args[0] === "string" && RUNTIME_LINE.test(args[0])) log.line(args[0]);
      else original[method](...args);
    };
  }
  return original;
}

/** One command's messages, in the order they came; printed as they come when `print` is set. */
export class EngineLog {
  readonly messages: EngineMessage[] = [];

  constructor(private readonly print = false) {}

  /** A line the plugin wrote to stdout: pulumi.log's own form, or any other line (the engine shows it as info). */
  line(text: string): void {
    const m = RUNTIME_LINE.exec(text);
    if (m?.[1] === "debug") return;
    if (m) this.add(m[1] as EngineMessageSeverity, m[2]);
    else if (text.trim() !== "") this.add("info", text);
  }

  /** Makes pulumi.log in the running command (its program, a provider in this process) reach this log. */
  attach(): void {
    const store = state.getLocalStore();
    if (!store) throw new Error("EngineLog.attach: no command is running (the kit runs each command in a runtime store of its own)");
    originalConsole();
    store[COMMAND_LOG] = this;
  }

  private add(severity: EngineMessageSeverity, message: string): void {
    this.messages.push({ severity, message });
    if (!this.print) return;
    // As the CLI shows them: info to stdout, warnings and errors to stderr.
    const write = originalConsole();
    const line = `${severity}: ${message}`;
    if (severity === "info") write.log(line);
    else if (severity === "warning") write.warn(line);
    else write.error(line);
  }
}
