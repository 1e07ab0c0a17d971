import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { projectDirectory } from "./projectPaths";

/**
 * The plugin process as the engine starts it: the SDK's dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`)
 * in a child process, in the directory the engine chooses, printing the port it serves gRPC on.
 */

/** How long stopping waits for the rest of a stopped process's stdout. */
const STDOUT_DRAIN_MS = 2000;

/** How to start the host: where the project is, its `main` and name, and the plugin's environment. */
export interface HostOptions {
  /** The Pulumi project's directory (where Pulumi.yaml is). Without it the plugin runs in the current directory. */
  projectDir?: string;
  /**
   * `main` of the project, relative to its directory: the plugin runs in its directory (see ./projectPaths.ts).
   * Read from the project's Pulumi.yaml when not given (with `projectDir`).
   */
  main?: string;
  /** PULUMI_NODEJS_PROJECT. */
  project?: string;
  /** The stack the RPCs' URNs name (default `test`); the harness sets its own. */
  stack?: string;
  /**
   * How long a call may wait for the host's answer before it fails, naming the call (a host that stops answering
   * fails the command instead of hanging it). Default 300: the timeout the engine gives Create, Update and Delete.
   */
  answerTimeoutSeconds?: number;
  /** Extra environment of the plugin process. BUNNYNET_* of the test process are not inherited. */
  env?: Record<string, string>;
}

/** A running plugin process: the port it serves, what it wrote, and a way to stop it. */
export interface PluginProcess {
  port: number;
  /** The process id (benchmarks read its CPU time and memory). */
  pid: number | undefined;
  /** Everything the process wrote to stdout (after the port) and stderr. */
  logs(): string;
  /** Calls `listener` with each line the process writes to stdout from now on (after the port); the return stops it. */
  onStdoutLine(listener: (line: string) => void): () => void;
  /** Called once when the process ends, with how it ended (`was killed by SIGKILL`, `exited with code 1`). */
  onExit(listener: (how: string) => void): void;
  stop(): Promise<void>;
}

/** Starts the SDK's dynamic-provider host for `project` and waits for the port it prints. */
export async function startPluginProcess(project: string, options: HostOptions): Promise<PluginProcess> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BUNNYNET_") && !k.startsWith("BUNNY_")));
  Object.assign(env, { PULUMI_NODEJS_PROJECT: project }, options.env);
  // The second argument is the engine's address; this host only checks that one is given.
  const child = spawn(process.execPath, [require.resolve("@pulumi/pulumi/cmd/dynamic-provider"), "127.0.0.1:0"], {
    cwd: options.projectDir ? projectDirectory(options.projectDir, options.main) : process.cwd(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderrText = "";
  let stdoutText = "";
  child.stderr?.on("data", (d: Buffer) => (stderrText += d.toString()));
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolvePort, reject) => {
    lines.once("line", (line) => resolvePort(Number(line.trim())));
    child.once("exit", (code) => reject(new Error(`provider host exited with ${code} before printing its port: ${stderrText}`)));
    child.once("error", reject);
  });
  child.stdout?.on("data", (d: Buffer) => (stdoutText += d.toString()));
  const lineListeners = new Set<(line: string) => void>();
  lines.on("line", (line) => {
    for (const listener of lineListeners) listener(line);
  });
  // Its stdout read to the end: every line it wrote has reached the listeners.
  const stdoutRead = new Promise<void>((r) => lines.once("close", () => r()));
  let ended: string | undefined;
  const exitListeners: ((how: string) => void)[] = [];
  child.once("exit", (code, signal) => {
    ended = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    for (const listener of exitListeners.splice(0)) listener(ended);
  });
  return {
    port,
    pid: child.pid,
    logs: () => stdoutText + stderrText,
    onStdoutLine(listener) {
      lineListeners.add(listener);
      return () => lineListeners.delete(listener);
    },
    onExit(listener) {
      if (ended !== undefined) listener(ended);
      else exitListeners.push(listener);
    },
    async stop() {
      // Unless it ended already, by an exit or a signal (a killed process has no exit code).
      if (ended === undefined) {
        const exited = new Promise<void>((r) => exitListeners.push(() => r()));
        child.kill();
        await exited;
      }
      // Its last lines reach the listeners; bounded, should anything (a grandchild) hold the pipe open.
      await Promise.race([stdoutRead, sleep(STDOUT_DRAIN_MS, undefined, { ref: false })]);
    },
  };
}
