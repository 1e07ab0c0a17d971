import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { typeToken } from "bunnynet-pulumi/dist/pulumi/base.js";
import { providerText as packageProviderText } from "bunnynet-pulumi/dist/pulumi/shim.js";

/**
 * The SDK's real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) in a child process, driven
 * over gRPC the way the engine drives it: config through Configure, properties as protobuf Structs with
 * `__provider` in them, secrets stripped (the host does not accept secrets), unknowns as the engine's
 * placeholder string.
 */

/** Modules of the SDK's own dependencies, loaded the way the SDK loads them (same instances). */
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));

/** The engine's placeholder for a value unknown at preview time. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A value the program marked secret (`pulumi.secret`). */
export class Secret<T = unknown> {
  constructor(readonly value: T) {}
}
export const secret = <T>(value: T): Secret<T> => new Secret(value);

/** Resource properties as plain JavaScript values (secrets unwrapped, unknowns as UNKNOWN_VALUE). */
export type Plain = Record<string, unknown>;

/** Properties as the host answered them, without the (long) `__provider` text, which the harness adds back when sending. */
function answer(struct: StructMessage): Plain {
  const props = struct.toJavaScript();
  delete props.__provider;
  return props;
}

/** The `__provider` text of one of the package's resource types, as every resource of the type stores it. */
export async function providerText(type: string): Promise<string> {
  return packageProviderText(type);
}

/** What the engine sends when the provider does not accept secrets: secrets are plain values (and a Struct has no undefined). */
export function toWire(value: unknown): unknown {
  if (value instanceof Secret) return toWire(value.value);
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, toWire(v)]));
  }
  return value;
}

/** Config values as the engine sends them in ConfigureRequest.args: secrets in the secret envelope. */
function configToWire(config: Record<string, string | Secret<string>>): Plain {
  return Object.fromEntries(
    Object.entries(config).map(([k, v]) => [k, v instanceof Secret ? { [SECRET_SIG_KEY]: SECRET_SIG, value: v.value } : v]),
  );
}

export interface CheckFailure {
  property: string;
  reason: string;
}

/**
 * A failure with the property it names: `property`, or, where the provider leaves `property` empty so that the engine
 * cannot print a value that may be secret, the property the reason starts with (`defaultValue: too long`).
 */
export function named(f: CheckFailure): CheckFailure {
  const m = f.property ? null : /^([\w.]+): ([\s\S]*)$/.exec(f.reason);
  return m ? { property: m[1], reason: m[2] } : f;
}

export interface DiffAnswer {
  changes: "some" | "none" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

export interface HostOptions {
  /** The Pulumi project's directory (where Pulumi.yaml is). Defaults to the current directory. */
  projectDir?: string;
  /** `main` in Pulumi.yaml, relative to the project's directory: the plugin runs in its directory (see pluginDirectory). */
  main?: string;
  /** PULUMI_NODEJS_PROJECT. */
  project?: string;
  /** Extra environment of the plugin process. BUNNYNET_* of the test process are not inherited. */
  env?: Record<string, string>;
}

/**
 * The plugin's working directory as the engine chooses it (pkg/engine/project.go, getPwdMain; the plugin is started
 * with that directory, pkg/resource/plugin/plugin.go): the project's directory, or `main` when it is a directory,
 * or the directory of `main` when it is a file.
 */
export function pluginDirectory(projectDir: string, main?: string): string {
  if (!main) return projectDir;
  const path = resolve(projectDir, main);
  return statSync(path).isDirectory() ? path : dirname(path);
}

/* The generated gRPC and protobuf classes are untyped JavaScript; these are the parts used here. */
interface StructClass {
  fromJavaScript(value: Plain): StructMessage;
}
interface StructMessage {
  toJavaScript(): Plain;
}
type Message = Record<string, (...args: unknown[]) => unknown>;
type Callback = (err: (Error & { details?: string }) | null, res: Message) => void;
type RpcClient = Record<string, (req: Message, cb: Callback) => void> & { close(): void };

export class ProviderHost {
  private readonly texts = new Map<string, string>();
  private stderrText = "";
  private stdoutText = "";

  private constructor(
    private readonly child: ChildProcess,
    private readonly client: RpcClient,
    private readonly project: string,
  ) {
    child.stderr?.on("data", (d: Buffer) => (this.stderrText += d.toString()));
  }

  /** Starts the host and connects to the port it prints. */
  static async start(options: HostOptions = {}): Promise<ProviderHost> {
    const project = options.project ?? "bunnynet-test";
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BUNNYNET_") && !k.startsWith("BUNNY_")));
    Object.assign(env, { PULUMI_NODEJS_PROJECT: project }, options.env);
    // The second argument is the engine's address; this host only checks that one is given.
    const child = spawn(process.execPath, [require.resolve("@pulumi/pulumi/cmd/dynamic-provider"), "127.0.0.1:0"], {
      cwd: pluginDirectory(options.projectDir ?? process.cwd(), options.main),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let early = "";
    child.stderr?.on("data", (d: Buffer) => (early += d.toString()));
    const port = await new Promise<number>((resolvePort, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once("line", (line) => resolvePort(Number(line.trim())));
      child.once("exit", (code) => reject(new Error(`provider host exited with ${code} before printing its port: ${early}`)));
      child.once("error", reject);
    });
    const grpc = pulumiRequire("@grpc/grpc-js") as { credentials: { createInsecure(): unknown } };
    const services = pulumiRequire("@pulumi/pulumi/proto/provider_grpc_pb") as {
      ResourceProviderClient: new (address: string, credentials: unknown) => RpcClient;
    };
    const client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const host = new ProviderHost(child, client, project);
    host.stderrText = early;
    child.stdout?.on("data", (d: Buffer) => (host.stdoutText += d.toString()));
    return host;
  }

  /** Everything the host wrote to stderr and stdout (errors are logged there): for checking nothing secret leaks. */
  logs(): string {
    return this.stdoutText + this.stderrText;
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
    req.setUrn(this.urn(type, name));
    req.setName(name);
    req.setType(typeToken(type));
  }

  private urn(type: string, name: string): string {
    return `urn:pulumi:test::${this.project}::${typeToken(type)}::${name}`;
  }

  private async props(type: string, values: Plain, withProvider = true): Promise<StructMessage> {
    const wire = toWire(values) as Plain;
    if (withProvider && !("__provider" in wire)) wire.__provider = await this.textOf(type);
    return this.struct().fromJavaScript(wire);
  }

  private struct(): StructClass {
    return (pulumiRequire("google-protobuf/google/protobuf/struct_pb") as { Struct: StructClass }).Struct;
  }

  private message(name: string): Message {
    const proto = pulumiRequire("@pulumi/pulumi/proto/provider_pb") as Record<string, new () => Message>;
    return new proto[name]();
  }

  private call(method: string, req: Message): Promise<Message> {
    return new Promise((resolveCall, reject) => {
      this.client[method](req, (err, res) => {
        if (err) reject(new HostError(method, err.details ?? err.message));
        else resolveCall(res);
      });
    });
  }

  /** An RPC that does no provider work (GetPluginInfo): the cost of the gRPC round trip itself. */
  async ping(): Promise<void> {
    const empty = pulumiRequire("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => Message };
    await this.call("getPluginInfo", new empty.Empty());
  }

  /** Configure with the stack config, as `{ "bunnynet:apiKey": secret("…") }`. */
  async configure(config: Record<string, string | Secret<string>>): Promise<void> {
    const req = this.message("ConfigureRequest");
    req.setArgs(this.struct().fromJavaScript(configToWire(config)));
    const variables = req.getVariablesMap() as { set(k: string, v: string): void };
    for (const [k, v] of Object.entries(config)) {
      const [ns, key] = k.split(":");
      variables.set(`${ns}:config:${key}`, v instanceof Secret ? v.value : v);
    }
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    await this.call("configure", req);
  }

  async check(type: string, olds: Plain, news: Plain, name = "test"): Promise<{ inputs: Plain; failures: CheckFailure[] }> {
    const req = this.message("CheckRequest");
    this.identify(req, type, name);
    req.setOlds(await this.props(type, olds, Object.keys(olds).length > 0));
    req.setNews(await this.props(type, news));
    const res = await this.call("check", req);
    const failures = (res.getFailuresList() as Message[]).map((f) => ({ property: f.getProperty() as string, reason: f.getReason() as string }));
    return { inputs: answer(res.getInputs() as StructMessage), failures };
  }

  async diff(type: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain = {}, name = "test"): Promise<DiffAnswer> {
    const req = this.message("DiffRequest");
    req.setId(id);
    this.identify(req, type, name);
    req.setOlds(await this.props(type, oldOutputs));
    req.setNews(await this.props(type, news));
    req.setOldInputs(await this.props(type, oldInputs));
    const res = await this.call("diff", req);
    const changes = ["unknown", "none", "some"][res.getChanges() as number] as DiffAnswer["changes"];
    return { changes, replaces: res.getReplacesList() as string[], deleteBeforeReplace: res.getDeletebeforereplace() as boolean };
  }

  async create(type: string, inputs: Plain, name = "test"): Promise<{ id: string; outputs: Plain }> {
    const req = this.message("CreateRequest");
    this.identify(req, type, name);
    req.setProperties(await this.props(type, inputs));
    req.setTimeout(300);
    const res = await this.call("create", req);
    return { id: res.getId() as string, outputs: answer(res.getProperties() as StructMessage) };
  }

  /** Refresh: the id is empty when the object is gone. `inputs` is set when the provider refreshed them. */
  async read(type: string, id: string, outputs: Plain, inputs: Plain = {}, name = "test"): Promise<{ id: string; outputs: Plain; inputs?: Plain }> {
    const req = this.message("ReadRequest");
    req.setId(id);
    this.identify(req, type, name);
    req.setProperties(await this.props(type, outputs));
    req.setInputs(await this.props(type, inputs));
    const res = await this.call("read", req);
    const refreshed = res.getInputs() as StructMessage | undefined;
    return { id: res.getId() as string, outputs: answer(res.getProperties() as StructMessage), inputs: refreshed ? answer(refreshed) : undefined };
  }

  /** Read as `pulumi import` sends it: the id only, no inputs, no state, so no `__provider` (pkg/resource/deploy/import.go). */
  async importRead(type: string, id: string, name = "test"): Promise<void> {
    const req = this.message("ReadRequest");
    req.setId(id);
    this.identify(req, type, name);
    await this.call("read", req);
  }

  async update(type: string, id: string, oldOutputs: Plain, news: Plain, oldInputs: Plain = {}, name = "test"): Promise<Plain> {
    const req = this.message("UpdateRequest");
    req.setId(id);
    this.identify(req, type, name);
    req.setOlds(await this.props(type, oldOutputs));
    req.setNews(await this.props(type, news));
    req.setOldInputs(await this.props(type, oldInputs));
    req.setTimeout(300);
    const res = await this.call("update", req);
    return answer(res.getProperties() as StructMessage);
  }

  async delete(type: string, id: string, outputs: Plain, oldInputs: Plain = {}, name = "test"): Promise<void> {
    const req = this.message("DeleteRequest");
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
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once("exit", () => r()));
    this.child.kill();
    await exited;
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
