/**
 * @module bunnynet-emulator/testing
 *
 * bunnynet-emulator/testing: test your own Pulumi programs offline, the way this project tests its own.
 *
 * - `startEmulator()`: the emulator in your test process, on a loopback port, with its request log, fault
 *   injection and reset; `stackConfig()` points the provider at it.
 * - `ProgramHarness`: runs your program's `preview`, `up`, `refresh` and `destroy` as the Pulumi engine does, each
 *   resource through the SDK's real dynamic-provider host (a new plugin process per command, as the engine starts
 *   one), without the Pulumi CLI or a backend.
 * - `ProviderHost`: that host on its own, for calling Check, Diff, Create, Read, Update and Delete one by one.
 *
 * Needs `@pulumi/pulumi` and `bunnynet-pulumi` in your project (the program's own dependencies).
 */
// First: refuse an unsupported Node.js (node:sqlite, undici) with a clear message.
import "../libraryNodeGuard";
import { startEmulator as startWithInternals } from "./emulator";

export { STORAGE_API_PATH, stackConfigFor } from "./stackConfig";
import type { TestEmulator } from "./types";

export type { TestEmulator } from "./types";

/**
 * Starts the emulator in this process on a free loopback port, its state in memory (or in the SQLite file `dataPath`).
 * It ignores a request body's properties that the model lacks, as bunny.net's API does; `{ strict: true }` refuses
 * them instead (400 naming the property), so a test of a client of your own catches a misspelt property.
 */
export function startEmulator(dataPath?: string, options: { strict?: boolean } = {}): Promise<TestEmulator> {
  return startWithInternals(dataPath, options);
}
export { ProgramHarness, type HarnessOptions } from "./programHarness";
export type { Operation, Program, ProviderCall, ResourceOptions, Rpc, RunResult, Step, StoredResource } from "./deploymentTypes";
export { CheckFailedError, CommandFailedError, type CheckFailure } from "./engineMessages";
export type { EngineMessage, EngineMessageSeverity } from "./engineLog";
export { HostError, ProviderHost, type DiffAnswer } from "./providerHost";
export { type HostOptions } from "./pluginProcess";
export { pluginDirectory, projectMain } from "./projectPaths";
export { Secret, UNKNOWN_VALUE, secret, type Plain } from "./wire";
export type { Emulator, FaultConfigInput, FaultRule, Fixtures, RequestLogEntry, StorageHttpsAddress } from "../publicTypes";
