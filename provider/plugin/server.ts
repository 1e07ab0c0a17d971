/**
 * The provider plugin `pulumi-resource-bunnynet`: the package's resources (the same definitions and implementations as
 * the TypeScript package's dynamic resources) served over Pulumi's provider gRPC interface, so that every Pulumi
 * language, `pulumi import` and `Resource.get` reach them. Tokens `bunnynet:index:<Type>`.
 *
 * Built on the SDK's generated stubs (@pulumi/pulumi/proto/provider_grpc_pb.js, provider_pb.js, plugin_pb.js) and
 * @grpc/grpc-js, not on `@pulumi/pulumi/provider`'s server, which falls short here (node_modules/@pulumi/pulumi/
 * provider/server.js of @pulumi/pulumi 3.270.0):
 * - `configure` (:120-127) answers without reading the request, so the provider's configuration never reaches the
 *   provider (pulumi/pulumi#10915);
 * - `checkConfig` and `diffConfig` (:108-119) answer UNIMPLEMENTED;
 * - `diff` (:189-219) sets changes, replaces and deleteBeforeReplace only: never stables, never a detailed diff;
 * - every request's properties are read with `Struct.toJavaScript()` (:154-155, :193-194, :228, :244, :273-274, :290),
 *   which keeps a secret as its `{sig, value}` wrapper object and answers outputs without marking any secret: with
 *   acceptSecrets true (:122) the provider would see wrappers where it expects values, and secrets would come back plain.
 *
 * Like the SDK's `main` (server.js:652-702, the port printed at :701), it binds 127.0.0.1 on a free port and prints the
 * port alone on stdout, which the engine reads to connect (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go:464,
 * `strconv.Atoi` of the first line). Its first argument not a flag is the engine's address: watched, with the parent
 * process, by engineWatch.ts; once the engine is gone no request is sent any more (http/halt.ts), no call is taken,
 * and the process exits at once (an orphan's operations are recorded by no state). Diagnostics go to stderr, which the
 * engine shows. SIGINT/SIGTERM stop it gracefully (no new calls, then exit); Cancel answers at once.
 */
import * as grpc from "@grpc/grpc-js";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import { whyRequestsHalted } from "../http/halt";
import { packageInfo } from "../packageInfo";
import { OWNER_KEY, type Plain, withoutProvider } from "../pulumi/wire";
import { changedSettings, configFailures, engineConfig, explicitProviderName } from "./configuration";
import { watchEngine } from "./engineWatch";
import { configureFunctions, invokeFunction } from "./functions";
import { receive, send } from "./properties";
import { type DetailedDiff, DiffKind, allImplementations, resourceTypeOf } from "./resourceProvider";

/** Where GetSchema reads the package schema: beside the bundle (dist/pulumi-plugin/), else the source folder's. */
function schemaText(): string {
  const candidates = [join(__dirname, "schema.json"), join(__dirname, "..", "..", "plugin", "schema.json")];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`bunnynet's schema.json is missing (looked in ${candidates.join(", ")})`);
  return readFileSync(found, "utf8");
}

type Handler<Req, Res> = (request: Req) => Promise<Res>;

/**
 * A unary gRPC method from an async function; a thrown error answers UNKNOWN with its message (the engine shows it).
 * Once the engine is gone (halt.ts) no call is begun: UNAVAILABLE.
 */
function unary<Req, Res>(fn: Handler<Req, Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const halted = whyRequestsHalted();
    if (halted) return callback({ code: grpc.status.UNAVAILABLE, details: halted } as grpc.ServiceError, null);
    fn(call.request).then(
      (res) => callback(null, res),
      (e: unknown) => callback({ code: grpc.status.UNKNOWN, details: e instanceof Error ? e.message : String(e) } as grpc.ServiceError, null),
    );
  };
}

function checkResponse(inputs: provproto.CheckResponse["getInputs"] extends () => infer S ? S : never, failures: { property: string; reason: string }[]): provproto.CheckResponse {
  const resp = new provproto.CheckResponse();
  resp.setInputs(inputs);
  resp.setFailuresList(failures.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason)));
  return resp;
}

function diffResponse(d: DetailedDiff): provproto.DiffResponse {
  const resp = new provproto.DiffResponse();
  resp.setChanges(d.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
  resp.setReplacesList(d.replaces);
  resp.setStablesList(d.stables);
  resp.setDeletebeforereplace(d.deleteBeforeReplace);
  resp.setDiffsList(Object.keys(d.detailedDiff));
  const detailed = resp.getDetaileddiffMap();
  for (const [k, kind] of Object.entries(d.detailedDiff)) detailed.set(k, new provproto.PropertyDiff().setKind(kind as provproto.PropertyDiff.Kind).setInputdiff(true));
  resp.setHasdetaileddiff(true);
  return resp;
}

/** The provider inputs of a Configure: `args`, else the deprecated `variables` (`bunnynet:config:<key>`). */
function configureInputs(req: provproto.ConfigureRequest): Plain {
  if (req.hasArgs()) return receive(req.getArgs()).values;
  const inputs: Plain = {};
  req.getVariablesMap().forEach((value, key) => {
    const m = /^bunnynet:(?:config:)?(.+)$/.exec(key);
    if (m) inputs[m[1]] = value;
  });
  return inputs;
}

export const service: Partial<provrpc.IResourceProviderServer> = {
  getPluginInfo: unary(async () => new plugproto.PluginInfo().setVersion(packageInfo.version)),

  getSchema: unary(async (req: provproto.GetSchemaRequest) => {
    if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
    return new provproto.GetSchemaResponse().setSchema(schemaText());
  }),

  checkConfig: unary(async (req: provproto.CheckRequest) => {
    const news = receive(req.getNews());
    // The key is a secret wherever it came from (a plain value in a provider's arguments too).
    return checkResponse(send(news.values, [...news.secrets, "apiKey"]), configFailures(news.values, explicitProviderName(req.getUrn())));
  }),

  diffConfig: unary(async (req: provproto.DiffRequest) => {
    const olds = receive(req.getOldInputs() ?? req.getOlds()).values;
    const changed = changedSettings(olds, receive(req.getNews()).values);
    const detailedDiff = Object.fromEntries(changed.map((k) => [k, olds[k] === undefined ? DiffKind.ADD : DiffKind.UPDATE]));
    // A changed key or URL reaches the same objects another way: an update of the provider, never a replacement.
    return diffResponse({ changes: changed.length > 0, replaces: [], stables: [], deleteBeforeReplace: false, detailedDiff });
  }),

  configure: unary(async (req: provproto.ConfigureRequest) => {
    const config = engineConfig(configureInputs(req), explicitProviderName(req.getUrn()));
    configureFunctions(config);
    for (const impl of allImplementations()) await impl.configure({ config } as unknown as Parameters<typeof impl.configure>[0]);
    const resp = new provproto.ConfigureResponse();
    resp.setAcceptsecrets(true);
    resp.setSupportspreview(true);
    resp.setAcceptresources(false);
    resp.setAcceptoutputs(false);
    return resp;
  }),

  check: unary(async (req: provproto.CheckRequest) => {
    const served = resourceTypeOf(req.getType() || typeFromUrn(req.getUrn()));
    const olds = receive(req.getOlds());
    const news = receive(req.getNews());
    const checked = await served.impl.check(olds.values, news.values);
    return checkResponse(send((checked.inputs ?? news.values) as Plain, served.secretKeys(news)), (checked.failures ?? []).map((f) => ({ property: f.property, reason: f.reason })));
  }),

  diff: unary(async (req: provproto.DiffRequest) => {
    const served = resourceTypeOf(req.getType() || typeFromUrn(req.getUrn()));
    return diffResponse(served.diff(req.getId(), receive(req.getOlds()).values, receive(req.getNews()).values));
  }),

  create: unary(async (req: provproto.CreateRequest) => {
    const served = resourceTypeOf(req.getType() || typeFromUrn(req.getUrn()));
    const news = receive(req.getProperties());
    const resp = new provproto.CreateResponse();
    if (req.getPreview()) return resp.setId("").setProperties(send(served.predictCreate(news.values), served.secretKeys(news)));
    // The URN names the resource whose mark proves the objects it made (pulumi/ownership.ts).
    const created = await served.impl.create({ ...news.values, [OWNER_KEY]: req.getUrn() });
    return resp.setId(created.id).setProperties(send(withoutProvider((created.outs ?? {}) as Plain), served.secretKeys(news)));
  }),

  read: unary(async (req: provproto.ReadRequest) => {
    const served = resourceTypeOf(req.getType() || typeFromUrn(req.getUrn()));
    const state = receive(req.getProperties());
    const inputs = receive(req.getInputs());
    const read = await served.read(req.getId(), state.values, inputs.values);
    const resp = new provproto.ReadResponse();
    // Gone: an empty id, and the engine drops the resource from the state (refresh) or reports it missing (import).
    if (read.id === undefined) return resp.setId("");
    const secrets = served.secretKeys(state, inputs);
    resp.setId(read.id).setProperties(send(read.props, secrets));
    if (read.inputs) resp.setInputs(send(read.inputs, secrets));
    return resp;
  }),

  update: unary(async (req: provproto.UpdateRequest) => {
    const served = resourceTypeOf(req.getType() || typeFromUrn(req.getUrn()));
    const olds = receive(req.getOlds());
    const news = receive(req.getNews());
    const secrets = served.secretKeys(olds, news);
    const resp = new provproto.UpdateResponse();
    if (req.getPreview()) return resp.setProperties(send(served.predictUpdate(olds.values, news.values), secrets));
    const updated = await served.impl.update(req.getId(), olds.values, { ...news.values, [OWNER_KEY]: req.getUrn() });
    // The URN went in for the mark; the plugin's outputs are the schema's alone.
    return resp.setProperties(send(withoutProvider((updated.outs ?? {}) as Plain), secrets));
  }),

  delete: unary(async (req: provproto.DeleteRequest) => {
    const served = resourceTypeOf(req.getType() || typeFromUrn(req.getUrn()));
    await served.impl.delete(req.getId(), receive(req.getProperties()).values);
    return new Empty();
  }),

  invoke: unary(async (req: provproto.InvokeRequest) => {
    const args = receive(req.getArgs());
    const result = await invokeFunction(req.getTok(), args.values);
    // A function's result holds no secret of its own; one given a secret argument answers wholly secret.
    const resp = new provproto.InvokeResponse();
    resp.setReturn(send(result, args.secrets.size > 0 ? Object.keys(result) : []));
    return resp;
  }),

  // Nothing to stop: every call is bounded by the client's timeouts and retries, and the engine ends the process.
  cancel: unary(async () => new Empty()),
};

function typeFromUrn(urn: string): string {
  return urn.split("::")[2] ?? "";
}

/** Starts the server, prints its port and watches the engine at `engineAddress` (the plugin's `main`). */
export async function serve(engineAddress: string | undefined): Promise<grpc.Server> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024, "grpc.max_send_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, service as provrpc.IResourceProviderServer);
  const port = await new Promise<number>((ok, fail) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? fail(err) : ok(p))),
  );
  process.stdout.write(`${port}\n`);
  // The engine ends a plugin with SIGINT/SIGTERM at the end of a command (or on Ctrl-C): stop taking calls, then go.
  const stop = () => server.tryShutdown(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  watchEngine(engineAddress, (reason) => {
    // Whoever read stderr may be gone with the engine: a write to a closed pipe must not throw instead of exiting.
    process.stderr.on("error", () => undefined);
    process.stderr.write(`pulumi-resource-bunnynet: ${reason}: nothing more is sent, exiting\n`);
    server.forceShutdown();
    process.exit(1);
  });
  return server;
}
