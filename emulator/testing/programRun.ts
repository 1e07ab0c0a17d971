import * as pulumi from "@pulumi/pulumi";
import { deserializeProperties, serializeProperties } from "@pulumi/pulumi/runtime/rpc";
import type { Program, ResourceOptions, StoredResource } from "./deploymentTypes";
import { Struct, pulumiRequire } from "./sdkModules";
import { type Plain, secretEnvelope } from "./wire";

/**
 * Running a Pulumi program in this process, without the Pulumi CLI: the SDK's mocks (`pulumi.runtime.setMocks`)
 * stand in for the engine's resource monitor, hand each of the package's registrations, with the options the
 * engine applies, to the step generator, and answer the program with what the engine would store.
 */

const settings = pulumiRequire("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void>; getMonitor(): MonitorLike };

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

/** The stack a program runs in, and whether this is a preview (outputs computed by the provider are unknown). */
export interface ProgramStack {
  project: string;
  stack: string;
  config: Record<string, string>;
  secretConfig: string[];
  preview: boolean;
}

/** Where each of the package's registrations goes: it answers with the resource as stored. */
export type Register = (args: pulumi.runtime.MockResourceArgs, options: ResourceOptions) => Promise<StoredResource>;

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

/** Runs the program as a stack with mocks whose newResource calls `register` for the package's resources; its outputs. */
export async function runProgram(program: Program, stack: ProgramStack, register: Register): Promise<Plain> {
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
        for (const k of stored.secretKeys) if (k in state) state[k] = secretEnvelope(state[k]);
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
  pulumi.runtime.setAllConfig({ ...stack.config }, stack.secretConfig);
  await pulumi.runtime.setMocks(mocks, stack.project, stack.stack, stack.preview);
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
