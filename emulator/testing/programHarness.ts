import { randomUUID } from "node:crypto";
import { typeToken } from "bunnynet-pulumi/dist/pulumi/index.js";
import { CommandPlugins, providerConfig } from "./commandPlugin";
import type { Program, ProviderCall, RunResult, Step, StoredResource } from "./deploymentTypes";
import type { HostOptions } from "./pluginProcess";
import { type EngineMessage, EngineLog } from "./engineLog";
import { CommandFailedError } from "./engineMessages";
import { DYNAMIC_PROVIDER_TYPE, StepsFailed, runProgram } from "./programRun";
import { projectDirectory } from "./projectPaths";
import { projectProgram } from "./projectProgram";
import { isolatedCommand } from "./pulumiRuntime";
import type { ProviderHost } from "./providerHost";
import { ProgramRunSteps, StepGenerator, UNKNOWN_PROVIDER_ID, destroySteps, refreshSteps } from "./stepGenerator";
import { type ConfigValues, secret } from "./wire";

/**
 * Deploys a Pulumi program the way the Pulumi engine does, without the Pulumi CLI: the program runs in this
 * process with the SDK's mocks (./programRun.ts), and each of the package's resources goes through the engine's own
 * sequence of provider calls (./stepGenerator.ts, which cites the engine's source), served by the SDK's real
 * dynamic-provider host over gRPC (or, without a host, by the provider text loaded in this process exactly as that
 * host loads it: ./commandPlugin.ts). Check failures read as the engine prints them (./engineMessages.ts); values
 * travel as the engine sends them (./wire.ts); the plugin runs where the engine starts it (./pluginProcess.ts).
 *
 * What this file keeps, as the engine does (pulumi/pulumi v3.2xx; files under pkg/):
 * - The provider is configured with the whole stack config (resource/deploy/target.go, GetPackageConfig: all keys
 *   for dynamic providers), saved in state as the default provider's inputs at each `up`. Refresh and destroy
 *   configure it from that saved config, not the current one (resource/deploy/providers/registry.go loads
 *   providers from the old state), unless the program runs (`--run-program`): then refresh runs it, and every
 *   provider, the default one and each `bunnynet.Provider`, is configured from the program's current inputs and
 *   saved with them (./stepGenerator.ts, ProgramRunSteps, which cites resource/deploy); `destroy` likewise.
 * - What the provider and the program log for the engine, per command (./engineLog.ts): the diagnostics `pulumi up`
 *   shows, kept in the result rather than printed into the test's output.
 * - The state between commands, so a program can be previewed, deployed, changed, refreshed and destroyed:
 *
 *   const emu = await startEmulator();                       // ./emulator.ts
 *   const stack = new ProgramHarness({ project, config: { "bunnynet:apiKey": key, "bunnynet:apiUrl": emu.url },
 *     secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir, main } });
 *   (await stack.preview(program)).steps;                     // [{ op: "create", urn }], rpcs: only "check"
 *   (await stack.up(program)).messages;  await stack.refresh();  await stack.destroy();
 *   await emu.requests();                                     // the API calls made (the emulator's request log)
 */

/** The stack a ProgramHarness deploys (project, stack, config) and which plugin serves its commands. */
export interface HarnessOptions {
  project?: string;
  stack?: string;
  /** Stack config, keys with namespace (`bunnynet:apiKey`). */
  config?: Record<string, string>;
  /** Config keys stored as secrets. */
  secretConfig?: string[];
  /**
   * A running provider host that serves every command (one plugin process for all of them: the SDK's host
   * configures each provider text once per process, so config changes between commands do not reach it, and the
   * provider's deployment lasts as long: its reads are cached across commands, and an object one command adopted is
   * not deleted by a later one, as the original of a replacement that adopted it would not be).
   */
  providerHost?: ProviderHost;
  /**
   * Start a new provider host for each command, as the engine starts a new plugin process (with these options:
   * the project's directory, `main` if not the one its Pulumi.yaml names, environment). The program and the plugin
   * run where that `main` says, as under the engine. The faithful mode; config changes apply as they would.
   */
  hostPerCommand?: Omit<HostOptions, "project">;
  /**
   * Print what the provider and the program log for the engine (pulumi.log: a StreamVideo's upload progress, a
   * StorageFolder's) as each command runs, as `pulumi up` shows it. Off by default: the messages are kept in the
   * command's result (`messages`) and in `messages()`, and stay out of the test's output.
   */
  printMessages?: boolean;
}

export class ProgramHarness {
  readonly project: string;
  readonly stack: string;
  private config: Record<string, string>;
  private secretConfig: string[];
  /** The config the last `up` saved in state with the default provider: what refresh and destroy configure it with. */
  private savedConfig?: { config: Record<string, string>; secretConfig: string[] };
  /** The program the last `up` or `preview` ran: the project's program, which `refresh({ runProgram: true })` runs. */
  private program?: Program;
  /** By URN, in creation order (destroy goes in reverse). */
  private readonly state = new Map<string, StoredResource>();
  private readonly options: HarnessOptions;
  /** The messages of the command that ran last (or runs now). */
  private lastMessages: EngineMessage[] = [];
  /** The RPCs the command that ran last (or runs now) sent to the provider hosts. */
  private lastSent: ProviderCall[] = [];
  /** The id of the stack's default provider resource, which the engine creates once and keeps in state. */
  private readonly defaultProviderId = randomUUID();

  constructor(options: HarnessOptions = {}) {
    this.project = options.project ?? "bunnynet-program";
    this.stack = options.stack ?? "test";
    this.config = { ...(options.config ?? {}) };
    this.secretConfig = [...(options.secretConfig ?? [])];
    this.options = options;
  }

  /** Replaces the stack config (`pulumi config set`), for the next command; without `secretConfig` the secret keys stay as they were. */
  setConfig(config: Record<string, string>, secretConfig: string[] = this.secretConfig): void {
    this.config = { ...config };
    this.secretConfig = [...secretConfig];
  }

  resources(): StoredResource[] {
    return [...this.state.values()];
  }

  /** The stack config the next command uses (`pulumi config`). */
  stackConfig(): Record<string, string> {
    return { ...this.config };
  }

  /** A resource in the state, by type (`"ScriptSecret"` or its full token) and name. */
  resource(type: string, name: string): StoredResource | undefined {
    const token = type.includes(":") ? type : typeToken(type);
    return this.resources().find((r) => r.type === token && r.name === name);
  }

  /**
   * What the provider and the program logged for the engine during the last command (`info`, `warning`, `error`; a
   * StreamVideo's progress, a StorageFolder's): for refresh and destroy, whose results are their steps. preview and
   * up return them in their result too.
   */
  messages(): EngineMessage[] {
    return [...this.lastMessages];
  }

  /**
   * Every RPC the last command sent to the provider hosts (with `hostPerCommand` or `providerHost`), in order, as
   * the engine's PULUMI_DEBUG_GRPC log shows its requests: the gRPC method (`Configure`, `Check`, `Diff`, `Create`,
   * `Read`, `Update`, `Delete`), its request (properties with `__provider`), and the URN of the provider resource
   * whose plugin it went to (`…::pulumi:providers:pulumi-nodejs::default` for the default provider).
   */
  providerCalls(): ProviderCall[] {
    return this.lastSent.map((c) => structuredClone(c));
  }

  /**
   * `pulumi preview`: Check and Diff only; nothing is created, changed or stored. Without `program`, the project at
   * `hostPerCommand.projectDir` runs as the CLI runs it: the module its Pulumi.yaml's `main` names, top-level code
   * and exports (./projectProgram.ts).
   */
  async preview(program?: Program): Promise<RunResult> {
    return this.deploy(program ?? this.projectProgram(), true);
  }

  /** `pulumi up`: runs the program, creating, updating, replacing and deleting resources to match it (without `program`: the project's, as `preview`). */
  async up(program?: Program): Promise<RunResult> {
    return this.deploy(program ?? this.projectProgram(), false);
  }

  /** The project's own program (`main`), when the harness runs a project directory. */
  private projectProgram(): Program {
    const project = this.options.hostPerCommand;
    if (!project?.projectDir) throw new Error("give preview and up a program, or the harness hostPerCommand: { projectDir } to run that project's main");
    return projectProgram(project.projectDir, project.main);
  }

  /**
   * `pulumi refresh`: reads every resource; gone ones leave the state, changed ones take the real values (outputs
   * and inputs). Configured with the config saved at the last `up`: the default provider with that stack config,
   * each explicit provider (`bunnynet.Provider`) with its inputs saved then.
   *
   * With `runProgram` (`pulumi refresh --run-program`) the program runs first, as under the engine: `program`, or
   * the one the last `up` or `preview` ran. The default provider takes the current stack config and each explicit
   * provider the inputs the program gives it now, and the state keeps them; the resources are read, none is checked,
   * created or changed. Without any program run yet, only the default provider takes the current config.
   */
  refresh(options: { runProgram?: boolean; program?: Program } = {}): Promise<Step[]> {
    const steps: Step[] = [];
    return this.stateCommand("refresh", options, steps, (plugins, registered) => refreshSteps(plugins, this.state, steps, registered));
  }

  /** `pulumi destroy`: deletes every resource, newest first, configured as `refresh` is (`runProgram` too). */
  destroy(options: { runProgram?: boolean; program?: Program } = {}): Promise<Step[]> {
    const steps: Step[] = [];
    return this.stateCommand("destroy", options, steps, (plugins) => destroySteps(plugins, this.state, steps));
  }

  /**
   * Refresh or destroy: with the saved config, or, with `runProgram`, after the program ran in that command's mode
   * (its providers configured from its current inputs, saved with them; `registered`: what it registered).
   */
  private stateCommand(
    command: "refresh" | "destroy",
    options: { runProgram?: boolean; program?: Program },
    steps: Step[],
    rest: (plugins: CommandPlugins, registered: ReadonlySet<string>) => Promise<Step[]>,
  ): Promise<Step[]> {
    const program = options.runProgram === true ? (options.program ?? this.program) : undefined;
    if (!program) return this.withPlugin(command, this.commandConfig(options.runProgram === true), (plugins) => rest(plugins, new Set()), () => this.notIn(steps));
    const { project, stack, config, secretConfig } = this;
    const run = async (plugins: CommandPlugins) => {
      const registrar = new ProgramRunSteps(command, plugins, this.state, this.urnOf, steps);
      await runProgram(program, { project, stack, config, secretConfig, preview: false }, registrar);
      await rest(plugins, registrar.registered);
      // The default provider's state, like each explicit one's, now holds the inputs the program gave it.
      this.savedConfig = { config: { ...config }, secretConfig: [...secretConfig] };
      return steps;
    };
    return this.withPlugin(command, this.commandConfig(true), run, () => this.notIn(steps), this.defaultProviderInState());
  }

  /**
   * The default provider's inputs in the state (the config the last `up` saved), or none when no resource in the state
   * uses it (the engine deletes it with its last resource): CheckConfig's olds when it takes the current config.
   */
  private defaultProviderInState(): ConfigValues {
    const used = [...this.state.values()].some((r) => r.type !== DYNAMIC_PROVIDER_TYPE && r.provider === undefined);
    return used && this.savedConfig ? this.commandConfig(false) : {};
  }

  /**
   * Where the program runs, as the engine runs it (./projectPaths.ts): the directory `main` names in the project at
   * `hostPerCommand.projectDir`, so its relative paths resolve as under `pulumi up`; otherwise where the test runs.
   */
  private programDirectory(): string | undefined {
    const project = this.options.hostPerCommand;
    return project?.projectDir ? projectDirectory(project.projectDir, project.main) : undefined;
  }

  /** The stored resources a refresh or destroy has not reached (or failed on); a refresh reads no provider. */
  private notIn(steps: Step[]): string[] {
    const done = new Set(steps.map((s) => s.urn));
    return [...this.state.values()].filter((r) => !done.has(r.urn) && r.type !== DYNAMIC_PROVIDER_TYPE).map((r) => r.urn);
  }

  /** The config a command's provider gets: the current one for up and preview, the saved one otherwise. */
  private commandConfig(current: boolean): ConfigValues {
    const { config, secretConfig } = current || !this.savedConfig ? { config: this.config, secretConfig: this.secretConfig } : this.savedConfig;
    return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, secretConfig.includes(k) ? secret(v) : v]));
  }

  /**
   * Runs one command with its plugins (the default provider's, and one per explicit provider: ./commandPlugin.ts),
   * closed at the end: after any command started before it in this process, with
   * Pulumi's globals of its own (./pulumiRuntime.ts), so users' mocks tests and other harnesses keep theirs. A
   * failure rejects the command once, with a CommandFailedError naming what was left unfinished.
   */
  private withPlugin<T>(
    command: CommandFailedError["command"],
    config: ConfigValues,
    run: (plugins: CommandPlugins, log: EngineLog) => Promise<T>,
    unfinished: () => string[],
    /** Set when the default provider takes the current config: its inputs in state before (see CommandPlugins). */
    defaultOlds?: ConfigValues,
    /** The default provider's id as its Configure names it (the engine's UnknownID for a new one at preview). */
    defaultId = this.defaultProviderId,
  ): Promise<T> {
    return isolatedCommand(
      () => this.programDirectory(),
      async () => {
        const log = new EngineLog(this.options.printMessages === true);
        this.lastMessages = log.messages;
        log.attach();
        const saved = (urn: string) => {
          const provider = this.state.get(urn);
          return provider?.type === DYNAMIC_PROVIDER_TYPE ? { config: providerConfig(provider.inputs, provider.secretKeys), id: provider.id } : undefined;
        };
        const checked = defaultOlds ? { olds: defaultOlds } : undefined;
        const plugins = new CommandPlugins(this.options, config, this.project, log, saved, this.stack, defaultId, checked);
        this.lastSent = plugins.sent;
        try {
          return await run(plugins, log);
        } finally {
          await plugins.close();
        }
      },
    ).catch((e: unknown) => {
      throw new CommandFailedError(command, e instanceof StepsFailed ? e.failures : [e], unfinished());
    });
  }

  /** A resource's URN in this stack. */
  private readonly urnOf = (type: string, name: string): string => `urn:pulumi:${this.stack}::${this.project}::${type}::${name}`;

  private async deploy(program: Program, preview: boolean): Promise<RunResult> {
    const state = preview ? new Map([...this.state].map(([k, v]) => [k, structuredClone(v)])) : this.state;
    const defaultOlds = this.defaultProviderInState();
    if (!preview) this.savedConfig = { config: { ...this.config }, secretConfig: [...this.secretConfig] };
    this.program = program;
    const { project, stack, config, secretConfig } = this;
    let steps: StepGenerator | undefined;
    const run = async (plugins: CommandPlugins, log: EngineLog) => {
      steps = new StepGenerator(plugins, state, preview, this.urnOf);
      const outputSecretPaths: string[][] = [];
      const outputs = await runProgram(program, { project, stack, config, secretConfig, preview }, steps, outputSecretPaths);
      await steps.finish();
      return { outputs, outputSecretPaths, steps: steps.steps, rpcs: steps.rpcs, messages: log.messages };
    };
    // A default provider not in the state yet is configured at preview with the engine's UnknownID, as a new explicit one.
    const defaultId = preview && Object.keys(defaultOlds).length === 0 ? UNKNOWN_PROVIDER_ID : this.defaultProviderId;
    return this.withPlugin(preview ? "preview" : "up", this.commandConfig(true), run, () => steps?.unfinished() ?? [], defaultOlds, defaultId);
  }
}
