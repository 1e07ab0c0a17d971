import type { EngineMessage } from "./engineLog";
import type { Plain } from "./wire";

/**
 * What the harness's deployments record: the stack's state as the engine keeps it, the steps and provider RPCs of a
 * command, and the options of a resource registration that the engine applies.
 */

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
  /** The serialized provider the resource was last written with (empty for a provider resource). */
  providerText: string;
  /**
   * The URN of the explicit provider resource (`bunnynet.Provider`) that manages it, as the engine keeps the
   * provider reference in state; undefined for the default provider (configured with the stack config).
   */
  provider?: string;
  /**
   * Where the engine keeps the outputs' secrets: at the depth the inputs had them (an object holding one is not
   * secret itself; an array holding one is), and whole `additionalSecretOutputs` keys, e.g.
   * `[["containers", "web", "env", "TOKEN"], ["password"]]`.
   */
  secretPaths: string[][];
  /**
   * Where the engine keeps the inputs' secrets: the checked inputs marked where the program's inputs had a secret
   * (sdk/go/common/resource/plugin/provider_plugin.go, Check: `annotateSecrets(inputs, req.News)`), e.g. `[["value"]]`.
   */
  inputSecretPaths: string[][];
  /** The top-level output keys that hold a secret (the first key of each of `secretPaths`). */
  secretKeys: string[];
  /** The resource options the engine keeps in state and applies at refresh and delete. */
  options: Pick<ResourceOptions, "protect" | "retainOnDelete" | "ignoreChanges" | "customTimeouts" | "dependencies">;
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

/**
 * One RPC the harness sent to a provider host, as the engine's PULUMI_DEBUG_GRPC log shows its request: `method` is
 * the gRPC method (`Configure`, `Check`, `Diff`, `Create`, `Read`, `Update`, `Delete`), `request` its fields by their
 * protobuf JSON names (properties as plain values, `__provider` included), `provider` the URN of the provider resource
 * whose plugin it went to.
 */
export interface ProviderCall {
  method: string;
  request: Plain;
  provider: string;
}

export interface RunResult {
  /** The stack outputs the program returned (secrets as plain values; unknown at preview as `undefined`). */
  outputs: Plain;
  /** Where the stack outputs hold secrets, as the engine keeps them in the stack's state, e.g. `[["apiKeyCount"]]`. */
  outputSecretPaths: string[][];
  steps: Step[];
  rpcs: Rpc[];
  /** What the provider and the program logged for the engine, in order (`pulumi up`'s diagnostics; debug left out). */
  messages: EngineMessage[];
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
  /**
   * `customTimeouts`, in seconds (0: none), as the engine sends them with Create, Update and Delete
   * (pkg/resource/deploy/step.go v3.276: the new state's create and update timeouts, the old state's delete timeout).
   */
  customTimeouts: { create: number; update: number; delete: number };
  /**
   * `aliases`: the old URNs, or old names and types, under which the state may hold the resource (a name or type left
   * out is the registration's own).
   */
  aliases: { urn?: string; name?: string; type?: string }[];
  /** The URNs the resource waits for: its `dependsOn` and the resources whose outputs its inputs use (one list, as the SDK sends them). */
  dependencies: string[];
}
