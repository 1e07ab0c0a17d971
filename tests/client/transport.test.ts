import assert from "node:assert/strict";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { NetworkError, RateLimitedError, ServerError, TimeoutError } from "bunnynet-pulumi/dist/http/errors.js";
import { SlidingWindowLimiter } from "bunnynet-pulumi/dist/http/rateLimiter.js";
import { resolveSettings } from "bunnynet-pulumi/dist/settings.js";
import { ConfigurationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("transport: retries, timeouts and faults (over real HTTP)", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  const apikeyCalls = async () => (await emu.requests()).filter((r) => r.route === "/apikey");

  it("retries a GET through injected 503s and succeeds, counting the retries", async () => {
    await emu.faults({ rules: [{ path: "^/apikey$", burst429: 0, errorRate: 1, errorStatus: 503 }] });
    const client = emu.client({ maxRetries: 3 });
    await emu.markRequests();
    await assert.rejects(client.apiKeys.listPage(), (e: unknown) => e instanceof ServerError && e.status === 503 && e.attempts === 4);
    assert.equal((await apikeyCalls()).length, 4, "one attempt and three retries");
    assert.equal(client.http.stats.retries, 3);

    await emu.faults({ rules: [{ path: "^/apikey$", errorRate: 0.5, errorStatus: 500 }], seed: 7 });
    const ok = emu.client({ maxRetries: 8 });
    for (let i = 0; i < 10; i++) await ok.apiKeys.listPage();
    assert.ok(ok.http.stats.retries > 0, "some requests needed a retry");
  });

  it("says, when a request used up its retries, how many tries were made over how long; a failure not retried says nothing of it", async () => {
    await emu.faults({ rules: [{ path: "^/apikey$", errorRate: 1, errorStatus: 503 }] });
    await assert.rejects(emu.client({ maxRetries: 2 }).apiKeys.listPage(), (e: unknown) => {
      assert.match((e as Error).message, /^GET \/apikey answered 503.* \(gave up after 3 tries over \d+(\.\d)? m?s\)$/);
      assert.match((e as Error).stack ?? "", /gave up after 3 tries/);
      return true;
    });
    await emu.faults({ rules: [{ path: "^/apikey$", dropRate: 1 }] });
    await assert.rejects(emu.client({ maxRetries: 1 }).apiKeys.listPage(), /gave up after 2 tries over/);
    // A create's 5xx is not retried (its outcome is unknown): one try, and the message does not claim retries.
    await emu.faults({ rules: [{ path: "^/pullzone$", method: "POST", errorRate: 1, errorStatus: 500 }] });
    await assert.rejects(emu.client({ maxRetries: 3 }).pullZones.createPullZone({ Name: `gave-up-${Date.now()}`, OriginUrl: "https://example.com" }), (e: unknown) => {
      assert.ok(e instanceof ServerError && e.attempts === 1);
      assert.doesNotMatch(e.message, /gave up/);
      return true;
    });
  });

  it("honours Retry-After on 429 bursts", async () => {
    await emu.faults({ rules: [{ path: "^/apikey$", burst429: 2, retryAfterSeconds: 0.2 }] });
    await emu.markRequests();
    const started = Date.now();
    const page = await emu.client().apiKeys.listPage();
    const elapsed = Date.now() - started;
    assert.ok(page.Items.length > 0);
    const calls = await apikeyCalls();
    assert.deepEqual(calls.map((c) => c.status), [429, 429, 200]);
    assert.ok(elapsed >= 400, `waited for Retry-After twice (${elapsed} ms)`);
  });

  it("gives up with RateLimitedError carrying the server's delay when retries are exhausted", async () => {
    await emu.faults({ rules: [{ path: "^/apikey$", burst429: 10, retryAfterSeconds: 0 }] });
    await assert.rejects(emu.client({ maxRetries: 1 }).apiKeys.listPage(), (e: unknown) => e instanceof RateLimitedError && e.retryAfterMs === 0 && e.attempts === 2);
  });

  it("retries a GET whose connection was dropped", async () => {
    await emu.faults({ rules: [{ path: "^/apikey$", dropRate: 1 }] });
    await assert.rejects(emu.client({ maxRetries: 2 }).apiKeys.listPage(), (e: unknown) => e instanceof NetworkError && !(e instanceof TimeoutError) && e.attempts === 3);
    await emu.faults({ rules: [{ path: "^/apikey$", dropRate: 0.5 }], seed: 3 });
    const client = emu.client({ maxRetries: 10 });
    for (let i = 0; i < 6; i++) await client.apiKeys.listPage();
    assert.ok(client.http.stats.retries > 0);
  });

  it("times out a slow answer and names the path, not the key", async () => {
    await emu.faults({ rules: [{ path: "^/apikey$", latencyMs: 400 }] });
    const key = emu.fixtures.accessKey;
    await assert.rejects(emu.client({ timeoutMs: 100, maxRetries: 0 }).apiKeys.listPage(), (e: unknown) => {
      assert.ok(e instanceof TimeoutError);
      assert.match((e as Error).message, /GET \/apikey timed out: no complete answer within 100 ms/);
      assert.equal((e as TimeoutError).code, "ETIMEDOUT");
      assert.ok(!JSON.stringify({ ...(e as object), message: (e as Error).message, stack: (e as Error).stack }).includes(key));
      return true;
    });
  });

  it("a connection refused before sending is a NetworkError marked notSent, naming the host and the setting (in stack config's words for a Pulumi program)", async () => {
    const client = emu.client({ apiUrl: "http://127.0.0.1:1", maxRetries: 0 });
    await assert.rejects(client.apiKeys.listPage(), (e: unknown) => {
      assert.ok(e instanceof NetworkError && e.notSent && e.code === "ECONNREFUSED", String(e));
      assert.match(e.message, /^GET \/apikey failed: ECONNREFUSED\. Could not connect to 127\.0\.0\.1:1: check that it is reachable, or set the URL with the client's `apiUrl` setting \(or export BUNNYNET_API_URL\)$/);
      return true;
    });
    const inPulumi = new BunnyClient({ apiKey: "k", apiUrl: "http://127.0.0.1:1", maxRetries: 0, origin: "pulumi" });
    await assert.rejects(inPulumi.apiKeys.listPage(), /set the URL with `pulumi config set bunnynet:apiUrl <value>` \(or export BUNNYNET_API_URL in the environment of the Pulumi program\)$/);
  });
});

describe("settings", () => {
  it("refuses a missing key with instructions, and never echoes a key", () => {
    // In the words of where the settings come from: stack config, the tool's environment, or the caller's code.
    const missing = (origin?: "pulumi" | "cli" | "code") => {
      try {
        resolveSettings({ origin }, {});
      } catch (e) {
        assert.ok(e instanceof ConfigurationError);
        return e.message;
      }
      assert.fail("no key was refused");
    };
    assert.equal(missing("pulumi"), "No bunny.net API key: set it with `pulumi config set --secret bunnynet:apiKey <key>` (or export BUNNYNET_API_KEY in the environment of the Pulumi program).");
    assert.match(missing("cli"), /^No bunny\.net API key: export BUNNYNET_API_KEY=<key> \(/);
    assert.equal(missing(), "No bunny.net API key: set it with the client's `apiKey` setting (or export BUNNYNET_API_KEY).");
    assert.throws(() => resolveSettings({ apiKey: "k", apiUrl: "nope", origin: "pulumi" }, {}), /^ConfigurationError: bunnynet:apiUrl is not a URL: "nope"$/);
    assert.throws(() => resolveSettings({ apiKey: "k", timeoutMs: "soon", origin: "cli" }, {}), /^ConfigurationError: --timeout-ms must be an integer >= 1, got "soon"$/);
    assert.throws(() => resolveSettings({ apiKey: "secret-value", apiUrl: "ftp://x" }, {}), (e: unknown) => !(e as Error).message.includes("secret-value"));
  });

  it("falls back to BUNNYNET_* variables and derives the containers URL from the API URL", () => {
    const s = resolveSettings({}, { BUNNYNET_API_KEY: "k", BUNNYNET_API_URL: "http://127.0.0.1:9/", BUNNYNET_TIMEOUT_MS: "1500" });
    assert.equal(s.apiKey, "k");
    assert.equal(s.apiUrl, "http://127.0.0.1:9");
    assert.equal(s.containersApiUrl, "http://127.0.0.1:9/mc");
    assert.equal(s.timeoutMs, 1500);
    assert.equal(s.streamApiUrl, "https://video.bunnycdn.com");
  });
});

describe("SlidingWindowLimiter", () => {
  it("never lets more than `limit` requests start within one window", async () => {
    const limiter = new SlidingWindowLimiter(5, 200);
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 12 }, () => limiter.acquire().then(() => starts.push(Date.now()))));
    starts.sort((a, b) => a - b);
    for (let i = 5; i < starts.length; i++) assert.ok(starts[i] - starts[i - 5] >= 200, `start ${i} came ${starts[i] - starts[i - 5]} ms after start ${i - 5}`);
  });
});

describe("transport: connections", () => {
  it("keeps the connection after a DELETE with a JSON body (undici closes it by default), and each body arrives whole", async () => {
    const { createServer } = await import("node:http");
    let connections = 0;
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        bodies.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(204).end();
      });
    });
    server.on("connection", () => connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as import("node:net").AddressInfo;
    try {
      const client = new BunnyClient(resolveSettings({ apiKey: "k".repeat(36), apiUrl: `http://127.0.0.1:${port}`, maxRetries: 0 }, {}));
      const names = ["a", "b", "c", "d", "e"];
      for (const n of names) await client.pullZones.removeHostname(7, `${n}.example`);
      assert.deepEqual(bodies, names.map((n) => `DELETE /pullzone/7/removeHostname {"Hostname":"${n}.example"}`));
      // One after the other: closed after each, it would take five; kept, the next request may still find it busy
      // (undici frees it on the next turn of the event loop) and open a second, but not one per request.
      assert.ok(connections < names.length, `${connections} connections for ${names.length} removals sent one after another`);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
