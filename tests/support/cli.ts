import { spawn } from "node:child_process";
import { STORAGE_API_PATH } from "bunnynet-emulator/dist/testing/stackConfig.js";
import type { TestEmulator } from "./emulator";

/** The compiled `bunnynet` tool, as installed by the package's `bin`. */
export const CLI_PATH = require.resolve("bunnynet-pulumi/dist/cli/main.js");

export interface ToolRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Environment pointing every API at the emulator, with the account key, as a user would export it. */
export function emulatorEnv(emu: TestEmulator, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    BUNNYNET_API_KEY: emu.fixtures.accessKey,
    BUNNYNET_API_URL: emu.url,
    BUNNYNET_STREAM_API_URL: emu.url,
    BUNNYNET_LOGGING_API_URL: emu.url,
    BUNNYNET_STORAGE_API_URL: `${emu.url}${STORAGE_API_PATH}`,
    ...extra,
  };
}

/** Runs the tool as a child process (no terminal: stdin is a pipe). `onStart` can signal it. */
export function runTool(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string; onStart?: (child: ReturnType<typeof spawn>, output: () => string) => void } = {},
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? "");
    options.onStart?.(child, () => stdout);
  });
}
