import { PROVIDER_KEY, providerText as packageProviderText, typeToken } from "bunnynet-pulumi/dist/pulumi/index.js";
import type { CheckFailure } from "./engineMessages";
import { type HostOptions, type PluginProcess, startPluginProcess } from "./pluginProcess";
import { type StructMessage, Struct, pulumiRequire } from "./sdkModules";
import { partResponse, structForSending } from "./structWire";
import { type ConfigValues, type Plain, Secret, configToWire, toWire, withoutProvider } from "./wire";

/**
 * Talking to the SDK's real dynamic-provider host (./pluginProcess.ts starts it) over gRPC the way the engine does:
 * config through Configure, properties as protobuf Structs with `__provider` in them, secrets stripped (the host does
 * not accept secrets), unknowns as the engine's placeholder string.
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

/** The engine's default timeout of Create, Update and Delete (sent in their requests below), in seconds. */
const ENGINE_OPERATION_TIMEOUT_SECONDS = 300;

const { status: grpcStatus } = pulumiRequire("@grpc/grpc-js") as { status: { DEADLINE_EXCEEDED: number; UNAVAILABLE: number } };

/** How long a call whose connection broke waits to learn whether the process ended (then named as the reason). */
const EXIT_GRACE_MS = 1000;

/** Properties as the host answered them (field `field` of the response), without the `__provider` text. */
function answer(res: Answer, field: number): Plain {
  return withoutProvider(res.properties.get(field) ?? {});
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
    return new ProviderHost(plugin, client, methods, project, options.answerTimeoutSeconds ?? ENGINE_OPERATION_TIMEOUT_SECONDS);
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
  private identify(req: Message, type: string, name: string): void {
    req.setUrn(`urn:pulumi:test::${this.project}::${typeToken(type)}::${name}`);
    req.setName(name);
    req.setType(typeToken(type));
  }

  private async props(type: string, values: Plain, withProvider = true): Promise<StructMessage> {
    const wire = toWire(values) as Plain;
    if (withProvider && !(PROVIDER_KEY in wire)) wire[PROVIDER_KEY] = await this.textOf(type);
    return structForSending(wire);
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
        else if (err) reject(new HostError(method, err.details ?? err.message));
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

  /** Configure with the stack config, as `{ "bunnynet:apiKey": secret("…") }`. */
  async configure(config: ConfigValues): Promise<void> {
    const req = message("ConfigureRequest");
    req.setArgs(Struct.fromJavaScript(configToWire(config)));
    const variables = req.getVariablesMap() as { set(k: string, v: string): void };
    for (const [k, v] of Object.entries(config)) {
      const [ns, key] = k.split(":");
      variables.set(`${ns}:config:${key}`, String(v instanceof Secret ? v.value : v));
    }
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    await this.call("configure", req);
  }

  async check(type: string, olds: Plain, news: Plain, name = "test"): Promise<{ inputs: Plain; failures: CheckFailure[] }> {
    const req = message("CheckRequest");
    this.identify(req, type, name);
    req.setOlds(await this.props(type, olds, Object.keys(olds).length > 0));
    req.setNews(await this.props(type, news));
    const res = await this.call("check", req);
    const failures = (res.message.getFailuresList() as Message[]).map((f) => ({ property: f.getProperty() as string, reason: f.getReason() as string }));
    return { inputs: answer(res, 1), failures };
  }

  async diff(type: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain = {}, name = "test"): Promise<DiffAnswer> {
    const req = message("DiffRequest");
    req.setId(id);
    this.identify(req, type, name);
    req.setOlds(await this.props(type, oldOutputs));
    req.setNews(await this.props(type, news));
    req.setOldInputs(await this.props(type, oldInputs));
    const { message: diff } = await this.call("diff", req);
    const changes = ["unknown", "none", "some"][diff.getChanges() as number] as DiffAnswer["changes"];
    return { changes, replaces: diff.getReplacesList() as string[], deleteBeforeReplace: diff.getDeletebeforereplace() as boolean };
  }

  async create(type: string, inputs: Plain, name = "test"): Promise<{ id: string; outputs: Plain }> {
    const req = message("CreateRequest");
    this.identify(req, type, name);
    req.setProperties(await this.props(type, inputs));
    req.setTimeout(300);
    const res = await this.call("create", req);
    return { id: res.message.getId() as string, outputs: answer(res, 2) };
  }

  /** Refresh: the id is empty when the object is gone. `inputs` is set when the provider refreshed them. */
  async read(type: string, id: string, outputs: Plain, inputs: Plain = {}, name = "test"): Promise<{ id: string; outputs: Plain; inputs?: Plain }> {
    const req = message("ReadRequest");
    req.setId(id);
    this.identify(req, type, name);
    req.setProperties(await this.props(type, outputs));
    req.setInputs(await this.props(type, inputs));
    const res = await this.call("read", req);
    return { id: res.message.getId() as string, outputs: answer(res, 2), inputs: res.properties.has(3) ? answer(res, 3) : undefined };
  }

  /** Read as `pulumi import` sends it: the id only, no inputs, no state, so no `__provider` (pkg/resource/deploy/import.go). */
  async importRead(type: string, id: string, name = "test"): Promise<void> {
    const req = message("ReadRequest");
    req.setId(id);
    this.identify(req, type, name);
    await this.call("read", req);
  }

  async update(type: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain = {}, name = "test"): Promise<Plain> {
    const req = message("UpdateRequest");
    req.setId(id);
    this.identify(req, type, name);
    req.setOlds(await this.props(type, oldOutputs));
    req.setNews(await this.props(type, news));
    req.setOldInputs(await this.props(type, oldInputs));
    req.setTimeout(300);
    const res = await this.call("update", req);
    return answer(res, 1);
  }

  async delete(type: string, id: string, outputs: Plain, oldInputs: Plain = {}, name = "test"): Promise<void> {
    const req = message("DeleteRequest");
    req.setId(id);
    this.identify(req, type, name);
    req.setProperties(await this.props(type, outputs));
    req.setOldInputs(await this.props(type, oldInputs));
    req.setTimeout(300);
    await this.call("delete", req);
  }

  /**
   * The next `pulumi` command: this plugin process stops and a new one starts, configured with `config`. The engine
   * starts one per command, and a deployment's reads come from one fetch (provider/http/sharedReads.ts), so what a
   * test changed outside Pulumi is seen from the next deployment on.
   */
  async nextDeployment(config: Record<string, string | Secret<string>>, options: HostOptions = {}): Promise<ProviderHost> {
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
  ) {
    super(`${method}: ${details}`);
    this.name = "HostError";
  }
}
