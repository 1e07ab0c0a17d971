import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import type * as pulumi from "@pulumi/pulumi";
import { type CommandPlugin, type CommandPlugins, providerConfig } from "./commandPlugin";
import type { Operation, ResourceOptions, Rpc, Step, StoredResource } from "./deploymentTypes";
import { CheckFailedError, engineCheckMessage } from "./engineMessages";
import { type Plain, elideAssets, fromProgram, providerTextOf, secretPathsOf, toWire, topLevelKeys, withProviderText, withSecretsAt, withoutProvider } from "./wire";
import { DYNAMIC_PROVIDER_TYPE, type Registrar, StepsFailed } from "./programRun";
import { OWNER_KEY } from "bunnynet-pulumi/dist/pulumi/index.js";

/**
 * The engine's sequence of provider calls for each command (pulumi/pulumi v3.2xx; files under pkg/ unless said otherwise):
 * - `up`: Check(old inputs, new inputs), then Diff(old outputs, checked inputs, old inputs), then Create, Update or
 *   a replacement (delete first when the provider or the user's `deleteBeforeReplace` says so, otherwise after the
 *   new object exists), and Delete(old outputs, old inputs) for what the program no longer declares
 *   (resource/deploy/step_generator.go, generateSteps and diff; step.go). `ignoreChanges` takes the old inputs'
 *   values before Check (step_generator.go, processIgnoreChanges), and goes with Diff and Update too
 *   (provider_plugin.go v3.276, `IgnoreChanges: req.IgnoreChanges`); `customTimeouts` go with Create and Update (the new
 *   state's) and Delete (the old state's), in seconds (step.go v3.276 ~lines 400, 616, 812). A replacement checks the program's inputs again
 *   with no olds before its delete or create (step_generator.go v3.276 ~line 2101), and creates with those.
 * - `preview`: Check and Diff only. The dynamic host does not support preview (its ConfigureResponse sets no
 *   supportsPreview), so Create and Update are never sent and the plan takes the checked inputs as outputs
 *   (resource/plugin/provider_plugin.go, Create and Update with `preview`). Values a new resource would compute
 *   are unknown, at any depth of the inputs that use them.
 * - `replaceOnChanges` acts only on the changed keys or detailed diff a provider reports (step_generator.go,
 *   applyReplaceOnChanges); the dynamic host reports neither, so it changes nothing, here as there.
 * - `refresh`: Read of every resource, then, for one still there, Diff(the read outputs, the inputs before the read,
 *   the read inputs): the drift an `up` would undo (step.go v3.276, RefreshStep.Apply ~line 1855), every resource at
 *   once (deployment_executor.go v3.276 ~line 951, ExecuteParallel); `destroy`: Delete of every resource, in rounds (destroySteps).
 * - `refresh --run-program` (resource/deploy/deployment_executor.go, Execute: RefreshProgram puts the step generator
 *   in refresh mode): the program runs; a provider it registers goes through its usual steps, so its plugin is
 *   configured with the program's current inputs and the state takes them (step_generator.go, generateSteps: an
 *   InternalRefreshStep for providers, then continueStepsFromRefresh's normal steps; providers/registry.go, Same and
 *   Update configure with the new inputs); a resource it registers is read, without Check, by the provider the
 *   program gives it (NewRefreshStep; step.go, RefreshStep.Provider is the new state's), one not in the state is
 *   skipped (continueStepsFromRefresh, refreshMode: NewSkippedCreateStep); after the program, what it did not register
 *   is read as by `refresh` (GenerateRefreshes).
 * - `destroy --run-program` (Execute: DestroyProgram, destroyMode): the program runs; its providers as above ("we can
 *   use the new inputs for these so that providers get fresh configuration", continueStepsFromRefresh), its resources
 *   are left as they are (a Same of the old state, or a SkippedCreate); then every resource is deleted.
 * - Explicit providers (`bunnynet.Provider`, type `pulumi:providers:pulumi-nodejs`): the provider registry checks,
 *   diffs and creates them (resource/deploy/providers/registry.go). The dynamic host implements neither CheckConfig
 *   nor DiffConfig, so the inputs are taken as they are and a change updates the provider, never replaces it
 *   (sdk/go/common/resource/plugin/provider_plugin.go, on Unimplemented; registry.go, Diff: old outputs against new
 *   inputs). Its plugin is configured with its inputs at Create, Update or Same, and its resources go to that plugin;
 *   a resource moved to another provider is diffed by the new one, not replaced (step_generator.go, providerChanged:
 *   DiffConfig reports no replacement). Refresh, destroy and deletions use the provider's inputs saved in state
 *   (registry.go, NewRegistry); refresh does not read providers, and deleting one only drops it.
 */

/** The steps of `up` or `preview`, one registration at a time while the program runs, then the deletions after it. */
export class StepGenerator {
  readonly steps: Step[] = [];
  readonly rpcs: Rpc[] = [];
  private readonly seen = new Set<string>();
  private readonly deleteAfter: StoredResource[] = [];

  constructor(
    private readonly plugins: CommandPlugins,
    /** The stack's state, changed in place (at preview, a copy). */
    private readonly state: Map<string, StoredResource>,
    private readonly preview: boolean,
    private readonly urnOf: (type: string, name: string) => string,
  ) {}

  /** A registration not started because an earlier step failed (the engine starts no new step then). */
  notStarted(args: pulumi.runtime.MockResourceArgs): void {
    this.seen.add(this.urnOf(args.type, args.name));
  }

  /** What the program registered that this command did not finish: failed, cut short, or never started. */
  unfinished(): string[] {
    const finished = new Set(this.steps.map((s) => s.urn));
    return [...this.seen].filter((urn) => !finished.has(urn));
  }

  /**
   * An explicit provider the program registered: its inputs as they are; created (a new id), updated when they
   * changed, or the same; its plugin configured with them for the rest of the command.
   */
  async registerProvider(args: pulumi.runtime.MockResourceArgs, options: ResourceOptions): Promise<StoredResource> {
    const urn = this.urnOf(args.type, args.name);
    this.seen.add(urn);
    this.takeAliased(urn, args, options);
    const news = (await fromProgram(args.inputs)) as Plain;
    const inputs = toWire(news) as Plain;
    const secretPaths = secretPathsOf(inputs, news);
    const secretKeys = topLevelKeys(secretPaths);
    const prior = this.state.get(urn);
    const op: Operation = !prior ? "create" : JSON.stringify(prior.inputs) === JSON.stringify(inputs) ? "same" : "update";
    // A new provider's id is unknown at preview (the engine's UnknownID), a new UUID at `up` (registry.go, Create).
    const id = prior?.id ?? (this.preview ? UNKNOWN_PROVIDER_ID : randomUUID());
    this.plugins.configure(urn, providerConfig(inputs, secretKeys), id, prior ? providerConfig(prior.inputs, prior.secretKeys) : {});
    const stored: StoredResource = {
      urn, type: args.type, name: args.name, id, inputs, outputs: inputs, providerText: "", secretPaths, inputSecretPaths: secretPaths, secretKeys,
      options: storedOptions(options),
    };
    this.state.set(urn, stored);
    await this.plugins.startProvider(urn);
    this.steps.push({ op, urn });
    return stored;
  }

  /**
   * `aliases`: a resource the state does not hold under its URN takes the state of the first alias it holds that no
   * registration of this command has taken, in its place, and goes on as that resource (the engine looks the old
   * state up by alias and diffs against it: step_generator.go v3.276, generateSteps, `sg.aliases`/`olds`), so a
   * rename with an alias is a `same`, not a create and a delete.
   */
  private takeAliased(urn: string, args: pulumi.runtime.MockResourceArgs, options: ResourceOptions): void {
    if (this.state.has(urn)) return;
    for (const alias of options.aliases) {
      const old = alias.urn ?? this.urnOf(alias.type ?? args.type, alias.name ?? args.name);
      const prior = this.state.get(old);
      if (!prior || this.seen.has(old)) continue;
      const entries = [...this.state.entries()].map(([key, r]): [string, StoredResource] => (key === old ? [urn, { ...r, urn, name: args.name }] : [key, r]));
      this.state.clear();
      for (const [key, r] of entries) this.state.set(key, r);
      return;
    }
  }

  /** One resource the program registered: Check, then Create, or Diff and then nothing, Update or a replacement. */
  async register(args: pulumi.runtime.MockResourceArgs, options: ResourceOptions): Promise<StoredResource> {
    const { state, preview, steps, rpcs } = this;
    const urn = this.urnOf(args.type, args.name);
    this.seen.add(urn);
    this.takeAliased(urn, args, options);
    const provider = providerUrnOf(args.provider, this.urnOf);
    const plugin = await this.plugins.of(provider);
    const text = providerTextOf(args.inputs);
    const programInputs = withoutProvider((await fromProgram(args.inputs)) as Plain);
    const prior = state.get(urn);
    const news = ignoringChanges(programInputs, prior?.inputs, options.ignoreChanges);

    const check = async (olds: Plain, given: Plain, oldOutputs: Plain): Promise<Plain> => {
      rpcs.push({ method: "check", urn });
      const checked = await plugin.check(args.type, args.name, olds, withProviderText(toWire(given) as Plain, text), oldOutputs);
      if (checked.failures.length > 0) {
        throw new CheckFailedError(urn, checked.failures, checked.failures.map((f) => engineCheckMessage(args.type, args.name, f, given)));
      }
      return withoutProvider(checked.inputs);
    };
    let inputs = await check(prior ? withProviderText(prior.inputs, prior.providerText) : {}, news, prior ? sentAsOld(prior).oldOutputs : {});
    let inputSecretPaths = secretPathsOf(inputs, news);
    const record = (id: string, outs: Plain, op: Operation): StoredResource => {
      const outputs = withoutProvider(outs);
      const secretPaths = secretPathsOf(outputs, news, options.additionalSecretOutputs);
      const stored: StoredResource = {
        urn, type: args.type, name: args.name, id, inputs, outputs, providerText: text, secretPaths, inputSecretPaths, secretKeys: topLevelKeys(secretPaths), provider,
        options: storedOptions(options),
      };
      state.set(urn, stored);
      steps.push({ op, urn });
      return stored;
    };
    // What the engine sends of a resource: its checked inputs with the provider text, and, for the package's classes,
    // which register it as `__owner`, its URN (provider/pulumi/ownership.ts: the mark that proves what its create made).
    const owned = OWNER_KEY in (args.inputs as Plain);
    const sending = (values: Plain): Plain => ({ ...withProviderText(values, text), ...(owned ? { [OWNER_KEY]: urn } : {}) });
    const create = async (op: Operation) => {
      if (preview) return record("", inputs, op);
      rpcs.push({ method: "create", urn });
      const created = await plugin.create(args.type, args.name, sending(inputs), options.customTimeouts.create);
      return record(created.id, created.outputs, op);
    };
    if (!prior) return create("create");

    rpcs.push({ method: "diff", urn });
    const { oldOutputs, oldInputs } = sentAsOld(prior);
    const withText = sending(inputs);
    const diff = await plugin.diff(args.type, args.name, prior.id, oldOutputs, withText, oldInputs, options.ignoreChanges);
    // An unknown answer is decided by comparing old and new inputs (step_generator.go, diff).
    const changed = diff.changes === "some" || (diff.changes === "unknown" && JSON.stringify(prior.inputs) !== JSON.stringify(inputs));
    if (!changed) return record(prior.id, prior.outputs, "same");
    if (diff.replaces.length > 0) {
      // A replacement's inputs are checked again from the program's, with no olds: the defaults are the new object's,
      // not carried over from the old one (step_generator.go v3.276 ~line 2101, "we need to recompute the default values").
      inputs = await check({}, programInputs, {});
      inputSecretPaths = secretPathsOf(inputs, programInputs);
      // The user's option, when set, wins over the provider's answer (step_generator.go, generateSteps).
      if (options.deleteBeforeReplace ?? diff.deleteBeforeReplace) {
        if (preview) return create("replace");
        // The replacement takes the original's place in the state, so dependents stay after it and a destroy deletes
        // them first, as the engine's dependency order does; a failed create leaves neither.
        await deleteResource(this.plugins, state, prior, rpcs, false);
        try {
          return await create("replace");
        } catch (e) {
          state.delete(urn);
          throw e;
        }
      }
      this.deleteAfter.push(prior);
      return create("replace");
    }
    if (preview) return record(prior.id, inputs, "update");
    rpcs.push({ method: "update", urn });
    const updated = await plugin.update(args.type, args.name, prior.id, oldOutputs, withText, oldInputs, options.ignoreChanges, options.customTimeouts.update);
    return record(prior.id, updated, "update");
  }

  /** After the program: replaced objects go once the new ones exist, then whatever the program no longer declares, newest first. */
  async finish(): Promise<void> {
    const { plugins, state, preview, rpcs } = this;
    for (const old of this.deleteAfter) if (!preview) await deleteResource(plugins, state, old, rpcs, false);
    for (const r of [...state.values()].reverse()) {
      if (this.seen.has(r.urn)) continue;
      if (!preview) await deleteResource(plugins, state, r, rpcs);
      this.steps.push({ op: "delete", urn: r.urn });
    }
  }
}

/** The engine's id of a provider not created yet, at preview (pkg/resource/deploy/providers/registry.go v3.276 ~line 81, UnknownID). */
export const UNKNOWN_PROVIDER_ID = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * The state's URN of the explicit provider in a registration's provider reference (`<urn>::<id>`, the URN with its
 * parents' types: `...::pulumi:pulumi:Stack$pulumi:providers:pulumi-nodejs::<name>`); undefined for the default one.
 */
function providerUrnOf(reference: string | undefined, urnOf: (type: string, name: string) => string): string | undefined {
  if (!reference) return undefined;
  const parts = reference.slice(0, reference.lastIndexOf("::")).split("::");
  const name = parts[parts.length - 1];
  const type = parts[parts.length - 2]?.split("$").pop();
  return type === DYNAMIC_PROVIDER_TYPE ? urnOf(type, name) : undefined;
}

/** `refresh`: reads every resource (but those in `done`); gone ones leave the state, changed ones take the real values. */
export async function refreshSteps(plugins: CommandPlugins, state: Map<string, StoredResource>, steps: Step[] = [], done: ReadonlySet<string> = new Set()): Promise<Step[]> {
  // At once, as the engine executes a refresh's steps (deployment_executor.go v3.276 ~line 951,
  // `stepExec.ExecuteParallel(steps)`) on its worker pool, `--parallel` wide (4 × GOMAXPROCS by default:
  // pkg/cmd/pulumi/operations/up.go ~line 70): reads of one object made by several resources overlap, and the provider
  // coalesces them (provider/http/sharedReads.ts) as under `pulumi refresh`. Steps are listed in the state's order.
  const reads = [...state.values()].filter((r) => r.type !== DYNAMIC_PROVIDER_TYPE && !done.has(r.urn));
  const results: PromiseSettledResult<Step[]>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < reads.length) {
      const i = next++;
      const own: Step[] = [];
      try {
        await refreshResource(plugins, state, reads[i], own, reads[i].provider);
        results[i] = { status: "fulfilled", value: own };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ENGINE_PARALLEL, reads.length) }, worker));
  for (const result of results) if (result.status === "fulfilled") steps.push(...result.value);
  const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
  if (failures.length > 0) throw new StepsFailed(failures);
  return steps;
}

/** How many steps the engine runs at once by default (pkg/cmd/pulumi/operations/up.go v3.276, defaultParallel: 4 × GOMAXPROCS). */
const ENGINE_PARALLEL = 4 * availableParallelism();

/** Reads one stored resource with the plugin of `provider` (undefined: the default one): a refresh or gone step. */
async function refreshResource(plugins: CommandPlugins, state: Map<string, StoredResource>, r: StoredResource, steps: Step[], provider: string | undefined): Promise<void> {
  const plugin = await plugins.of(provider);
  const { oldOutputs, oldInputs } = sentAsOld(r);
  const read = await plugin.read(r.type, r.name, r.id, oldOutputs, oldInputs);
  if (!read.id) {
    state.delete(r.urn);
    steps.push({ op: "gone", urn: r.urn });
    return;
  }
  const inputsBefore = r.inputs;
  r.id = read.id;
  // The engine marks the read outputs' secrets against the old outputs, secrets in place (provider_plugin.go, Read).
  const outputs = withoutProvider(read.outputs);
  r.secretPaths = secretPathsOf(outputs, withSecretsAt(r.outputs, r.secretPaths));
  r.secretKeys = topLevelKeys(r.secretPaths);
  r.outputs = outputs;
  if (read.inputs) {
    // The read inputs' secrets are marked against the old inputs (provider_plugin.go, Read: annotateSecrets(newInputs, req.Inputs)).
    const inputs = withoutProvider(read.inputs);
    r.inputSecretPaths = secretPathsOf(inputs, withSecretsAt(r.inputs, r.inputSecretPaths));
    r.inputs = inputs;
  }
  // The refresh's diff, as an `up` of the unchanged program would see it right after (step.go v3.276 RefreshStep.Apply
  // ~line 1855, diffResource): the read outputs and inputs as the old ones, the inputs before the read as the new.
  const refreshed = sentAsOld(r);
  await plugin.diff(r.type, r.name, r.id, refreshed.oldOutputs, elideAssets(withProviderText(inputsBefore, r.providerText)), refreshed.oldInputs, r.options.ignoreChanges);
  steps.push({ op: "refresh", urn: r.urn });
}

/**
 * `refresh --run-program` or `destroy --run-program` while the program runs (see the file comment): providers as
 * `up` registers them; at a refresh, resources read with the provider the program gives them (`registered` is what
 * `refreshSteps` then leaves out); at a destroy, left for `destroySteps`.
 */
export class ProgramRunSteps implements Registrar {
  readonly registered = new Set<string>();
  private readonly providers: StepGenerator;

  constructor(
    private readonly command: "refresh" | "destroy",
    private readonly plugins: CommandPlugins,
    private readonly state: Map<string, StoredResource>,
    private readonly urnOf: (type: string, name: string) => string,
    private readonly steps: Step[],
  ) {
    this.providers = new StepGenerator(plugins, state, false, urnOf);
  }

  notStarted(args: pulumi.runtime.MockResourceArgs): void {
    this.providers.notStarted(args);
  }

  /** The provider's own steps (its state and plugin take the program's inputs); a refresh lists resources only. */
  registerProvider(args: pulumi.runtime.MockResourceArgs, options: ResourceOptions): Promise<StoredResource> {
    return this.providers.registerProvider(args, options);
  }

  async register(args: pulumi.runtime.MockResourceArgs, options: ResourceOptions): Promise<StoredResource> {
    const urn = this.urnOf(args.type, args.name);
    this.registered.add(urn);
    const prior = this.state.get(urn);
    if (prior && this.command === "refresh") await refreshResource(this.plugins, this.state, prior, this.steps, providerUrnOf(args.provider, this.urnOf));
    const current = this.state.get(urn);
    if (current) return current;
    // Not in the state (or gone): skipped, the program sees its inputs, nothing is stored.
    const news = withoutProvider((await fromProgram(args.inputs)) as Plain);
    const inputs = toWire(news) as Plain;
    const secretPaths = secretPathsOf(inputs, news);
    return {
      urn, type: args.type, name: args.name, id: "", inputs, outputs: inputs, providerText: providerTextOf(args.inputs), secretPaths, inputSecretPaths: secretPaths, secretKeys: topLevelKeys(secretPaths),
      options: storedOptions(options),
    };
  }
}

/**
 * `destroy`: deletes every resource in the engine's rounds (step_generator.go v3.276 `ScheduleDeletes`: antichains of
 * the state's dependency graph, each run whole before the next; deployment_executor.go: after a failed step no new
 * round starts). A round holds the resources nothing left depends on, newest first; a failed delete (a protected
 * resource) fails the command once its round is done, so what it waits for (its zone) stays and every other resource
 * of that round is deleted.
 */
export async function destroySteps(plugins: CommandPlugins, state: Map<string, StoredResource>, steps: Step[] = []): Promise<Step[]> {
  let left = [...state.values()].reverse();
  while (left.length > 0) {
    const waitedFor = new Set(left.flatMap((r) => [...(r.options.dependencies ?? []), ...(r.provider ? [r.provider] : [])]));
    const free = left.filter((r) => !waitedFor.has(r.urn));
    // A state whose resources all wait for one another (never written by a program) is deleted newest first.
    const round = free.length > 0 ? free : left;
    const failures: unknown[] = [];
    for (const r of round) {
      try {
        await deleteResource(plugins, state, r, []);
        steps.push({ op: "delete", urn: r.urn });
      } catch (e) {
        failures.push(e);
      }
    }
    if (failures.length > 0) throw new StepsFailed(failures);
    left = left.filter((r) => !round.includes(r));
  }
  return steps;
}

/** A stored resource's outputs and inputs as the engine sends them as old properties: with `__provider`, assets elided. */
function sentAsOld(r: StoredResource): { oldOutputs: Plain; oldInputs: Plain } {
  return { oldOutputs: elideAssets(withProviderText(r.outputs, r.providerText)), oldInputs: elideAssets(withProviderText(r.inputs, r.providerText)) };
}

/**
 * Delete(outputs, old inputs) with the plugin of the resource's provider, unless the options keep the object;
 * `protect` refuses (resource/deploy/step.go). A provider resource only leaves the state (registry.go, Delete).
 */
async function deleteResource(plugins: CommandPlugins, state: Map<string, StoredResource>, r: StoredResource, rpcs: Rpc[], leavesState = true): Promise<void> {
  if (r.options.protect) throw new Error(`${r.urn}: the resource is protected; set protect: false and run up first, then delete it`);
  if (r.type !== DYNAMIC_PROVIDER_TYPE && !r.options.retainOnDelete) {
    const plugin: CommandPlugin = await plugins.of(r.provider);
    rpcs.push({ method: "delete", urn: r.urn });
    const { oldOutputs, oldInputs } = sentAsOld(r);
    await plugin.delete(r.type, r.name, r.id, oldOutputs, oldInputs, r.options.customTimeouts.delete);
  }
  if (leavesState) state.delete(r.urn);
}

/** The options the engine keeps in a resource's state (ignoreChanges and customTimeouts go with its later Diff, Update and Delete). */
function storedOptions(options: ResourceOptions): StoredResource["options"] {
  return { protect: options.protect, retainOnDelete: options.retainOnDelete, ignoreChanges: options.ignoreChanges, customTimeouts: options.customTimeouts, dependencies: options.dependencies };
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
