/**
 * Runs one command of the real Pulumi CLI against a project, with the project's program served by the Node SDK's
 * own language server: `node sdkLanguageServer.js <projectDir> <pulumi args…>`.
 *
 * Why not the Node.js language host binary: its module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3)
 * is refused by the module proxy these machines reach (403 "This module version is not available", every version),
 * and no other registry ships it. The engine has a first-class way to run a program without a language host plugin:
 * the "client" runtime, `--client=<address>` on preview, up, refresh and destroy (pulumi/pulumi
 * pkg/cmd/pulumi/operations/io.go `readProjectForUpdate`, pkg/engine/plugin_host.go), which every Automation API
 * inline program uses. This does exactly what the SDK's automation/stack.ts does for an inline program (a
 * `LanguageServer` from automation/server.ts on 127.0.0.1:0, `--client`, `--exec-kind auto.inline`, `onPulumiExit`
 * after the CLI exits), so the engine, the plugin host, the dynamic-provider plugin, the state and the secrets are
 * all the real ones; only the program runs in this process rather than in one the Go host would start.
 *
 * The program is loaded as the SDK's cmd/run/run.ts loads a CommonJS one: `main` of Pulumi.yaml (else the project
 * folder, whose package.json `main` Node follows), and a module exporting a function has it called; its result (or
 * the exports) are the stack's outputs. The CLI may ask for several runs in one command (`up` previews first), so
 * each run loads the program's own modules anew.
 *
 * SIGINT and SIGTERM sent to this process are passed to the CLI, so a test can interrupt `pulumi up` as a user's
 * Ctrl-C would. The CLI's pid is written to the file `BUNNYNET_PULUMI_PID_FILE` names, if set, for a SIGKILL.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import type * as grpc from "@grpc/grpc-js";
import { load as parseYaml } from "js-yaml";
import { withFlags } from "./pulumiCli";

/**
 * Commands that run (or may run) the program, and so take `--client`; the rest never start a language runtime.
 * `pulumi import` runs no program and has no `--client` flag (pulumi/pulumi v3.259.0
 * pkg/cmd/pulumi/operations/import.go:1300-1360 declares its flags; the CLI answers "unknown flag: --client").
 */
export const PROGRAM_COMMANDS = new Set(["preview", "up", "update", "refresh", "destroy"]);

/** The file or folder the program is loaded from: Pulumi.yaml's `main`, relative to the project, else the project. */
export function programEntry(projectDir: string): string {
  const project = parseYaml(readFileSync(join(projectDir, "Pulumi.yaml"), "utf8")) as { main?: unknown } | undefined;
  const main = typeof project?.main === "string" && project.main !== "" ? project.main : ".";
  const entry = isAbsolute(main) ? main : resolve(projectDir, main);
  if (!existsSync(entry)) throw new Error(`${projectDir}/Pulumi.yaml: main ${main} does not exist (build the program first)`);
  if (/\.[cm]?ts$/.test(entry)) throw new Error(`${projectDir}/Pulumi.yaml: main ${main} is TypeScript; point main at the compiled JavaScript`);
  return entry;
}

/**
 * Where the program runs: `main`'s folder, or `main` itself when it is a folder (the project's folder when there is no
 * main), as the engine decides for the language host and every plugin (pulumi/pulumi v3.259.0 pkg/engine/project.go:45
 * `getPwdMain`, which accepts an absolute `main` or one outside the project). So the program's relative paths resolve
 * where the provider plugin's do.
 */
export function programDirectory(entry: string): string {
  return statSync(entry).isDirectory() ? entry : dirname(entry);
}

/** A program function for the SDK's LanguageServer: loads `entry` afresh (its folder's modules) on every run. */
export function programFrom(entry: string): () => Promise<unknown> {
  const own = (existsSync(entry) && !/\.[cm]?js$/.test(entry) ? entry : dirname(entry)) + sep;
  return async () => {
    for (const key of Object.keys(require.cache)) if (key.startsWith(own) && !key.includes(`${sep}node_modules${sep}`)) delete require.cache[key];
    const exported: unknown = require(entry.endsWith(sep) || !/\.[cm]?js$/.test(entry) ? entry + sep : entry);
    return exported instanceof Function ? await (exported as () => unknown)() : exported;
  };
}

/** Serves `program` on 127.0.0.1 as the SDK's automation API does; resolves the address and a stop function. */
export async function serveProgram(program: () => Promise<unknown>): Promise<{ address: string; stop(hasError: boolean): void }> {
  // The SDK's own copies (its gRPC above all: its server must be the one its generated services expect), loaded
  // here, not at the top, so a process that only builds arguments does not load the SDK's runtime.
  const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  const grpcJs = sdkRequire("@grpc/grpc-js") as typeof grpc;
  const { LanguageServer } = sdkRequire("./automation/server") as { LanguageServer: new (p: () => Promise<unknown>) => grpc.UntypedServiceImplementation & { onPulumiExit(hasError: boolean): void } };
  const langrpc = sdkRequire("./proto/language_grpc_pb") as { LanguageRuntimeService: grpc.ServiceDefinition };
  const { grpcChannelOptions } = sdkRequire("./runtime") as { grpcChannelOptions: grpc.ServerOptions };
  const server = new grpcJs.Server({ ...grpcChannelOptions });
  const languageServer = new LanguageServer(program);
  server.addService(langrpc.LanguageRuntimeService, languageServer);
  const port = await new Promise<number>((ok, fail) => server.bindAsync("127.0.0.1:0", grpcJs.ServerCredentials.createInsecure(), (err, p) => (err ? fail(err) : ok(p))));
  return {
    address: `127.0.0.1:${port}`,
    stop(hasError) {
      try {
        languageServer.onPulumiExit(hasError);
      } finally {
        server.forceShutdown();
      }
    },
  };
}

async function main(): Promise<void> {
  const [projectDir, ...args] = process.argv.slice(2);
  if (!projectDir || args.length === 0) throw new Error("usage: sdkLanguageServer <projectDir> <pulumi args…>");
  const command = args.find((a) => !a.startsWith("-"));
  let served: Awaited<ReturnType<typeof serveProgram>> | undefined;
  let cliArgs = args;
  if (command && PROGRAM_COMMANDS.has(command)) {
    const entry = programEntry(projectDir);
    process.chdir(programDirectory(entry));
    served = await serveProgram(programFrom(entry));
    cliArgs = withFlags(args, [`--client=${served.address}`, "--exec-kind", "auto.inline"]);
  }
  const cli = spawn(process.env.BUNNYNET_PULUMI_BIN ?? "pulumi", cliArgs, { stdio: "inherit", cwd: projectDir });
  if (process.env.BUNNYNET_PULUMI_PID_FILE && cli.pid !== undefined) writeFileSync(process.env.BUNNYNET_PULUMI_PID_FILE, String(cli.pid));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => cli.kill(signal));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((ok, fail) => {
    cli.once("error", fail);
    cli.once("exit", (c, s) => ok([c, s]));
  });
  served?.stop(code !== 0);
  process.exitCode = code ?? (signal ? 128 + (signal === "SIGKILL" ? 9 : 2) : 1);
}

if (require.main === module) {
  main().then(
    // The SDK keeps handles (its log and monitor clients) that need not be waited for once the CLI has exited.
    () => process.exit(),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
