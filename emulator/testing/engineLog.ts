import { pulumiRequire } from "./sdkModules";

/**
 * The messages a command's provider and program log for the engine (`pulumi.log.info`, `warn`, `error`): what
 * `pulumi up` shows as diagnostics, kept in the command's result instead of printed, unless asked.
 *
 * How they travel under the engine, and so here:
 * - A dynamic provider has no engine connection (@pulumi/pulumi cmd/dynamic-provider: the engine's address is only
 *   checked), so pulumi.log writes `info: [runtime] <message>` to the plugin's stdout (log/index.js, `info` without an
 *   engine), and the engine shows each stdout line of a plugin as an info diagnostic (pulumi/pulumi
 *   sdk/go/common/resource/plugin/plugin.go, newPlugin). With a provider host, its stdout lines are read here.
 * - The program logs through the Engine service (log/index.js, `log`: engine.log(LogRequest)). Without a host, the
 *   provider runs in this process too, and both reach the stand-in for that service below, which the command's
 *   runtime store holds (runtime/settings.js, getEngine: the store's `settings.engine`). Without it the SDK prints
 *   them with console.log, into the output of the user's tests.
 * Debug messages are dropped, as the CLI hides them by default.
 */

export type EngineMessageSeverity = "info" | "warning" | "error";

/** A message logged for the engine during a command: the provider's progress, a warning, an error. */
export interface EngineMessage {
  severity: EngineMessageSeverity;
  message: string;
}

interface RuntimeState {
  getLocalStore(): { settings: { engine?: unknown } } | undefined;
}
const state = pulumiRequire("@pulumi/pulumi/runtime/state") as RuntimeState;
const { LogSeverity } = pulumiRequire("@pulumi/pulumi/proto/engine_pb") as { LogSeverity: Record<string, number> };

const SEVERITY_OF: Record<number, EngineMessageSeverity | undefined> = {
  [LogSeverity.INFO]: "info",
  [LogSeverity.WARNING]: "warning",
  [LogSeverity.ERROR]: "error",
};

/** `<severity>: [runtime] <message>`: what pulumi.log writes to stdout without an engine (`debug:` dropped). */
const RUNTIME_LINE = /^(debug|info|warning|error): \[runtime\] (.*)$/s;

type Callback = (err: null) => void;
interface LogRequestMessage {
  getSeverity(): number;
  getMessage(): string;
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

  /**
   * Makes pulumi.log in the running command reach this log: the Engine service's stand-in set in the command's
   * runtime store. `pulumi.runtime.setMocks` clears it (runtime/settings.js, resetOptions), so a program run sets it
   * again after.
   */
  attach(): void {
    const store = state.getLocalStore();
    if (!store) throw new Error("EngineLog.attach: no command is running (the kit runs each command in a runtime store of its own)");
    store.settings.engine = {
      log: (req: LogRequestMessage, done: Callback) => {
        const severity = SEVERITY_OF[req.getSeverity()];
        if (severity) this.add(severity, req.getMessage());
        done(null);
      },
      // Under an engine the program's stack registers itself as the root resource (runtime/settings.js,
      // setRootResource); nothing to keep here.
      setRootResource: (_req: unknown, done: Callback) => done(null),
      // Every version of the engine the kit stands in for is accepted (runtime/settings.js, requirePulumiVersion).
      requirePulumiVersion: (_req: unknown, done: Callback) => done(null),
    };
  }

  private add(severity: EngineMessageSeverity, message: string): void {
    this.messages.push({ severity, message });
    if (!this.print) return;
    // As the SDK prints them without an engine: info to stdout, warnings and errors to stderr.
    const line = `${severity}: ${message}`;
    if (severity === "info") console.log(line);
    else if (severity === "warning") console.warn(line);
    else console.error(line);
  }
}
