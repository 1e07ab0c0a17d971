import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { typeToken } from "bunnynet-pulumi/dist/pulumi/base.js";
import { type CheckFailure, type DiffAnswer, type Plain, type HostOptions, ProviderHost, Secret, secret, toWire } from "./providerHost";

/**
 * Deploys a Pulumi program the way the Pulumi engine does, without the Pulumi CLI: the program runs in this
 * process with the SDK's mocks (`pulumi.runtime.setMocks`), and each of the package's resources goes through the
 * engine's own sequence of provider calls, served by the SDK's real dynamic-provider host over gRPC (or, without
 * a host, by the provider text loaded in this process exactly as that host loads it).
 *
 * What the engine does, and this harness with it (pulumi/pulumi v3.2xx; files under pkg/ unless said otherwise):
 * - `up`: Check(old inputs, new inputs), then Diff(old outputs, checked inputs, old inputs), then Create, Update or
 *   a replacement (delete first when the provider or the user's `deleteBeforeReplace` says so, otherwise after the
 *   new object exists), and Delete(old outputs, old inputs) for what the program no longer declares
 *   (resource/deploy/step_generator.go, generateSteps and diff; step.go). `ignoreChanges` takes the old inputs'
 *   values before Check (step_generator.go, processIgnoreChanges).
 * - `preview`: Check and Diff only. The dynamic host does not support preview (its ConfigureResponse sets no
 *   supportsPreview), so Create and Update are never sent and the plan takes the checked inputs as outputs
 *   (resource/plugin/provider_plugin.go, Create and Update with `preview`). Values a new resource would compute
 *   are unknown, at any depth of the inputs that use them.
 * - Check failures are printed by the engine with the program's value of the failure's property, secret or not
 *   (step_generator.go, issueCheckFailures: `inputs[failure.Property]`; sdk/go/common/diag/errors.go,
 *   GetResourcePropertyInvalidValueError): `CheckFailedError` renders them the same way, so a leak shows.
 * - Assets are sent with their contents elided (`{sig, hash}`) in Diff's and Update's old properties, Read and
 *   Delete (resource/plugin/provider_plugin.go, `ElideAssetContents`).
 * - The provider is configured with the whole stack config (resource/deploy/target.go, GetPackageConfig: all keys
 *   for dynamic providers), saved in state as the default provider's inputs at each `up`. Refresh and destroy
 *   configure it from that saved config, not the current one (resource/deploy/providers/registry.go loads
 *   providers from the old state), unless the program runs first (`--run-program`).
 * - The plugin runs in the directory of `main` (engine/project.go, getPwdMain): see `pluginDirectory`.
 * - `replaceOnChanges` acts only on the changed keys or detailed diff a provider reports (step_generator.go,
 *   applyReplaceOnChanges); the dynamic host reports neither, so it changes nothing, here as there.
 *
 * State persists between commands, so a program can be previewed, deployed, changed, refreshed and destroyed:
 *
 *   const emu = await startEmulator();                       // ./emulator.ts
 *   const stack = new ProgramHarness({ project, config: { "bunnynet:apiKey": key, "bunnynet:apiUrl": emu.url },
 *     secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir, main } });
 *   (await stack.preview(program)).steps;                     // [{ op: "create", urn }], rpcs: only "check"
 *   await stack.up(program);  await stack.refresh();  await stack.destroy();
 *   await emu.requests();                                     // the API calls made (the emulator's request log)
 */

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const requireFromString = pulumiRequire("require-from-string") as (code: string) => { handler(): pulumi.dynamic.ResourceProvider };
const { Config: HostConfig } = pulumiRequire("@pulumi/pulumi/cmd/dynamic-provider/config") as {
  Config: new (raw: Record<string, string>, project: string) => pulumi.dynamic.Config;
};
const settings = pulumiRequire("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void>; getMonitor(): MonitorLike };
const rpc = pulumiRequire("@pulumi/pulumi/runtime/rpc") as { serializeProperties(label: string, props: Plain): Promise<Plain>; deserializeProperties(struct: unknown): Plain };
const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb") as { Struct: { fromJavaScript(value: Plain): unknown } };

const { specialSigKey: SIG_KEY, specialSecretSig: SECRET_SIG, specialAssetSig: ASSET_SIG } = pulumi.runtime;
/** The engine's placeholder for a value not known yet (preview). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";
const PROVIDER_KEY = "__provider";

/** A Pulumi program: a function that declares resources and returns the stack's outputs. */
export type Program = () => unknown;

export interface StoredResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** Checked inputs, as the engine stores them (without `__provider`). */
  inputs: Plain;
  /** Outputs, as the engine stores them (without `__provider`). */
  outputs: Plain;
  /** The serialized provider the resource was last written with. */
  providerText: string;
  /** Output keys the engine stores as secrets: inputs that were secret, and `additionalSecretOutputs`. */
  secretKeys: string[];
  /** The resource options the engine keeps in state and applies at delete. */
  options: Pick<ResourceOptions, "protect" | "retainOnDelete">;
}

export type Operation = "create" | "update" | "replace" | "same" | "delete" | "refresh" | "gone";

export interface Step {
  op: Operation;
  urn: string;
}

/** One provider RPC the harness sent, in order (`pulumi preview` must send only check and diff). */
export interface Rpc {
  method: "check" | "diff" | "create" | "read" | "update" | "delete";
  urn: string;
}

export interface RunResult {
  /** The stack outputs the program returned (secrets as plain values; unknown at preview as `undefined`). */
  outputs: Plain;
  steps: Step[];
  rpcs: Rpc[];
}

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
   * the project's directory and `main`, environment). The faithful mode; config changes apply as they would.
   */
  hostPerCommand?: Omit<HostOptions, "project">;
}

/** The options of a resource registration that the engine applies (the rest do not reach the provider). */
export interface ResourceOptions {
  ignoreChanges: string[];
  replaceOnChanges: string[];
  /** Undefined when the program did not set it (the provider's answer applies). */
  deleteBeforeReplace?: boolean;
  protect: boolean;
  retainOnDelete: boolean;
  additionalSecretOutputs: string[];
}

/** Check failures, as the engine prints them (one line each), after which the step does not run. */
export class CheckFailedError extends Error {
  constructor(
    readonly urn: string,
    readonly failures: CheckFailure[],
    readonly lines: string[],
  ) {
    super(lines.join("\n"));
    this.name = "CheckFailedError";
  }
}

/** The engine's message for a check failure: `%v resource '%v's property '%v' value %v has a problem: %v`. */
function engineCheckMessage(typeToken: string, name: string, failure: CheckFailure, programInputs: Plain): string {
  if (!failure.property) return `${typeToken} resource '${name}' has a problem: ${failure.reason}`;
  return `${typeToken} resource '${name}'s property '${failure.property}' value {${goValue(programInputs[failure.property])}} has a problem: ${failure.reason}`;
}

/** A property value as Go's `%v` prints the engine's PropertyValue.V (a secret as its struct, value included). */
function goValue(value: unknown): string {
  if (value instanceof Secret) return `&{{${goValue(value.value)}}}`;
  if (value === undefined || value === null) return "<nil>";
  if (value === UNKNOWN) return "output<string>{}";
  if (Array.isArray(value)) return `[${value.map((v) => `{${goValue(v)}}`).join(" ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Plain).sort(([a], [b]) => a.localeCompare(b));
    return `map[${entries.map(([k, v]) => `${k}:{${goValue(v)}}`).join(" ")}]`;
  }
  return String(value);
}

/** The plugin side of one command: the provider RPCs with what the engine puts in them (`__provider` included). */
interface PluginProcess {
  check(type: string, name: string, olds: Plain, news: Plain): Promise<{ inputs: Plain; failures: CheckFailure[] }>;
  diff(type: string, name: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain): Promise<DiffAnswer>;
  create(type: string, name: string, inputs: Plain): Promise<{ id: string; outputs: Plain }>;
  read(type: string, name: string, id: string, outputs: Plain, inputs: Plain): Promise<{ id: string; outputs: Plain; inputs?: Plain }>;
  update(type: string, name: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain): Promise<Plain>;
  delete(type: string, name: string, id: string, outputs: Plain, oldInputs: Plain): Promise<void>;
  close(): Promise<void>;
}

const shortType = (token: string) => token.slice(token.lastIndexOf(":") + 1);

/** The real provider host over gRPC, configured once with the stack config as the engine sends it. */
async function hostProcess(host: ProviderHost, config: Record<string, string | Secret<string>>, stop: boolean): Promise<PluginProcess> {
  await host.configure(config);
  return {
    check: (type, name, olds, news) => host.check(shortType(type), olds, news, name),
    diff: (type, name, id, oldOutputs, news, oldInputs) => host.diff(shortType(type), id, oldOutputs, news, oldInputs, name),
    create: (type, name, inputs) => host.create(shortType(type), inputs, name),
    read: (type, name, id, outputs, inputs) => host.read(shortType(type), id, outputs, inputs, name),
    update: (type, name, id, oldOutputs, news, oldInputs) => host.update(shortType(type), id, oldOutputs, news, oldInputs, name),
    delete: (type, name, id, outputs, oldInputs) => host.delete(shortType(type), id, outputs, oldInputs, name),
    close: async () => {
      if (stop) await host.stop();
    },
  };
}

/**
 * The provider texts loaded in this process as the SDK's host loads them (cmd/dynamic-provider/index.js,
 * getProvider: require-from-string, `.handler()`, configure once per text), and its RPC handlers' calls.
 */
function inProcess(config: Record<string, string | Secret<string>>, project: string): PluginProcess {
  const loaded = new Map<string, Promise<pulumi.dynamic.ResourceProvider>>();
  const raw = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v instanceof Secret ? v.value : v]));
  const provider = (props: Plain) => {
    const text = String(props[PROVIDER_KEY]);
    let p = loaded.get(text);
    if (!p) {
      const handler = requireFromString(text).handler();
      p = Promise.resolve(handler.configure?.({ config: new HostConfig(raw, project) })).then(() => handler);
      loaded.set(text, p);
    }
    return p;
  };
  const stripped = (props: Plain | undefined) => withoutProvider(JSON.parse(JSON.stringify(props ?? {})) as Plain);
  return {
    async check(_type, _name, olds, news) {
      const p = await provider(news);
      const result = p.check ? await p.check(olds, news) : { inputs: news };
      return { inputs: stripped(result.inputs ?? news), failures: (result.failures ?? []).map((f) => ({ property: f.property, reason: f.reason })) };
    },
    async diff(_type, _name, id, oldOutputs, news) {
      const p = await provider(news);
      const d = p.diff ? await p.diff(id, oldOutputs, news) : {};
      const changes = d.changes === true ? "some" : d.changes === false ? "none" : "unknown";
      return { changes, replaces: d.replaces ?? [], deleteBeforeReplace: d.deleteBeforeReplace ?? false };
    },
    async create(_type, _name, inputs) {
      const created = await (await provider(inputs)).create(inputs);
      return { id: created.id, outputs: stripped(created.outs) };
    },
    async read(_type, _name, id, outputs) {
      const p = await provider(outputs);
      if (!p.read) return { id, outputs: stripped(outputs) };
      const result = await p.read(id, outputs);
      return { id: result.id ?? "", outputs: stripped(result.props), inputs: result.inputs ? stripped(result.inputs) : undefined };
    },
    async update(_type, _name, id, oldOutputs, news) {
      const p = await provider(news);
      return stripped(p.update ? (await p.update(id, oldOutputs, news)).outs : {});
    },
    async delete(_type, _name, id, outputs) {
      const p = await provider(outputs);
      if (p.delete) await p.delete(id, outputs);
    },
    close: async () => undefined,
  };
}

/* The part of the SDK's resource monitor the harness listens to, to see each registration's options. */
type RegisterRequest = Record<string, () => unknown>;
interface MonitorLike {
  registerResource(req: RegisterRequest, callback: unknown): unknown;
}

function optionsOf(req: RegisterRequest): ResourceOptions {
  return {
    ignoreChanges: req.getIgnorechangesList() as string[],
    replaceOnChanges: req.getReplaceonchangesList() as string[],
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? (req.getDeletebeforereplace() as boolean) : undefined,
    protect: req.getProtect() === true,
    retainOnDelete: req.getRetainondelete() === true,
    additionalSecretOutputs: req.getAdditionalsecretoutputsList() as string[],
  };
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
   * (`pulumi refresh --run-program`, where the program's default provider carries the current config).
   */
  async refresh(options: { runProgram?: boolean } = {}): Promise<Step[]> {
    const steps: Step[] = [];
    await this.withPlugin(this.commandConfig(options.runProgram === true), async (plugin) => {
      for (const r of [...this.state.values()]) {
        const read = await plugin.read(r.type, r.name, r.id, elideAssets(this.withText(r.outputs, r)), elideAssets(this.withText(r.inputs, r)));
        if (!read.id) {
          this.state.delete(r.urn);
          steps.push({ op: "gone", urn: r.urn });
          continue;
        }
        r.id = read.id;
        r.outputs = withoutProvider(read.outputs);
        if (read.inputs) r.inputs = withoutProvider(read.inputs);
        steps.push({ op: "refresh", urn: r.urn });
      }
    });
    return steps;
  }

  /** `pulumi destroy`: deletes every resource, newest first, configured as `refresh` is. */
  async destroy(options: { runProgram?: boolean } = {}): Promise<Step[]> {
    const steps: Step[] = [];
    await this.withPlugin(this.commandConfig(options.runProgram === true), async (plugin) => {
      for (const r of [...this.state.values()].reverse()) {
        await this.deleteResource(plugin, r, []);
        steps.push({ op: "delete", urn: r.urn });
      }
    });
    return steps;
  }

  /** The config a command's provider gets: the current one for up and preview, the saved one otherwise. */
  private commandConfig(current: boolean): Record<string, string | Secret<string>> {
    const { config, secretConfig } = current || !this.savedConfig ? { config: this.config, secretConfig: this.secretConfig } : this.savedConfig;
    return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, secretConfig.includes(k) ? secret(v) : v]));
  }

  /** One command's plugin process: the shared host, a new host, or the provider texts in this process. */
  private async withPlugin<T>(config: Record<string, string | Secret<string>>, run: (plugin: PluginProcess) => Promise<T>): Promise<T> {
    let plugin: PluginProcess;
    if (this.options.providerHost) plugin = await hostProcess(this.options.providerHost, config, false);
    else if (this.options.hostPerCommand) plugin = await hostProcess(await ProviderHost.start({ ...this.options.hostPerCommand, project: this.project }), config, true);
    else plugin = inProcess(config, this.project);
    try {
      return await run(plugin);
    } finally {
      await plugin.close();
    }
  }

  private withText(props: Plain, r: { providerText: string }): Plain {
    return { ...props, [PROVIDER_KEY]: r.providerText };
  }

  private async deploy(program: Program, preview: boolean): Promise<RunResult> {
    const steps: Step[] = [];
    const rpcs: Rpc[] = [];
    const seen = new Set<string>();
    const deleteAfter: StoredResource[] = [];
    const state = preview ? new Map([...this.state].map(([k, v]) => [k, structuredClone(v)])) : this.state;
    if (!preview) this.savedConfig = { config: { ...this.config }, secretConfig: [...this.secretConfig] };
    const outputs = await this.withPlugin(this.commandConfig(true), (plugin) =>
      this.run(program, preview, async (args, options) => {
        const urn = this.urn(args.type, args.name);
        seen.add(urn);
        const text = String(unwrapSecrets(args.inputs[PROVIDER_KEY]));
        const programInputs = withoutProvider((await fromProgram(args.inputs)) as Plain);
        const prior = state.get(urn);
        const news = ignoringChanges(programInputs, prior?.inputs, options.ignoreChanges);
        const secretKeys = [...new Set([...Object.keys(news).filter((k) => containsSecret(news[k])), ...options.additionalSecretOutputs])];
        const wire = (props: Plain) => ({ ...(toWire(props) as Plain), [PROVIDER_KEY]: text });

        rpcs.push({ method: "check", urn });
        const checked = await plugin.check(args.type, args.name, prior ? this.withText(prior.inputs, prior) : {}, wire(news));
        if (checked.failures.length > 0) {
          throw new CheckFailedError(urn, checked.failures, checked.failures.map((f) => engineCheckMessage(args.type, args.name, f, news)));
        }
        const inputs = withoutProvider(checked.inputs);
        const record = (id: string, outs: Plain, op: Operation): StoredResource => {
          const stored: StoredResource = {
            urn, type: args.type, name: args.name, id, inputs, outputs: withoutProvider(outs), providerText: text, secretKeys,
            options: { protect: options.protect, retainOnDelete: options.retainOnDelete },
          };
          state.set(urn, stored);
          steps.push({ op, urn });
          return stored;
        };
        const withText = { ...inputs, [PROVIDER_KEY]: text };
        const create = async (op: Operation) => {
          if (preview) return record("", inputs, op);
          rpcs.push({ method: "create", urn });
          const created = await plugin.create(args.type, args.name, withText);
          return record(created.id, created.outputs, op);
        };
        if (!prior) return create("create");

        rpcs.push({ method: "diff", urn });
        const oldOutputs = elideAssets(this.withText(prior.outputs, prior));
        const oldInputs = elideAssets(this.withText(prior.inputs, prior));
        const diff = await plugin.diff(args.type, args.name, prior.id, oldOutputs, withText, oldInputs);
        // An unknown answer is decided by comparing old and new inputs (step_generator.go, diff).
        const changed = diff.changes === "some" || (diff.changes === "unknown" && JSON.stringify(prior.inputs) !== JSON.stringify(inputs));
        if (!changed) return record(prior.id, prior.outputs, "same");
        if (diff.replaces.length > 0) {
          // The user's option, when set, wins over the provider's answer (step_generator.go, generateSteps).
          if (options.deleteBeforeReplace ?? diff.deleteBeforeReplace) {
            if (!preview) await this.deleteResource(plugin, prior, rpcs);
          } else deleteAfter.push(prior);
          return create("replace");
        }
        if (preview) return record(prior.id, inputs, "update");
        rpcs.push({ method: "update", urn });
        return record(prior.id, await plugin.update(args.type, args.name, prior.id, oldOutputs, withText, oldInputs), "update");
      }).then(async (programOutputs) => {
        // Replaced objects go once the new ones exist, then whatever the program no longer declares, newest first.
        for (const old of deleteAfter) if (!preview) await this.deleteResource(plugin, old, rpcs, false);
        for (const r of [...state.values()].reverse()) {
          if (seen.has(r.urn)) continue;
          if (!preview) await this.deleteResource(plugin, r, rpcs);
          steps.push({ op: "delete", urn: r.urn });
        }
        return programOutputs;
      }),
    );
    return { outputs, steps, rpcs };
  }

  /** Delete(outputs, old inputs), unless the options keep the object; `protect` refuses (resource/deploy/step.go). */
  private async deleteResource(plugin: PluginProcess, r: StoredResource, rpcs: Rpc[], leavesState = true): Promise<void> {
    if (r.options.protect) throw new Error(`${r.urn}: the resource is protected; set protect: false and run up first, then delete it`);
    if (!r.options.retainOnDelete) {
      rpcs.push({ method: "delete", urn: r.urn });
      await plugin.delete(r.type, r.name, r.id, elideAssets(this.withText(r.outputs, r)), elideAssets(this.withText(r.inputs, r)));
    }
    if (leavesState) this.state.delete(r.urn);
  }

  private urn(type: string, name: string): string {
    return `urn:pulumi:${this.stack}::${this.project}::${type}::${name}`;
  }

  /** Runs the program as a stack with mocks whose newResource calls `register` for the package's resources. */
  private async run(
    program: Program,
    preview: boolean,
    register: (args: pulumi.runtime.MockResourceArgs, options: ResourceOptions) => Promise<StoredResource>,
  ): Promise<Plain> {
    const failures: unknown[] = [];
    const registered = new Map<string, ResourceOptions>();
    const mocks: pulumi.runtime.Mocks = {
      newResource: async (args) => {
        if (!args.type.startsWith(DYNAMIC_PREFIX)) {
          if (args.custom) throw new Error(`the program harness only runs dynamic resources, not ${args.type}`);
          return { id: undefined, state: args.inputs };
        }
        try {
          const stored = await register(args, registered.get(`${args.type}::${args.name}`)!);
          const state: Plain = { ...stored.outputs };
          // The engine marks outputs secret under the keys whose inputs were secret, and additionalSecretOutputs.
          for (const k of stored.secretKeys) if (k in state) state[k] = { [SIG_KEY]: SECRET_SIG, value: state[k] };
          await assertProgramCanRead(stored.urn, state);
          return { id: stored.id || undefined, state };
        } catch (e) {
          failures.push(e);
          throw e;
        }
      },
      call: async (args) => {
        throw new Error(`unknown function ${args.token}: dynamic providers serve no invokes`);
      },
    };
    pulumi.runtime.setAllConfig({ ...this.config }, this.secretConfig);
    await pulumi.runtime.setMocks(mocks, this.project, this.stack, preview);
    const monitor = settings.getMonitor();
    const registerResource = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req, callback) => {
      registered.set(`${String(req.getType())}::${String(req.getName())}`, optionsOf(req));
      return registerResource(req, callback);
    };
    let outputs: Plain = {};
    let programError: unknown;
    try {
      outputs = ((await pulumi.runtime.runInPulumiStack(async () => program())) ?? {}) as Plain;
    } catch (e) {
      programError = e;
    }
    await settings.waitForRPCs();
    if (failures.length > 0) throw failures.length === 1 ? failures[0] : new AggregateError(failures, failures.map(String).join("\n"));
    if (programError) throw programError;
    return outputs;
  }
}

/**
 * The SDK reads the outputs back in the program; what it cannot read (an asset without contents) fails inside its
 * registration and leaves the program waiting for ever. Refused here instead, naming the resource.
 */
async function assertProgramCanRead(urn: string, state: Plain): Promise<void> {
  try {
    rpc.deserializeProperties(Struct.fromJavaScript(await rpc.serializeProperties(urn, state)));
  } catch (e) {
    throw new Error(`${urn}: the program cannot read the outputs the provider answered: ${(e as Error).message}`, { cause: e });
  }
}

function isSecretEnvelope(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Plain)[SIG_KEY] === SECRET_SIG;
}

/** The program's inputs as the engine has them: secrets as `Secret`, unknowns as the placeholder, assets in their wire form. */
async function fromProgram(value: unknown): Promise<unknown> {
  if (pulumi.isUnknown(value)) return UNKNOWN;
  if (isSecretEnvelope(value)) return new Secret(await fromProgram(value.value));
  if (pulumi.asset.Asset.isInstance(value) || pulumi.asset.Archive.isInstance(value)) {
    const { wire } = (await pulumi.runtime.serializeProperties("asset", { wire: value })) as { wire: Plain };
    return Object.fromEntries(Object.entries(wire).filter(([k]) => !k.startsWith("__pulumi")));
  }
  if (Array.isArray(value)) return Promise.all((value as unknown[]).map(fromProgram));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await fromProgram(v)])));
  }
  return value;
}

function unwrapSecrets(value: unknown): unknown {
  return isSecretEnvelope(value) ? value.value : value;
}

function containsSecret(value: unknown): boolean {
  if (value instanceof Secret) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsSecret);
  return false;
}

function withoutProvider(props: Plain): Plain {
  const rest = { ...props };
  delete rest[PROVIDER_KEY];
  return rest;
}

/** `ignoreChanges`: each path (`a` or `a.b`) takes the old inputs' value, or is removed when there was none. */
function ignoringChanges(news: Plain, olds: Plain | undefined, paths: string[]): Plain {
  if (!olds || paths.length === 0) return news;
  const result = { ...news };
  for (const path of paths) {
    const keys = path.split(".");
    let from: unknown = olds;
    for (const k of keys) from = from !== null && typeof from === "object" ? (from as Plain)[k] : undefined;
    // Copies the objects along the path only: the values may be `Secret`s, which a deep clone would turn into plain objects.
    let to = result;
    for (const k of keys.slice(0, -1)) {
      to[k] = typeof to[k] === "object" && to[k] !== null ? { ...(to[k] as Plain) } : {};
      to = to[k] as Plain;
    }
    const last = keys[keys.length - 1];
    if (from === undefined) delete to[last];
    else to[last] = structuredClone(from);
  }
  return result;
}

/** Assets as the engine sends them in old properties: the signature and the hash of the contents only. */
function elideAssets(value: Plain): Plain {
  const elide = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(elide);
    if (v === null || typeof v !== "object") return v;
    const o = v as Plain;
    if (o[SIG_KEY] === ASSET_SIG) return { [SIG_KEY]: ASSET_SIG, hash: o.hash ?? assetHash(o) };
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, elide(x)]));
  };
  return elide(value) as Plain;
}

/** The engine's asset hash: sha256 of the contents, hex. */
function assetHash(asset: Plain): string | undefined {
  const bytes = typeof asset.text === "string" ? Buffer.from(asset.text) : typeof asset.path === "string" ? readFileSync(resolve(asset.path)) : undefined;
  return bytes && createHash("sha256").update(bytes).digest("hex");
}
