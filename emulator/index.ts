/** bunnynet-emulator: a local stand-in for bunny.net's platform API. The testing kit is `bunnynet-emulator/testing`. */
// First: refuse an unsupported Node.js (node:sqlite, undici) with a clear message.
import "./libraryNodeGuard";
export { createEmulator, type Emulator, type EmulatorOptions } from "./server";
export type { Fixtures } from "./context";
export type { RequestLogEntry } from "./requestLog";
export type { FaultConfigInput, FaultRule } from "./faults";
