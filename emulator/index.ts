/**
 * bunnynet-emulator: a local stand-in for bunny.net's platform API. The testing kit is `bunnynet-emulator/testing`.
 *
 * @module bunnynet-emulator
 */
// First: refuse an unsupported Node.js (node:sqlite, undici) with a clear message.
import "./libraryNodeGuard";
import { createEmulator as createServer } from "./server";
import type { Emulator, EmulatorOptions } from "./publicTypes";

export type { Emulator, EmulatorOptions, FaultConfigInput, FaultRule, Fixtures, RequestLogEntry, StorageHttpsAddress } from "./publicTypes";

/** The emulator: every API route the provider uses at one origin, its state in SQLite (`dataPath`, or ":memory:"). */
export function createEmulator(options: EmulatorOptions): Emulator {
  return createServer(options);
}
