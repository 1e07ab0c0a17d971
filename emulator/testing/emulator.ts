import { request } from "undici";
import { createEmulator, type Emulator as EmulatorWithInternals } from "../server";
import type { RequestLogEntry } from "../publicTypes";
import type { TestEmulator } from "./types";
import { STORAGE_API_PATH, stackConfigFor } from "./stackConfig";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { resolveSettings, type SettingsInput } from "bunnynet-pulumi/dist/settings.js";

/** The same, with the emulator's internals (store, request log, routes), for this repository's own tests. */
export interface TestEmulatorWithInternals extends TestEmulator {
  emulator: EmulatorWithInternals;
}

/**
 * Starts the emulator in this process on a free loopback port, its state in memory (or in the SQLite file `dataPath`).
 * `strict`: refuse a body's property its model lacks, which bunny.net's API ignores (EmulatorOptions.strict).
 */
export async function startEmulator(dataPath = ":memory:", options: { strict?: boolean } = {}): Promise<TestEmulatorWithInternals> {
  const emulator = createEmulator({ dataPath, strict: options.strict });
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
    const s = resolveSettings({ apiKey: String(emulator.ctx.fixtures().accessKey), apiUrl: url, streamApiUrl: url, loggingApiUrl: url, storageApiUrl: `${url}${STORAGE_API_PATH}`, ...overrides }, {});
    return { ...s, retryBaseDelayMs: 5 };
  };
  return {
    url,
    emulator,
    get fixtures() {
      return emulator.ctx.fixtures() as TestEmulator["fixtures"];
    },
    settings,
    stackConfig: () => stackConfigFor(url, String(emulator.ctx.fixtures().accessKey)),
    async addAccount() {
      const fixtures = (await admin("POST", "/_emulator/accounts")) as { accessKey: string };
      return { accessKey: fixtures.accessKey };
    },
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
