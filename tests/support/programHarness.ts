import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import { type ProviderHost, secret } from "./providerHost";

/**
 * Runs a Pulumi program in-process with `pulumi.runtime.setMocks`, and plays the engine's part for the
 * package's dynamic resources for real: each resource's `__provider` text is loaded exactly as the
 * SDK's provider host loads it (require-from-string, `.handler()`, configure once per text with the
 * host's Config class), then check/diff/create/update/read/delete run against the API (the emulator).
 *
 * State persists between runs, so a program can be deployed, changed (`up` again), refreshed and destroyed.
 * Each run loads the provider texts afresh, like a new plugin process per `pulumi` command.
 */

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const requireFromString = pulumiRequire("require-from-string") as (code: string) => { handler(): pulumi.dynamic.ResourceProvider };
const { Config: HostConfig } = pulumiRequire("@pulumi/pulumi/cmd/dynamic-provider/config") as {
  Config: new (raw: Record<string, string>, project: string) => pulumi.dynamic.Config;
};
const settings = pulumiRequire("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> };

const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

type Plain = Record<string, unknown>;

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
  /** Input keys that were secret: the engine re-marks outputs under the same keys as secret. */
  secretKeys: string[];
}

export type Operation = "create" | "update" | "replace" | "same" | "delete" | "refresh" | "gone";

export interface Step {
  op: Operation;
  urn: string;
}

export interface RunResult {
  /** The stack outputs the program returned (secrets as plain values). */
  outputs: Plain;
  steps: Step[];
}

export interface HarnessOptions {
  project?: string;
  stack?: string;
  /** Stack config, keys with namespace (`bunnynet:apiKey`). */
  config?: Record<string, string>;
  /** Config keys stored as secrets. */
  secretConfig?: string[];
  /**
   * Drive the resources through the SDK's real provider host process over gRPC (as the engine does)
   * instead of loading the provider texts in this process.
   */
  providerHost?: ProviderHost;
}

type Program = () => unknown;

function isSecretEnvelope(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Plain)[SECRET_SIG_KEY] === SECRET_SIG;
}

/** What the engine sends a provider that does not accept secrets: the plain values. */
function unwrapSecrets(value: unknown): unknown {
  if (isSecretEnvelope(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapSecrets(v)]));
  return value;
}

function containsSecret(value: unknown): boolean {
  if (isSecretEnvelope(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsSecret);
  return false;
}

function withoutProvider(props: Plain): Plain {
  const rest = { ...props };
  delete rest.__provider;
  return rest;
}

export class ProgramHarness {
  readonly project: string;
  readonly stack: string;
  private config: Record<string, string>;
  private secretConfig: string[];
  /** By URN, in creation order (destroy goes in reverse). */
  private readonly state = new Map<string, StoredResource>();
  private loaded = new Map<string, Promise<pulumi.dynamic.ResourceProvider>>();
  private readonly host?: ProviderHost;
  private hostConfigured?: Promise<void>;

  constructor(options: HarnessOptions = {}) {
    this.project = options.project ?? "bunnynet-program";
    this.stack = options.stack ?? "test";
    this.config = { ...(options.config ?? {}) };
    this.secretConfig = [...(options.secretConfig ?? [])];
    this.host = options.providerHost;
  }

  /** Replaces the stack config (for the next run). */
  setConfig(config: Record<string, string>, secretConfig: string[] = []): void {
    this.config = { ...config };
    this.secretConfig = [...secretConfig];
  }

  resources(): StoredResource[] {
    return [...this.state.values()];
  }

  resource(type: string, name: string): StoredResource | undefined {
    return this.resources().find((r) => r.type === type && r.name === name);
  }

  /** `pulumi up`: runs the program, creating, updating, replacing and deleting resources to match it. */
  async up(program: Program): Promise<RunResult> {
    this.newProcess();
    const steps: Step[] = [];
    const seen = new Set<string>();
    const deleteAfter: StoredResource[] = [];
    const outputs = await this.run(program, async (args) => {
      const urn = this.urn(args.type, args.name);
      seen.add(urn);
      const news = unwrapSecrets(args.inputs) as Plain;
      const text = String(news.__provider);
      const secretKeys = Object.keys(args.inputs).filter((k) => k !== "__provider" && containsSecret(args.inputs[k]));
      const provider = await this.provider(text, args.type);
      const prior = this.state.get(urn);
      const checked = provider.check ? await provider.check(prior?.inputs ?? {}, withoutProvider(news)) : { inputs: news };
      if (checked.failures && checked.failures.length > 0) {
        throw new Error(`${urn}: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
      }
      const inputs = withoutProvider(checked.inputs ?? news);
      const record = (id: string, outs: Plain | undefined, op: Operation): StoredResource => {
        const stored: StoredResource = { urn, type: args.type, name: args.name, id, inputs, outputs: withoutProvider(outs ?? {}), providerText: text, secretKeys };
        this.state.set(urn, stored);
        steps.push({ op, urn });
        return stored;
      };
      const withText = { ...inputs, __provider: text };
      if (!prior) {
        const created = await provider.create(withText);
        return record(created.id, created.outs, "create");
      }
      const oldOutputs = { ...prior.outputs, __provider: prior.providerText };
      const diff = provider.diff ? await provider.diff(prior.id, oldOutputs, withText) : { changes: true };
      if (diff.changes === false) return record(prior.id, prior.outputs, "same");
      if (diff.replaces && diff.replaces.length > 0) {
        if (diff.deleteBeforeReplace) await this.deleteResource(prior);
        else deleteAfter.push(prior);
        const created = await provider.create(withText);
        return record(created.id, created.outs, "replace");
      }
      if (!provider.update) throw new Error(`${urn}: changes in place but its provider has no update`);
      const updated = await provider.update(prior.id, oldOutputs, withText);
      return record(prior.id, updated.outs, "update");
    });
    // Like the engine: replaced objects go after the new ones exist, then whatever the program no longer declares.
    for (const old of deleteAfter) await this.deleteResource(old);
    for (const r of [...this.state.values()].reverse()) {
      if (seen.has(r.urn)) continue;
      await this.deleteResource(r);
      this.state.delete(r.urn);
      steps.push({ op: "delete", urn: r.urn });
    }
    return { outputs, steps };
  }

  /** `pulumi refresh`: reads every resource; gone ones leave the state, changed ones take the real values (outputs and inputs). */
  async refresh(): Promise<Step[]> {
    this.newProcess();
    const steps: Step[] = [];
    for (const r of [...this.state.values()]) {
      const provider = await this.provider(r.providerText, r.type);
      if (!provider.read) continue;
      const result = await provider.read(r.id, { ...r.outputs, __provider: r.providerText });
      if (!result.id) {
        this.state.delete(r.urn);
        steps.push({ op: "gone", urn: r.urn });
        continue;
      }
      r.id = result.id;
      r.outputs = withoutProvider(result.props ?? {});
      if (result.inputs) r.inputs = withoutProvider(result.inputs);
      steps.push({ op: "refresh", urn: r.urn });
    }
    return steps;
  }

  /** `pulumi destroy`: deletes every resource, newest first. */
  async destroy(): Promise<Step[]> {
    this.newProcess();
    const steps: Step[] = [];
    for (const r of [...this.state.values()].reverse()) {
      await this.deleteResource(r);
      this.state.delete(r.urn);
      steps.push({ op: "delete", urn: r.urn });
    }
    return steps;
  }

  private async deleteResource(r: StoredResource): Promise<void> {
    const provider = await this.provider(r.providerText, r.type);
    if (provider.delete) await provider.delete(r.id, { ...r.outputs, __provider: r.providerText });
  }

  private urn(type: string, name: string): string {
    return `urn:pulumi:${this.stack}::${this.project}::${type}::${name}`;
  }

  /** A new plugin process: provider texts are loaded and configured again. */
  private newProcess(): void {
    this.loaded = new Map();
    this.hostConfigured = undefined;
  }

  /** Exactly as the SDK's host does: cached per text before configure completes; configure with the whole stack config. */
  private provider(text: string, type: string): Promise<pulumi.dynamic.ResourceProvider> {
    if (this.host) return this.hostProvider(this.host, type);
    let provider = this.loaded.get(text);
    if (!provider) {
      const handler = requireFromString(text).handler();
      const config = new HostConfig({ ...this.config }, this.project);
      provider = Promise.resolve(handler.configure?.({ config })).then(() => handler);
      this.loaded.set(text, provider);
    }
    return provider;
  }

  /** The provider of one type as the real host serves it: every call goes over gRPC, configure first. */
  private async hostProvider(host: ProviderHost, token: string): Promise<pulumi.dynamic.ResourceProvider> {
    const config = Object.fromEntries(Object.entries(this.config).map(([k, v]) => [k, this.secretConfig.includes(k) ? secret(v) : v]));
    await (this.hostConfigured ??= host.configure(config));
    const type = token.slice(token.lastIndexOf(":") + 1);
    return {
      check: (olds, news) => host.check(type, olds, news),
      diff: async (id, olds, news) => {
        const d = await host.diff(type, id, olds, news, olds);
        return { changes: d.changes === "some" ? true : d.changes === "none" ? false : undefined, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
      },
      create: async (inputs) => {
        const created = await host.create(type, inputs);
        return { id: created.id, outs: created.outputs };
      },
      read: async (id, props) => {
        const read = await host.read(type, id, props ?? {}, props ?? {});
        return { id: read.id || undefined, props: read.outputs, inputs: read.inputs };
      },
      update: async (id, olds, news) => ({ outs: await host.update(type, id, olds, news, olds) }),
      delete: (id, props) => host.delete(type, id, props, props),
    };
  }

  /** Runs the program as a stack with mocks whose newResource calls `register` for the package's resources. */
  private async run(program: Program, register: (args: pulumi.runtime.MockResourceArgs) => Promise<StoredResource>): Promise<Plain> {
    const failures: unknown[] = [];
    const mocks: pulumi.runtime.Mocks = {
      newResource: async (args) => {
        if (!args.type.startsWith(DYNAMIC_PREFIX)) {
          if (args.custom) throw new Error(`the program harness only runs dynamic resources, not ${args.type}`);
          return { id: undefined, state: args.inputs };
        }
        try {
          const stored = await register(args);
          const state: Plain = { ...stored.outputs };
          for (const k of stored.secretKeys) if (k in state) state[k] = { [SECRET_SIG_KEY]: SECRET_SIG, value: state[k] };
          return { id: stored.id, state };
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
    await pulumi.runtime.setMocks(mocks, this.project, this.stack, false);
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
