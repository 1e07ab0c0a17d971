import type { BunnyClient, BunnySettings, SettingsInput } from "bunnynet-pulumi";
import type { Emulator, FaultConfigInput, Fixtures, RequestLogEntry } from "../publicTypes";

/** A running emulator for a test file: real HTTP on a loopback port, state in memory (or a file). */
export interface TestEmulator {
  url: string;
  emulator: Emulator;
  fixtures: Fixtures & {
    accessKey: string;
  };
  /** A client pointed at this emulator with the account key (overrides allowed). Retries back off fast in tests. */
  client(overrides?: SettingsInput): BunnyClient;
  /**
   * Stack config that points the provider at this emulator: `bunnynet:apiKey` (the account key; mark it secret)
   * and every API's base URL. Pass it to `ProgramHarness`, or set it with `pulumi config set`.
   */
  stackConfig(): Record<string, string>;
  /**
   * Adds an account to the emulator, seeded as the first one, with its own keys and objects (nothing crosses between
   * accounts: an object of one is a 404 with another's key). Resolves to its key: `client({ apiKey: accessKey })`
   * reads it, `stackConfigFor(url, accessKey)` or a `bunnynet.Provider` with that key deploys to it. `reset()` goes
   * back to the first account alone.
   */
  addAccount(): Promise<{ accessKey: string }>;
  /** Settings for this emulator (every base URL at its origin). */
  settings(overrides?: SettingsInput): BunnySettings;
  /** The request log since the last `markRequests()`. */
  requests(): Promise<RequestLogEntry[]>;
  markRequests(): Promise<void>;
  faults(config: FaultConfigInput): Promise<void>;
  /** The hostname's DNS "does not point here yet" for its next `attempts` free-certificate loads. */
  dnsPending(hostname: string, attempts: number): Promise<void>;
  clearFaults(): Promise<void>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

