import * as pulumi from "@pulumi/pulumi";
import { ENGINE_STAND_IN } from "bunnynet-pulumi/dist/lookups/client.js";
import { deserializeProperties, serializeProperties } from "@pulumi/pulumi/runtime/rpc";
import type { Program, ResourceOptions, StoredResource } from "./deploymentTypes";
import { Struct, pulumiRequire } from "./sdkModules";
import { type Plain, envelopePathsIn, secretEnvelope, withEnvelopesAt, withSecretsAt } from "./wire";

/**
 * Running a Pulumi program in this process, without the Pulumi CLI: the SDK's mocks (`pulumi.runtime.setMocks`)
 * stand in for the engine's resource monitor, hand each of the package's registrations, with the options the
 * engine applies, to the step generator, and answer the program with what the engine would store.
 */

const settings = pulumiRequire("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void>; getMonitor(): MonitorLike };

const { status: grpcStatus } = pulumiRequire("@grpc/grpc-js") as { status: { CANCELLED: number } };

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";
/** The type of an explicit provider of the dynamic providers' package (the SDK's ProviderResource: `pulumi:providers:<package>`). */
export const DYNAMIC_PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";

/** The stack a program runs in, and whether this is a preview (outputs computed by the provider are unknown). */
export interface ProgramStack {
  project: string;
  stack: string;
  config: Record<string, string>;
  secretConfig: string[];
  preview: boolean;
}

/**
 * Where each of the package's registrations goes: `register` answers with the resource as stored; `notStarted`
 * learns of a registration the command did not start because an earlier step failed.
 */
export interface Registrar {
  register(args: pulumi.runtime.MockResourceArgs, options: ResourceOptions): Promise<StoredResource>;
  /** An explicit provider resource of the dynamic providers' package (`bunnynet.Provider`). */
  registerProvider(args: pulumi.runtime.MockResourceArgs, options: ResourceOptions): Promise<StoredResource>;
  notStarted(args: pulumi.runtime.MockResourceArgs): void;
}

/** How a program run ended when a step failed: the failures, once every step already started has ended. */
export class StepsFailed extends Error {
  constructor(readonly failures: unknown[]) {
    super(failures.map((f) => (f instanceof Error ? f.message : String(f))).join("\n"));
    this.name = "StepsFailed";
  }
}

/* The part of the SDK's resource monitor the harness listens to, to see each registration's options. */
type RegisterRequest = Record<string, () => unknown>;
interface MonitorLike {
  registerResource(req: RegisterRequest, callback: unknown): unknown;
  registerResourceOutputs(req: RegisterRequest, callback: unknown): unknown;
}

function optionsOf(req: RegisterRequest): ResourceOptions {
  return {
    ignoreChanges: req.getIgnorechangesList() as string[],
    replaceOnChanges: req.getReplaceonchangesList() as string[],
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? (req.getDeletebeforereplace() as boolean) : undefined,
    protect: req.getProtect() === true,
    retainOnDelete: req.getRetainondelete() === true,
    additionalSecretOutputs: req.getAdditionalsecretoutputsList() as string[],
    customTimeouts: customTimeoutsOf(req.getCustomtimeouts() as RegisterRequest | undefined),
    aliases: aliasesOf(req),
    dependencies: (req.getDependenciesList() as string[]).map(stateUrn),
  };
}

/**
 * A URN as the harness's state names it: the SDK's mocks put the parent types before the type
 * (`…::pulumi:pulumi:Stack$<type>::<name>`), the state's URNs have the type alone.
 */
function stateUrn(urn: string): string {
  const [prefix, project, qualifiedType, ...name] = urn.split("::");
  return qualifiedType === undefined ? urn : [prefix, project, qualifiedType.split("$").pop(), ...name].join("::");
}

/**
 * The registration's aliases: each an old URN, or the parts of one (name, type) that differ from the registration's,
 * empty when the same (the SDK's mapAliasesForRequest, runtime/resource.ts, sends Alias messages to a monitor with
 * `aliasSpecs`, as the mocks' is; older monitors get `aliasURNs`).
 */
function aliasesOf(req: RegisterRequest): ResourceOptions["aliases"] {
  const specs = ((req.getAliasesList?.() as RegisterRequest[] | undefined) ?? []).map((a) => {
    if (a.hasUrn() as boolean) return { urn: a.getUrn() as string };
    const spec = a.getSpec() as RegisterRequest;
    return { name: (spec.getName() as string) || undefined, type: (spec.getType() as string) || undefined };
  });
  const urns = ((req.getAliasurnsList?.() as string[] | undefined) ?? []).map((urn) => ({ urn }));
  return [...specs, ...urns];
}

/** The registration's custom timeouts in seconds, parsed as the engine parses them (Go durations: source_eval.go, time.ParseDuration). */
function customTimeoutsOf(timeouts: RegisterRequest | undefined): ResourceOptions["customTimeouts"] {
  const seconds = (text: unknown) => (typeof text === "string" && text !== "" ? goDurationSeconds(text) : 0);
  return { create: seconds(timeouts?.getCreate()), update: seconds(timeouts?.getUpdate()), delete: seconds(timeouts?.getDelete()) };
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, "µs": 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** A Go duration (`1h30m`, `2m`, `90s`, `1.5h`) in seconds; what Go's time.ParseDuration refuses is refused. */
export function goDurationSeconds(text: string): number {
  const match = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(text);
  if (text === "0") return 0;
  if (!match) throw new Error(`invalid duration ${JSON.stringify(text)} in customTimeouts`);
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) total += Number(amount) * DURATION_UNITS[unit];
  return match[1] === "-" ? -total : total;
}

/**
 * The engine's answer to the program's registrations once a step failed: the engine starts no new step and shuts its
 * resource monitor down (pkg/resource/deploy/step_executor.go, cancelDueToError; deployment_executor.go waits for the
 * steps already running), so the program's pending registrations end with gRPC CANCELLED or UNAVAILABLE, which the
 * SDK swallows instead of rejecting the resource's outputs (@pulumi/pulumi runtime/resource.js, registerResource
 * and resolveURN/resolveID; runtime/rpc.js, transferProperties: errors.js isGrpcError). Answered the same way here,
 * so a failed step raises no unhandled rejection in the user's process: its failure reaches the command instead.
 */
function monitorTerminating(): Error {
  return Object.assign(new Error("the deployment stopped after a failed step"), { code: grpcStatus.CANCELLED });
}

/** Runs the program as a stack with mocks whose newResource hands the package's resources to `steps`; its outputs. */
export async function runProgram(program: Program, stack: ProgramStack, steps: Registrar, outputSecrets: string[][] = []): Promise<Plain> {
  const failures: unknown[] = [];
  let stepFailed!: () => void;
  const halted = new Promise<void>((resolve) => (stepFailed = resolve));
  const registered = new Map<string, ResourceOptions>();
  const inputSecrets = new Map<string, string[][]>();
  const running = new Set<Promise<StoredResource>>();
  // Lookups call the API here, as under the engine (bunnynet-pulumi lookups/client.ts, runLookup).
  const mocks: pulumi.runtime.Mocks & { [ENGINE_STAND_IN]: true } = {
    [ENGINE_STAND_IN]: true,
    newResource: async (args) => {
      const isProvider = args.type === DYNAMIC_PROVIDER_TYPE;
      if (!isProvider && !args.type.startsWith(DYNAMIC_PREFIX)) {
        if (args.custom) throw new Error(`the program harness only runs dynamic resources, not ${args.type}`);
        return { id: undefined, state: args.inputs };
      }
      if (failures.length > 0) {
        steps.notStarted(args);
        throw monitorTerminating();
      }
      const options = registered.get(`${args.type}::${args.name}`)!;
      const registration = { ...args, inputs: withEnvelopesAt(args.inputs, inputSecrets.get(`${args.type}::${args.name}`) ?? []) };
      const step = isProvider ? steps.registerProvider(registration, options) : steps.register(registration, options);
      running.add(step);
      try {
        const stored = await step;
        // The engine answers with the secrets where it stores them; the SDK makes each top-level output that holds one secret.
        const state = withSecretsAt(stored.outputs, stored.secretPaths, secretEnvelope);
        await assertProgramCanRead(stored.urn, state);
        return { id: stored.id || undefined, state };
      } catch (e) {
        failures.push(e);
        stepFailed();
        throw monitorTerminating();
      } finally {
        running.delete(step);
      }
    },
    call: async (args) => {
      throw new Error(`unknown function ${args.token}: dynamic providers serve no invokes`);
    },
  };
  pulumi.runtime.setAllConfig({ ...stack.config }, stack.secretConfig);
  await pulumi.runtime.setMocks(mocks, stack.project, stack.stack, stack.preview);
  const monitor = settings.getMonitor();
  const registerResource = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    const key = `${String(req.getType())}::${String(req.getName())}`;
    registered.set(key, optionsOf(req));
    inputSecrets.set(key, envelopePathsIn((req.getObject() as { toJavaScript(): unknown } | undefined)?.toJavaScript()));
    return registerResource(req, callback);
  };
  // The stack's outputs as the SDK sends them to the engine, which keeps their secrets where they are
  // (the engine's RegisterResourceOutputs; `pulumi stack export` shows them): where the program's outputs hold one.
  const registerResourceOutputs = monitor.registerResourceOutputs.bind(monitor);
  monitor.registerResourceOutputs = (req, callback) => {
    const sent = (req.getOutputs() as { toJavaScript(): unknown } | undefined)?.toJavaScript();
    outputSecrets.splice(0, outputSecrets.length, ...envelopePathsIn(sent));
    return registerResourceOutputs(req, callback);
  };
  // After a failed step the program's outputs that depend on it never resolve (as under the engine, which ends the
  // program): the run ends when the steps already started have. The program's own end is always handled, even later.
  // A program that throws is caught here, not left to the SDK's Stack resource: its promises would then reject with
  // no handler (2 per command), which the engine's language host reports but a user's own process dies of.
  let thrown: { error: unknown } | undefined;
  const programEnd = pulumi.runtime
    .runInPulumiStack(async () => {
      try {
        return await program();
      } catch (error) {
        thrown = { error };
        return undefined;
      }
    })
    .then(
      (value): { outputs: Plain } | { error: unknown } => thrown ?? { outputs: (value ?? {}) as Plain },
      (error: unknown) => ({ error }),
    );
  const ended = await Promise.race([programEnd, halted.then(() => undefined)]);
  // The registrations the program left running, unless a step fails meanwhile: then those waiting on its outputs
  // never end (so not the SDK's waitForRPCs), and the run ends once the steps already started have.
  if (failures.length === 0) await Promise.race([settings.waitForRPCs(), halted]);
  if (failures.length > 0) {
    while (running.size > 0) await Promise.allSettled([...running]);
    throw new StepsFailed(failures);
  }
  if (ended && "error" in ended) throw ended.error;
  return ended?.outputs ?? {};
}

/**
 * The SDK reads the outputs back in the program; what it cannot read (an asset without contents) fails inside its
 * registration and leaves the program waiting for ever. Refused here instead, naming the resource.
 */
async function assertProgramCanRead(urn: string, state: Plain): Promise<void> {
  try {
    const struct = Struct.fromJavaScript(await serializeProperties(urn, state));
    deserializeProperties(struct as unknown as Parameters<typeof deserializeProperties>[0]);
  } catch (e) {
    throw new Error(`${urn}: the program cannot read the outputs the provider answered: ${(e as Error).message}`, { cause: e });
  }
}
