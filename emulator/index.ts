/** bunnynet-emulator: a local stand-in for bunny.net's platform API. The testing kit is `bunnynet-emulator/testing`. */
export { createEmulator, type Emulator, type EmulatorOptions } from "./server";
export type { Fixtures } from "./context";
export type { RequestLogEntry } from "./requestLog";
export type { FaultConfigInput, FaultRule } from "./faults";
