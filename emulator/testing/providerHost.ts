import { randomBytes, randomUUID } from "node:crypto";
import { OWNER_KEY, PROVIDER_KEY, providerText as packageProviderText, typeToken } from "bunnynet-pulumi/dist/pulumi/index.js";
import type { CheckFailure } from "./engineMessages";
import { type HostOptions, type PluginProcess, startPluginProcess } from "./pluginProcess";
import { type StructMessage, Struct, pulumiRequire } from "./sdkModules";
import { partResponse, structForSending } from "./structWire";
import { type ConfigValues, type Plain, Secret, configToWire, toWire, withoutProvider } from "./wire";

/**
 * Talking to the SDK's real dynamic-provider host (./pluginProcess.ts starts it) over gRPC the way the engine does:
 * config through Configure, properties as protobuf Structs with `__provider` in them, secrets stripped (the host does
 * not accept secrets), unknowns as the engine's placeholder string. The requests carry what the engine's carry
 * (pulumi/pulumi v3.276 sdk/go/common/resource/plugin/provider_plugin.go; tests/engine/kitVersusEngine.test.ts
 * compares them with the engine's own, logged by PULUMI_DEBUG_GRPC):
 * - Configure (provider_plugin.go ~line 1049): `variables` keyed `<package>:config:<key>`, the package being the
 *   provider type's (`pulumi-nodejs`, so `pulumi-nodejs:config:bunnynet:apiKey`), values not strings as JSON, secrets
 *   plain; `args` with secrets kept; `acceptSecrets`, `acceptResources`, `sendsOldInputs`, `sendsOldInputsToDelete`;
 *   the provider resource's `urn`, `name`, `type` and `id`.
 * - Resource RPCs: the URN of the stack being deployed (not a fixed one); Check's `randomSeed` (random per
 *   registration, pkg/resource/deploy/step_generator.go) and `oldOutputs`; Create, Update and Delete carry the
 *   resource's `customTimeouts`, 0 (none) unless the program set them (provider_plugin.go, `Timeout: req.Timeout`);
 *   Diff and Update its `ignoreChanges` (`IgnoreChanges: req.IgnoreChanges`).
 */

/** The `__provider` text of one of the package's resource types, as every resource of the type stores it. */
export async function providerText(type: string): Promise<string> {
  return packageProviderText(type);
}

export interface DiffAnswer {
  changes: "some" | "none" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/* The generated gRPC and protobuf classes are untyped JavaScript; these are the parts used here. */
type Message = Record<string, (...args: unknown[]) => unknown>;
type Callback = (err: (Error & { details?: string; code?: number }) | null, res: Answer) => void;
interface MethodDefinition {
  path: string;
  requestSerialize(req: Message): Buffer;
  responseDeserialize(bytes: Buffer): Message;
}
interface RpcClient {
  makeUnaryRequest(path: string, serialize: (req: Message) => Buffer, deserialize: (bytes: Buffer) => Answer, req: Message, options: { deadline: number }, cb: Callback): void;
  close(): void;
}

/** A response: its generated message (read for the fields other than the properties) and its properties, decoded. */
interface Answer {
  message: Message;
  /** The response's Struct fields, by field number (absent when the response has none). */
  properties: Map<number, Plain>;
}

/**
 * The Struct fields of the responses the kit reads (pulumi/pulumi proto/pulumi/provider.proto: CheckResponse.inputs
 * = 1, CreateResponse.properties = 2, ReadResponse.properties = 2 and inputs = 3, UpdateResponse.properties = 1):
 * decoded by ./structWire.ts, the rest of each response by the SDK's generated class.
 */
const RESPONSE_STRUCT_FIELDS: Record<string, readonly number[]> = { check: [1], create: [2], read: [2, 3], update: [1] };

/** How long the kit waits for an answer by default, in seconds: the engine's default timeout of Create, Update and Delete. */
const ENGINE_OPERATION_TIMEOUT_SECONDS = 300;

/** The provider type of a dynamic provider resource, whose package names the Configure `variables` (see above). */
const PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";

/**
 * One RPC as the kit sent it, in the shape the engine's PULUMI_DEBUG_GRPC log shows it (protobuf JSON field names;
 * properties as plain values with `__provider`, config secrets as the wire's secret envelopes): `method` is the
 * gRPC method's name (`Configure`, `Check`, `Diff`, `Create`, `Read`, `Update`, `Delete`).
 */
export interface SentRpc {
  method: string;
  request: Plain;
}

/** The provider resource a plugin is configured as (the engine sends it with Configure). */
export interface ProviderIdentity {
  urn: string;
  name: string;
  id: string;
}

const { status: grpcStatus } = pulumiRequire("@grpc/grpc-js") as { status: { DEADLINE_EXCEEDED: number; UNAVAILABLE: number; UNIMPLEMENTED: number } };

/** How long a call whose connection broke waits to learn whether the process ended (then named as the reason). */
const EXIT_GRACE_MS = 1000;

/** Properties as the host answered them (field `field` of the response), without the `__provider` text. */
function answer(res: Answer, field: number): Plain {
  return withoutProvider(res.properties.get(field) ?? {});
}

/** Sets a field of a request message when the installed SDK's generated class has it (older SDKs lack newer fields). */
function setIfKnown(req: Message, setter: string, value: unknown): void {
  if (typeof req[setter] === "function") req[setter](value);
}

function message(name: string): Message {
  const proto = pulumiRequire("@pulumi/pulumi/proto/provider_pb") as Record<string, new () => Message>;
  return new proto[name]();
}

/** One RPC as the kit calls it: the generated request serializer, the response decoded as `Answer`. */
interface RpcMethod {
  path: string;
  serialize(req: Message): Buffer;
  deserialize(bytes: Buffer): Answer;
}

function rpcMethod(name: string, definition: MethodDefinition): RpcMethod {
  const structFields = RESPONSE_STRUCT_FIELDS[name];
  const deserialize = structFields
    ? (bytes: Buffer) => {
        const { rest, structs } = partResponse(bytes, structFields);
        return { message: definition.responseDeserialize(rest), properties: structs };
      }
    : (bytes: Buffer) => ({ message: definition.responseDeserialize(bytes), properties: new Map<number, Plain>() });
  return { path: definition.path, serialize: definition.requestSerialize, deserialize };
}

export class ProviderHost {
  private readonly texts = new Map<string, string>();
  /** The calls waiting for an answer: failed at once if the process ends, as the engine fails a plugin's calls. */
  private readonly waiting = new Set<(how: string) => void>();
  /** How the process ended, once it has. */
  private ended?: string;

  private constructor(
    private readonly plugin: PluginProcess,
    private readonly client: RpcClient,
    private readonly methods: Map<string, RpcMethod>,
    private readonly project: string,
    private readonly answerTimeoutSeconds: number,
    private readonly stack: string,
  ) {
    plugin.onExit((how) => {
      this.ended = how;
      for (const fail of [...this.waiting]) fail(how);
    });
  }

  /** Starts the host and connects to the port it prints. */
  static async start(options: HostOptions = {}): Promise<ProviderHost> {
    const project = options.project ?? "bunnynet-test";
    const timeout = options.answerTimeoutSeconds;
    if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
      throw new Error(`answerTimeoutSeconds must be a positive number of seconds (got ${JSON.stringify(timeout)})`);
    }
    const plugin = await startPluginProcess(project, options);
    const grpc = pulumiRequire("@grpc/grpc-js") as { credentials: { createInsecure(): unknown } };
    const services = pulumiRequire("@pulumi/pulumi/proto/provider_grpc_pb") as {
      ResourceProviderClient: new (address: string, credentials: unknown) => RpcClient;
      ResourceProviderService: Record<string, MethodDefinition>;
    };
    const client = new services.ResourceProviderClient(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
    const methods = new Map(Object.entries(services.ResourceProviderService).map(([name, definition]) => [name, rpcMethod(name, definition)]));
    return new ProviderHost(plugin, client, methods, project, options.answerTimeoutSeconds ?? ENGINE_OPERATION_TIMEOUT_SECONDS, options.stack ?? "test");
  }

  /** The host's process id: benchmarks read its CPU time and memory, tests kill it mid-command. */
  get pid(): number | undefined {
    return this.plugin.pid;
  }

  /** Everything the host wrote to stderr and stdout (errors are logged there): for checking nothing secret leaks. */
  logs(): string {
    return this.plugin.logs();
  }

  /**
   * Calls `listener` with each line the host writes to stdout from now on: where a dynamic provider's pulumi.log
   * messages go (`info: [runtime] …`), which the engine shows as diagnostics. Returns the function that stops it.
   */
  onStdoutLine(listener: (line: string) => void): () => void {
    return this.plugin.onStdoutLine(listener);
  }

  private readonly sentListeners = new Set<(rpc: SentRpc) => void>();

  /** Calls `listener` with every RPC sent from now on, as it is sent; the return stops it. */
  onSent(listener: (rpc: SentRpc) => void): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  private sent(method: string, request: Plain): void {
    if (this.sentListeners.size === 0) return;
    for (const listener of this.sentListeners) listener({ method, request });
  }

  /** The `__provider` text used for `type` (the package's shim unless overridden with `useProviderText`). */
  async textOf(type: string): Promise<string> {
    let text = this.texts.get(type);
    if (text === undefined) {
      text = await providerText(type);
      this.texts.set(type, text);
    }
    return text;
  }

  useProviderText(type: string, text: string): void {
    this.texts.set(type, text);
  }

  /** The fields every resource RPC carries: which resource, of which type. */
  private urnOf(type: string, name: string): string {
    return `urn:pulumi:${this.stack}::${this.project}::${typeToken(type)}::${name}`;
  }

  /**
   * A create's or update's inputs as the package's resource classes register them: with their URN as `__owner`
   * (provider/pulumi/ownership.ts: its mark proves the objects a create made), unless the test gave one.
   */
  private owned(inputs: Plain, type: string, name: string): Plain {
    return OWNER_KEY in inputs ? inputs : { ...inputs, [OWNER_KEY]: this.urnOf(type, name) };
  }

  private identify(req: Message, type: string, name: string): Plain {
    const urn = this.urnOf(type, name);
    req.setUrn(urn);
    req.setName(name);
    req.setType(typeToken(type));
    return { urn, name, type: typeToken(type) };
  }

  /** Properties as sent: the Struct, and the plain values for the record of sent RPCs. */
  private async props(type: string, values: Plain, withProvider = true): Promise<[StructMessage, Plain]> {
    const wire = toWire(values) as Plain;
    if (withProvider && !(PROVIDER_KEY in wire)) wire[PROVIDER_KEY] = await this.textOf(type);
    return [structForSending(wire), wire];
  }

  /**
   * One RPC. A host process that ends (crashes, is killed, exits) fails every call waiting on it and every later
   * one, naming how it ended, instead of leaving them to gRPC's reconnection attempts; one that stops answering
   * fails the call after `answerTimeoutSeconds`.
   */
  private call(method: string, req: Message): Promise<Answer> {
    if (this.ended !== undefined) return Promise.reject(this.gone(method, this.ended));
    return new Promise((resolveCall, reject) => {
      const fail = (how: string) => {
        this.waiting.delete(fail);
        reject(this.gone(method, how));
      };
      this.waiting.add(fail);
      const deadline = Date.now() + this.answerTimeoutSeconds * 1000;
      const done: Callback = (err, res) => {
        if (!this.waiting.has(fail)) return;
        if (err?.code === grpcStatus.UNAVAILABLE && this.ended === undefined) {
          // The connection went first (ECONNRESET): the process's end, if that is why, is named when it is seen.
          setTimeout(() => {
            if (this.waiting.delete(fail)) reject(new HostError(method, err.details ?? err.message));
          }, EXIT_GRACE_MS);
          return;
        }
        this.waiting.delete(fail);
        if (err?.code === grpcStatus.DEADLINE_EXCEEDED) reject(new HostError(method, `the provider host did not answer within ${this.answerTimeoutSeconds} s`));
        else if (err) reject(new HostError(method, err.details ?? err.message, err.code));
        else resolveCall(res);
      };
      const { path, serialize, deserialize } = this.methods.get(method)!;
      // grpc-js captures the caller's stack at every call (client.js, makeUnaryRequest) for the text of a failed
      // call's stack, which the kit never shows (HostError says `details`): a few % of the kit's CPU per RPC.
      const stackTraceLimit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        this.client.makeUnaryRequest(path, serialize, deserialize, req, { deadline }, done);
      } finally {
        Error.stackTraceLimit = stackTraceLimit;
      }
    });
  }

  private gone(method: string, how: string): HostError {
    return new HostError(method, `the provider host ${how} before answering`);
  }

  /** An RPC that does no provider work (GetPluginInfo): the cost of the gRPC round trip itself. */
  async ping(): Promise<void> {
    const empty = pulumiRequire("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => Message };
    await this.call("getPluginInfo", new empty.Empty());
  }

  /** GetPluginInfo, as the engine asks every plugin it starts (sdk/go/common/resource/plugin/provider_plugin.go, NewProvider). */
  async pluginInfo(): Promise<void> {
    const empty = pulumiRequire("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => Message };
    this.sent("GetPluginInfo", {});
    await this.call("getPluginInfo", new empty.Empty());
  }

  /**
   * CheckConfig, as the engine sends it before configuring a provider the program registers (providers/registry.go,
   * Check): the provider's inputs (`olds`: those in state, none for a new provider), secrets as plain values. The
   * dynamic host answers UNIMPLEMENTED, which the engine reads as "the inputs as they are" (provider_plugin.go,
   * CheckConfig); so does this.
   */
  async checkConfig(config: ConfigValues, olds: ConfigValues, provider: ProviderIdentity): Promise<void> {
    const req = message("CheckRequest");
    const news = toWire(config) as Plain;
    const oldValues = toWire(olds) as Plain;
    req.setUrn(provider.urn);
    req.setName(provider.name);
    req.setType(PROVIDER_TYPE);
    req.setOlds(structForSending(oldValues));
    req.setNews(structForSending(news));
    this.sent("CheckConfig", { urn: provider.urn, olds: oldValues, news, name: provider.name, type: PROVIDER_TYPE });
    try {
      await this.call("checkConfig", req);
    } catch (e) {
      if (!(e instanceof HostError && e.code === grpcStatus.UNIMPLEMENTED)) throw e;
    }
  }

  /** Cancel, as the engine sends every plugin when the deployment ends (plugin host shutdown); the dynamic host answers at once. */
  async cancel(): Promise<void> {
    const empty = pulumiRequire("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => Message };
    this.sent("Cancel", {});
    await this.call("cancel", new empty.Empty());
  }

  /**
   * Configure with the stack config, as `{ "bunnynet:apiKey": secret("…") }`, as the provider resource `provider`
   * (default: this stack's default provider, with a new id).
   */
  async configure(config: ConfigValues, provider?: ProviderIdentity): Promise<void> {
    const { urn, name, id } = provider ?? { urn: `urn:pulumi:${this.stack}::${this.project}::${PROVIDER_TYPE}::default`, name: "default", id: randomUUID() };
    const req = message("ConfigureRequest");
    const args = configToWire(config);
    req.setArgs(Struct.fromJavaScript(args));
    const variables = req.getVariablesMap() as { set(k: string, v: string): void };
    const sentVariables: Record<string, string> = {};
    for (const [k, v] of Object.entries(config)) {
      const value = v instanceof Secret ? v.value : v;
      sentVariables[`pulumi-nodejs:config:${k}`] = typeof value === "string" ? value : JSON.stringify(value);
    }
    for (const [k, v] of Object.entries(sentVariables)) variables.set(k, v);
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    // Fields of newer protocol versions: set where the installed SDK's messages have them.
    setIfKnown(req, "setSendsOldInputs", true);
    setIfKnown(req, "setSendsOldInputsToDelete", true);
    setIfKnown(req, "setUrn", urn);
    setIfKnown(req, "setName", name);
    setIfKnown(req, "setType", PROVIDER_TYPE);
    setIfKnown(req, "setId", id);
    this.sent("Configure", { variables: sentVariables, args, acceptSecrets: true, acceptResources: true, sendsOldInputs: true, sendsOldInputsToDelete: true, id, urn, name, type: PROVIDER_TYPE });
    await this.call("configure", req);
  }

  /** `oldOutputs`: the outputs in state (the engine sends them since v3.2xx; none for a new resource). */
  async check(type: string, olds: Plain, news: Plain, name = "test", oldOutputs: Plain = {}): Promise<{ inputs: Plain; failures: CheckFailure[] }> {
    const req = message("CheckRequest");
    const ids = this.identify(req, type, name);
    const [oldsStruct, oldsSent] = await this.props(type, olds, Object.keys(olds).length > 0);
    const [newsStruct, newsSent] = await this.props(type, news);
    const [oldOutputsStruct, oldOutputsSent] = await this.props(type, oldOutputs, Object.keys(oldOutputs).length > 0);
    const randomSeed = randomBytes(32).toString("base64");
    req.setOlds(oldsStruct);
    req.setNews(newsStruct);
    setIfKnown(req, "setOldOutputs", oldOutputsStruct);
    setIfKnown(req, "setRandomseed", Buffer.from(randomSeed, "base64"));
    this.sent("Check", { ...ids, olds: oldsSent, news: newsSent, randomSeed, oldOutputs: oldOutputsSent });
    const res = await this.call("check", req);
    const failures = (res.message.getFailuresList() as Message[]).map((f) => ({ property: f.getProperty() as string, reason: f.getReason() as string }));
    return { inputs: answer(res, 1), failures };
  }

  /**
   * What a Diff and an Update request carry alike (the id, the resource's identity, olds, news, old inputs and
   * `ignoreChanges`), set on `req`; returns them as recorded, each caller adding its own fields in the engine's order.
   */
  private async change(req: Message, type: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain, name: string, ignoreChanges: string[]) {
    req.setId(id);
    const ids = this.identify(req, type, name);
    const [olds, oldsSent] = await this.props(type, oldOutputs);
    const [newsStruct, newsSent] = await this.props(type, news);
    const [oldInputsStruct, oldInputsSent] = await this.props(type, oldInputs);
    req.setOlds(olds);
    req.setNews(newsStruct);
    req.setOldInputs(oldInputsStruct);
    req.setIgnorechangesList(ignoreChanges);
    return { ids, oldsSent, newsSent, oldInputsSent, ignored: ignoreChanges.length > 0 ? { ignoreChanges } : {} };
  }

  async diff(type: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain = {}, name = "test", ignoreChanges: string[] = []): Promise<DiffAnswer> {
    const req = message("DiffRequest");
    const { ids, oldsSent, newsSent, oldInputsSent, ignored } = await this.change(req, type, id, oldOutputs, news, oldInputs, name, ignoreChanges);
    this.sent("Diff", { id, ...ids, olds: oldsSent, news: newsSent, ...ignored, oldInputs: oldInputsSent });
    const { message: diff } = await this.call("diff", req);
    const changes = ["unknown", "none", "some"][diff.getChanges() as number] as DiffAnswer["changes"];
    return { changes, replaces: diff.getReplacesList() as string[], deleteBeforeReplace: diff.getDeletebeforereplace() as boolean };
  }

  /** `timeout`: the resource's custom timeout in seconds, 0 for none (as the engine sends it). */
  async create(type: string, inputs: Plain, name = "test", timeout = 0): Promise<{ id: string; outputs: Plain }> {
    const req = message("CreateRequest");
    const ids = this.identify(req, type, name);
    const [properties, propertiesSent] = await this.props(type, this.owned(inputs, type, name));
    req.setProperties(properties);
    if (timeout) req.setTimeout(timeout);
    this.sent("Create", { ...ids, properties: propertiesSent, ...(timeout ? { timeout } : {}) });
    const res = await this.call("create", req);
    return { id: res.message.getId() as string, outputs: answer(res, 2) };
  }

  /** Refresh: the id is empty when the object is gone. `inputs` is set when the provider refreshed them. */
  async read(type: string, id: string, outputs: Plain, inputs: Plain = {}, name = "test"): Promise<{ id: string; outputs: Plain; inputs?: Plain }> {
    const req = message("ReadRequest");
    req.setId(id);
    const ids = this.identify(req, type, name);
    const [properties, propertiesSent] = await this.props(type, outputs);
    const [inputsStruct, inputsSent] = await this.props(type, inputs);
    req.setProperties(properties);
    req.setInputs(inputsStruct);
    this.sent("Read", { id, ...ids, properties: propertiesSent, inputs: inputsSent });
    const res = await this.call("read", req);
    return { id: res.message.getId() as string, outputs: answer(res, 2), inputs: res.properties.has(3) ? answer(res, 3) : undefined };
  }

  /** Read as `pulumi import` sends it: the id only, no inputs, no state, so no `__provider` (pkg/resource/deploy/import.go). */
  async importRead(type: string, id: string, name = "test"): Promise<void> {
    const req = message("ReadRequest");
    req.setId(id);
    const ids = this.identify(req, type, name);
    this.sent("Read", { id, ...ids });
    await this.call("read", req);
  }

  async update(type: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain = {}, name = "test", timeout = 0, ignoreChanges: string[] = []): Promise<Plain> {
    const req = message("UpdateRequest");
    const { ids, oldsSent, newsSent, oldInputsSent, ignored } = await this.change(req, type, id, oldOutputs, this.owned(news, type, name), oldInputs, name, ignoreChanges);
    if (timeout) req.setTimeout(timeout);
    this.sent("Update", { id, ...ids, olds: oldsSent, news: newsSent, ...(timeout ? { timeout } : {}), ...ignored, oldInputs: oldInputsSent });
    const res = await this.call("update", req);
    return answer(res, 1);
  }

  async delete(type: string, id: string, outputs: Plain, oldInputs: Plain = {}, name = "test", timeout = 0): Promise<void> {
    const req = message("DeleteRequest");
    req.setId(id);
    const ids = this.identify(req, type, name);
    const [properties, propertiesSent] = await this.props(type, outputs);
    const [oldInputsStruct, oldInputsSent] = await this.props(type, oldInputs);
    req.setProperties(properties);
    req.setOldInputs(oldInputsStruct);
    if (timeout) req.setTimeout(timeout);
    this.sent("Delete", { id, ...ids, properties: propertiesSent, ...(timeout ? { timeout } : {}), oldInputs: oldInputsSent });
    await this.call("delete", req);
  }

  /**
   * The next `pulumi` command: this plugin process stops and a new one starts, configured with `config`. The engine
   * starts one per command, and a deployment's reads come from one fetch (provider/http/sharedReads.ts), so what a
   * test changed outside Pulumi is seen from the next deployment on.
   */
  async nextDeployment(config: ConfigValues, options: HostOptions = {}): Promise<ProviderHost> {
    await this.stop();
    const next = await ProviderHost.start(options);
    await next.configure(config);
    return next;
  }

  async stop(): Promise<void> {
    this.client.close();
    await this.plugin.stop();
  }
}

/** A gRPC call the host answered with an error; `message` is what the engine would show. */
export class HostError extends Error {
  constructor(
    readonly method: string,
    readonly details: string,
    /** The gRPC status code of the host's answer, when it answered with one. */
    readonly code?: number,
  ) {
    super(`${method}: ${details}`);
    this.name = "HostError";
  }
}
