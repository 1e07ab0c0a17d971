/**
 * How the plugin notices that the Pulumi engine it serves is gone (issue 42: the CLI SIGKILLed, the plugin lived on
 * over a minute and sent creates no state will record). What pulumi/pulumi v3.276.0 does:
 * - The engine starts a provider plugin with its own gRPC address as the argument after any flags
 *   (sdk/go/common/resource/plugin/provider_plugin.go:288 `[]string{host.ServerAddr()}`, plugin.go:728-743
 *   `buildPluginArguments`), in a process group of its own (plugin.go:597-598, sdk/go/common/util/cmdutil/
 *   child_unix.go:51-53): a SIGKILL of the CLI reaches no plugin, which lives on, orphaned. Only a closing engine
 *   ends its plugins (SIGINT, then SIGKILL after 5 s: plugin.go:640-669).
 * - That address is the engine's host server (pkg/host/host.go:261-262, pkg/host/host_server.go:58), served by
 *   rpcutil.ServeWithOptions, which answers grpc.health.v1.Health (sdk/go/common/util/rpcutil/serve.go:86-106).
 *   Pulumi's Go providers check it every 5 minutes and stop on any error but UNIMPLEMENTED (sdk/go/pulumi/provider/
 *   main.go:127-134, sdk/go/common/util/rpcutil/health.go:28-68); the Node SDK's provider `main` keeps the address
 *   for its runtime settings only and watches nothing (@pulumi/pulumi provider/server.js:686-688).
 *
 * Here, two signs, either enough:
 * - The parent process. The sh launcher `exec`s node, so the plugin's parent is the engine; when it dies the kernel
 *   gives the plugin another (init or a subreaper), which `process.ppid` shows at once. Looked at every
 *   PARENT_POLL_MS and, through halt.ts, right before each request is sent.
 * - The engine's address, where the parent is not the engine (Windows' .cmd launcher runs node under cmd.exe, which
 *   outlives the CLI): a health check every HEALTH_POLL_MS. As in the Go SDK, UNIMPLEMENTED is alive; so is an answer
 *   later than the deadline (a busy engine answers late; a dead one's port refuses at once); any other error is gone.
 */
import * as grpc from "@grpc/grpc-js";
import { haltRequests, haltRequestsWhen } from "../http/halt";

const PARENT_POLL_MS = 200;
const HEALTH_POLL_MS = 2_000;
const HEALTH_DEADLINE_MS = 10_000;
const HEALTH_CHECK = "/grpc.health.v1.Health/Check";

/**
 * The engine's address among the plugin's arguments: the first that is not a flag, after the engine's `--logtostderr`,
 * `-v=<n>` and `--tracing <endpoint>` (read as the Node SDK does: @pulumi/pulumi provider/internals.js:30-50).
 * Undefined when the plugin was started by hand (to be attached to with PULUMI_DEBUG_PROVIDERS).
 */
export function engineAddressOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--logtostderr" || args[i].startsWith("-v=")) continue;
    if (args[i] === "--tracing") i++;
    else return args[i];
  }
  return undefined;
}

/**
 * Watches the engine at `address` (nothing when undefined) and the parent process. Once either says the engine is gone,
 * requests not yet sent are halted (halt.ts) and `onGone` is called, once, with why.
 */
export function watchEngine(address: string | undefined, onGone: (reason: string) => void): void {
  if (address === undefined) return;
  const parent = process.ppid;
  let gone = false;
  const timers: NodeJS.Timeout[] = [];
  const engineGone = (reason: string) => {
    if (gone) return;
    gone = true;
    timers.forEach(clearInterval);
    haltRequests(reason);
    onGone(reason);
  };
  const parentGone = () => (process.ppid !== parent ? `the Pulumi engine it served (process ${parent}) is gone` : undefined);
  haltRequestsWhen(parentGone);
  timers.push(
    setInterval(() => {
      const reason = parentGone();
      if (reason) engineGone(reason);
    }, PARENT_POLL_MS),
  );

  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let checking = false;
  timers.push(
    setInterval(() => {
      if (checking) return;
      checking = true;
      const raw = (bytes: Buffer) => bytes;
      // An empty HealthCheckRequest (the whole server) is zero bytes; the answer is not read: any answer is alive.
      client.makeUnaryRequest(HEALTH_CHECK, raw, raw, Buffer.alloc(0), { deadline: Date.now() + HEALTH_DEADLINE_MS }, (err) => {
        checking = false;
        if (err && err.code !== grpc.status.UNIMPLEMENTED && err.code !== grpc.status.DEADLINE_EXCEEDED) {
          client.close();
          engineGone(`the Pulumi engine it served (${address}) no longer answers: ${err.details || grpc.status[err.code]}`);
        }
      });
    }, HEALTH_POLL_MS),
  );
  // The server keeps the process running while it serves; these never have to.
  timers.forEach((t) => t.unref());
}
