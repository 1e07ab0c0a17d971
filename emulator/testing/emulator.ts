import { request } from "undici";
import { createEmulator, type Emulator } from "../server";
import type { Fixtures } from "../context";
import type { RequestLogEntry } from "../requestLog";
import type { FaultConfigInput } from "../faults";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { resolveSettings, type SettingsInput } from "bunnynet-pulumi/dist/settings.js";

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
  /** Settings for this emulator (every base URL at its origin). */
  settings(overrides?: SettingsInput): ReturnType<typeof resolveSettings>;
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

export async function startEmulator(dataPath = ":memory:"): Promise<TestEmulator> {
  const emulator = createEmulator({ dataPath });
  const url = await emulator.listen(0);
  let mark = 0;
  const admin = async (method: "GET" | "POST" | "DELETE", path: string, body?: unknown) => {
    const res = await request(url + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const settings = (overrides: SettingsInput = {}) => {
    const s = resolveSettings({ apiKey: String(emulator.ctx.fixtures().accessKey), apiUrl: url, streamApiUrl: url, loggingApiUrl: url, ...overrides }, {});
    return { ...s, retryBaseDelayMs: 5 };
  };
  return {
    url,
    emulator,
    get fixtures() {
      return emulator.ctx.fixtures() as TestEmulator["fixtures"];
    },
    settings,
    stackConfig: () => ({
      "bunnynet:apiKey": String(emulator.ctx.fixtures().accessKey),
      "bunnynet:apiUrl": url,
      "bunnynet:streamApiUrl": url,
      "bunnynet:loggingApiUrl": url,
    }),
    client: (overrides = {}) => new BunnyClient(settings(overrides)),
    async requests() {
      const res = (await admin("GET", `/_emulator/requests?since=${mark}`)) as { requests: RequestLogEntry[] };
      return res.requests;
    },
    async markRequests() {
      mark = ((await admin("GET", `/_emulator/requests?since=${Number.MAX_SAFE_INTEGER}`)) as { lastSeq: number }).lastSeq;
    },
    faults: async (config) => void (await admin("POST", "/_emulator/faults", config)),
    dnsPending: async (hostname, attempts) => void (await admin("POST", "/_emulator/dns-pending", { hostname, attempts })),
    clearFaults: async () => void (await admin("DELETE", "/_emulator/faults")),
    reset: async () => void (await admin("POST", "/_emulator/reset")),
    stop: () => emulator.close(),
  };
}
