import { typeToken } from "bunnynet-pulumi/dist/pulumi/index.js";
import { CommandPlugins, providerConfig } from "./commandPlugin";
import type { Program, RunResult, Step, StoredResource } from "./deploymentTypes";
import type { HostOptions } from "./pluginProcess";
import { CommandFailedError } from "./engineMessages";
import { DYNAMIC_PROVIDER_TYPE, StepsFailed, runProgram } from "./programRun";
import { projectDirectory } from "./projectPaths";
import { isolatedCommand } from "./pulumiRuntime";
import type { ProviderHost } from "./providerHost";
import { StepGenerator, destroySteps, refreshSteps } from "./stepGenerator";
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
 *   providers from the old state), unless the program runs first (`--run-program`).
 * - The state between commands, so a program can be previewed, deployed, changed, refreshed and destroyed:
 *
 *   const emu = await startEmulator();                       // ./emulator.ts
 *   const stack = new ProgramHarness({ project, config: { "bunnynet:apiKey": key, "bunnynet:apiUrl": emu.url },
 *     secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir, main } });
 *   (await stack.preview(program)).steps;                     // [{ op: "create", urn }], rpcs: only "check"
 *   await stack.up(program);  await stack.refresh();  await stack.destroy();
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
   * configures each provider text once per process, so config changes between commands do not reach it).
   */
  providerHost?: ProviderHost;
  /**
   * Start a new provider host for each command, as the engine starts a new plugin process (with these options:
   * the project's directory, `main` if not the one its Pulumi.yaml names, environment). The program and the plugin
   * run where that `main` says, as under the engine. The faithful mode; config changes apply as they would.
   */
  hostPerCommand?: Omit<HostOptions, "project">;
}

export class ProgramHarness {
  readonly project: string;
  readonly stack: string;
  private config: Record<string, string>;
  private secretConfig: string[];
  /** The config the last `up` saved in state with the default provider: what refresh and destroy configure it with. */
  private savedConfig?: { config: Record<string, string>; secretConfig: string[] };
  /** By URN, in creation order (destroy goes in reverse). */
  private readonly state = new Map<string, StoredResource>();
  private readonly options: HarnessOptions;

  constructor(options: HarnessOptions = {}) {
    this.project = options.project ?? "bunnynet-program";
    this.stack = options.stack ?? "test";
    this.config = { ...(options.config ?? {}) };
    this.secretConfig = [...(options.secretConfig ?? [])];
    this.options = options;
  }

  /** Replaces the stack config (`pulumi config set`), for the next command. */
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

  /** `pulumi preview`: Check and Diff only; nothing is created, changed or stored. */
  preview(program: Program): Promise<RunResult> {
    return this.deploy(program, true);
  }

  /** `pulumi up`: runs the program, creating, updating, replacing and deleting resources to match it. */
  up(program: Program): Promise<RunResult> {
    return this.deploy(program, false);
  }

  /**
   * `pulumi refresh`: reads every resource; gone ones leave the state, changed ones take the real values (outputs
   * and inputs). Configured with the config saved at the last `up`, or the current one with `runProgram`
   * (`pulumi refresh --run-program`, where the program's default provider carries the current config). Explicit
   * providers (`bunnynet.Provider`) are configured from their inputs saved in state either way: the harness does not
   * run the program here.
   */
  refresh(options: { runProgram?: boolean } = {}): Promise<Step[]> {
    const steps: Step[] = [];
    return this.withPlugin("refresh", this.commandConfig(options.runProgram === true), (plugin) => refreshSteps(plugin, this.state, steps), () => this.notIn(steps));
  }

  /** `pulumi destroy`: deletes every resource, newest first, configured as `refresh` is. */
  destroy(options: { runProgram?: boolean } = {}): Promise<Step[]> {
    const steps: Step[] = [];
    return this.withPlugin("destroy", this.commandConfig(options.runProgram === true), (plugin) => destroySteps(plugin, this.state, steps), () => this.notIn(steps));
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
    run: (plugins: CommandPlugins) => Promise<T>,
    unfinished: () => string[],
  ): Promise<T> {
    return isolatedCommand(
      () => this.programDirectory(),
      async () => {
        const saved = (urn: string) => {
          const provider = this.state.get(urn);
          return provider?.type === DYNAMIC_PROVIDER_TYPE ? providerConfig(provider.inputs, provider.secretKeys) : undefined;
        };
        const plugins = new CommandPlugins(this.options, config, this.project, saved);
        try {
          return await run(plugins);
        } finally {
          await plugins.close();
        }
      },
    ).catch((e: unknown) => {
      throw new CommandFailedError(command, e instanceof StepsFailed ? e.failures : [e], unfinished());
    });
  }

  private async deploy(program: Program, preview: boolean): Promise<RunResult> {
    const state = preview ? new Map([...this.state].map(([k, v]) => [k, structuredClone(v)])) : this.state;
    if (!preview) this.savedConfig = { config: { ...this.config }, secretConfig: [...this.secretConfig] };
    const { project, stack, config, secretConfig } = this;
    const urnOf = (type: string, name: string) => `urn:pulumi:${stack}::${project}::${type}::${name}`;
    let steps: StepGenerator | undefined;
    const run = async (plugins: CommandPlugins) => {
      steps = new StepGenerator(plugins, state, preview, urnOf);
      const outputs = await runProgram(program, { project, stack, config, secretConfig, preview }, steps);
      await steps.finish();
      return { outputs, steps: steps.steps, rpcs: steps.rpcs };
    };
    return this.withPlugin(preview ? "preview" : "up", this.commandConfig(true), run, () => steps?.unfinished() ?? []);
  }
}
