import type * as pulumi from "@pulumi/pulumi";
import type { EngineLog } from "./engineLog";
import type { CheckFailure } from "./engineMessages";
import type { HostOptions } from "./pluginProcess";
import { type DiffAnswer, type ProviderIdentity, ProviderHost, type SentRpc } from "./providerHost";
import { pulumiRequire } from "./sdkModules";
import { type ConfigValues, type Plain, Secret, providerTextOf, withoutProvider } from "./wire";

/**
 * The plugin side of one command of the harness: the provider RPCs with what the engine puts in them (`__provider`
 * included), served by the SDK's real host over gRPC (./providerHost.ts), or by the provider texts loaded in this
 * process exactly as that host loads them.
 */

const requireFromString = pulumiRequire("require-from-string") as (code: string) => { handler(): pulumi.dynamic.ResourceProvider };
const { Config: HostConfig } = pulumiRequire("@pulumi/pulumi/cmd/dynamic-provider/config") as {
  Config: new (raw: Record<string, unknown>, project: string) => pulumi.dynamic.Config;
};

export interface CommandPlugin {
  check(type: string, name: string, olds: Plain, news: Plain, oldOutputs?: Plain): Promise<{ inputs: Plain; failures: CheckFailure[] }>;
  /** `ignoreChanges` and the timeouts (seconds, 0: none) as the engine sends them with the call. */
  diff(type: string, name: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain, ignoreChanges?: string[]): Promise<DiffAnswer>;
  create(type: string, name: string, inputs: Plain, timeout?: number): Promise<{ id: string; outputs: Plain }>;
  read(type: string, name: string, id: string, outputs: Plain, inputs: Plain): Promise<{ id: string; outputs: Plain; inputs?: Plain }>;
  update(type: string, name: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain, ignoreChanges?: string[], timeout?: number): Promise<Plain>;
  delete(type: string, name: string, id: string, outputs: Plain, oldInputs: Plain, timeout?: number): Promise<void>;
  close(): Promise<void>;
}

/** Which plugin serves the harness's commands (see HarnessOptions). */
export interface PluginChoice {
  providerHost?: ProviderHost;
  hostPerCommand?: Omit<HostOptions, "project">;
}

/**
 * The plugins of one command, as the engine starts them: one for the default provider (configured with the stack
 * config), and one per explicit provider resource (`bunnynet.Provider`), configured with that provider's inputs
 * (pkg/host/host.go, defaultHost.Provider: a plugin process per provider; resource/deploy/providers/registry.go,
 * Create, Update and Same: Configure with the provider's inputs). An explicit provider's starts when the program
 * registers it (startProvider), the default one's when its first resource needs it.
 */
export class CommandPlugins {
  private readonly started = new Map<string, Promise<CommandPlugin>>();
  /** The explicit providers the program registered this command: their inputs, id, and inputs in state before (CheckConfig's olds). */
  private readonly configs = new Map<string, { config: ConfigValues; id: string; olds: ConfigValues }>();
  /** Every RPC sent to a host this command, in order, with the URN of the provider whose plugin it went to. */
  readonly sent: (SentRpc & { provider: string })[] = [];

  constructor(
    private readonly choice: PluginChoice,
    private readonly defaultConfig: ConfigValues,
    private readonly project: string,
    /** Where what each plugin logs goes (./engineLog.ts). */
    private readonly log: EngineLog,
    /** An explicit provider's config and id saved in state (its inputs at the last `up`), for one the program has not given. */
    private readonly savedConfig: (urn: string) => { config: ConfigValues; id: string } | undefined = () => undefined,
    /** The stack, and the id of its default provider resource (the engine keeps one in state). */
    private readonly stack = "test",
    private readonly defaultProviderId = "",
    /**
     * Set when the default provider takes the current config (up, preview, a command that runs the program): its
     * config in state before (none for a new one), for the CheckConfig the engine sends then. Unset, the default
     * provider is loaded from the state, which the engine configures without CheckConfig.
     */
    private readonly defaultChecked?: { olds: ConfigValues },
  ) {}

  /**
   * The config of the explicit provider `urn` (its inputs) at its Create, Update or Same in `up` and `preview`, before
   * any of its resources uses it. Otherwise (refresh, destroy, deleting what the program no longer declares) the
   * inputs saved in state configure it.
   */
  configure(urn: string, config: ConfigValues, id = "", olds: ConfigValues = {}): void {
    if (this.started.has(urn)) throw new Error(`${urn}: the provider is configured once per command`);
    this.configs.set(urn, { config, id, olds });
  }

  /**
   * Starts and configures the plugin of the explicit provider `urn` now, as the engine does when the provider is
   * registered, whether or not a resource uses it (resource/deploy/providers/registry.go, Create, Update and Same:
   * Configure). Only with `hostPerCommand`: elsewhere an explicit provider cannot have a plugin of its own (see start).
   */
  async startProvider(urn: string): Promise<void> {
    if (this.choice.hostPerCommand) await this.of(urn);
  }

  /** The plugin of the default provider (no `urn`) or of the explicit provider `urn`. */
  of(urn?: string): Promise<CommandPlugin> {
    const key = urn ?? "";
    let plugin = this.started.get(key);
    if (!plugin) {
      plugin = this.start(urn);
      this.started.set(key, plugin);
    }
    return plugin;
  }

  private start(urn: string | undefined): Promise<CommandPlugin> {
    const record = (provider: string) => (rpc: SentRpc) => this.sent.push({ ...rpc, provider });
    if (urn === undefined) {
      const provider = `urn:pulumi:${this.stack}::${this.project}::pulumi:providers:pulumi-nodejs::default`;
      const identity = { urn: provider, name: "default", id: this.defaultProviderId };
      return commandPlugin(this.choice, this.defaultConfig, this.project, this.log, { stack: this.stack, identity, record: record(provider), checked: this.defaultChecked });
    }
    const given = this.configs.get(urn);
    const saved = given ?? this.savedConfig(urn);
    if (!saved) return Promise.reject(new Error(`${urn}: no configuration for this provider (it is neither in the program nor in the state)`));
    // One process cannot serve two configurations: the SDK's host configures each provider text once per process, and
    // this package's implementation of a type is one per process (entry.ts). So a process per provider, as the engine.
    if (!this.choice.hostPerCommand) {
      return Promise.reject(
        new Error(`${urn}: an explicit provider needs a plugin process of its own, as the engine starts one: run the ProgramHarness with hostPerCommand`),
      );
    }
    const identity = { urn, name: urn.slice(urn.lastIndexOf("::") + 2), id: saved.id };
    const checked = given ? { olds: given.olds } : undefined;
    return commandPlugin(this.choice, saved.config, this.project, this.log, { stack: this.stack, identity, record: record(urn), checked });
  }

  /** Stops every plugin this command started (failures to start are the command's, reported where they happened). */
  async close(): Promise<void> {
    const plugins = await Promise.allSettled(this.started.values());
    await Promise.all(plugins.map((p) => (p.status === "fulfilled" ? p.value.close() : undefined)));
  }
}

/** A provider resource's inputs as its plugin is configured with them: the secret ones as secrets. */
export function providerConfig(inputs: Plain, secretKeys: string[]): ConfigValues {
  return Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, secretKeys.includes(k) ? new Secret(String(v)) : v])) as ConfigValues;
}

/**
 * One command's plugin: the shared host, a new host (stopped at close), or the provider texts in this process. What
 * the provider logs reaches `log`: a host's stdout lines until close; in this process, the lines pulumi.log writes
 * (./engineLog.ts).
 */
export async function commandPlugin(
  choice: PluginChoice,
  config: ConfigValues,
  project: string,
  log: EngineLog,
  as: PluginAs = {},
): Promise<CommandPlugin> {
  if (choice.providerHost) return hostPlugin(choice.providerHost, config, false, log, as);
  if (choice.hostPerCommand) return hostPlugin(await ProviderHost.start({ ...choice.hostPerCommand, project, stack: as.stack }), config, true, log, as);
  return inProcessPlugin(config, project);
}

const shortType = (token: string) => token.slice(token.lastIndexOf(":") + 1);

/** Which provider a command's plugin serves, for the requests the engine sends it (see hostPlugin). */
interface PluginAs {
  stack?: string;
  identity?: ProviderIdentity;
  /** Where each RPC sent is recorded. */
  record?: (rpc: SentRpc) => void;
  /** Set when the engine would CheckConfig the provider first (its inputs in state before as `olds`). */
  checked?: { olds: ConfigValues };
}

/**
 * The real provider host over gRPC, configured once with the stack config as the engine sends it; stopped at close
 * when `stop` (its stdout then read to the end). A shared host keeps running: a line it wrote just before the
 * command's end may still be on its way then, and is not the command's.
 */
async function hostPlugin(
  host: ProviderHost,
  config: ConfigValues,
  stop: boolean,
  log: EngineLog,
  as: PluginAs,
): Promise<CommandPlugin> {
  const stopLogging = host.onStdoutLine((line) => log.line(line));
  const stopRecording = as.record ? host.onSent(as.record) : () => undefined;
  const stopListening = () => {
    stopLogging();
    stopRecording();
  };
  try {
    // A plugin process the engine starts is asked for its info, and a provider the program gives is checked, before
    // Configure (provider_plugin.go v3.276, NewProvider; providers/registry.go, Check). The engine's Handshake, which the
    // dynamic host answers UNIMPLEMENTED, names services of the engine's that the kit does not run: not sent.
    if (stop) await host.pluginInfo();
    if (stop && as.checked && as.identity) await host.checkConfig(config, as.checked.olds, as.identity);
    await host.configure(config, as.identity?.id ? as.identity : undefined);
  } catch (e) {
    stopListening();
    if (stop) await host.stop();
    throw e;
  }
  return {
    check: (type, name, olds, news, oldOutputs) => host.check(shortType(type), olds, news, name, oldOutputs),
    diff: (type, name, id, oldOutputs, news, oldInputs, ignoreChanges) => host.diff(shortType(type), id, oldOutputs, news, oldInputs, name, ignoreChanges),
    create: (type, name, inputs, timeout) => host.create(shortType(type), inputs, name, timeout),
    read: (type, name, id, outputs, inputs) => host.read(shortType(type), id, outputs, inputs, name),
    update: (type, name, id, oldOutputs, news, oldInputs, ignoreChanges, timeout) => host.update(shortType(type), id, oldOutputs, news, oldInputs, name, timeout, ignoreChanges),
    delete: (type, name, id, outputs, oldInputs, timeout) => host.delete(shortType(type), id, outputs, oldInputs, name, timeout),
    close: async () => {
      if (stop) {
        // The engine cancels every plugin when the deployment ends; a host that is gone already cannot answer.
        await host.cancel().catch(() => undefined);
        await host.stop();
      }
      stopListening();
    },
  };
}

/**
 * The provider texts loaded in this process as the SDK's host loads them (cmd/dynamic-provider/index.js,
 * getProvider: require-from-string, `.handler()`, configure once per text), and its RPC handlers' calls.
 */
function inProcessPlugin(config: ConfigValues, project: string): CommandPlugin {
  const loaded = new Map<string, Promise<pulumi.dynamic.ResourceProvider>>();
  const raw = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v instanceof Secret ? v.value : v]));
  const provider = (props: Plain) => {
    const text = providerTextOf(props);
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
