import assert from "node:assert/strict";
import { request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * The logging API's budget: 30 requests per 10 s per pull zone. Its own emulator, so no other test's
 * requests share the window.
 */
describe("client: CDN logs rate limit (30 requests / 10 s / pull zone)", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("the client's per-zone limiter keeps a long run (35 calls at once) clear of any 429", async function () {
    this.timeout(60_000);
    const zone = Number(emu.fixtures.pullZoneId);
    const logs = emu.client().logging;
    await emu.markRequests();
    const pages = await Promise.all(Array.from({ length: 35 }, (_, i) => logs.queryPage(zone, { limit: 1, offset: i })));
    const ids = pages.map((p) => p.data[0].requestId);
    assert.equal(new Set(ids).size, 35);
    const calls = await emu.requests();
    assert.equal(calls.length, 35, "one request per call: no retries");
    assert.deepEqual([...new Set(calls.map((c) => c.status))], [200]);
  });

  it("the emulator answers 429 rate_limited with Retry-After when the limiter is bypassed", async () => {
    // Another zone, so the window is fresh.
    const zone = Number(emu.fixtures.extendedLoggingPullZoneId);
    const get = () => request(`${emu.url}/v2/pullzones/${zone}/logs?limit=1`, { headers: { accesskey: emu.fixtures.accessKey } });
    const answers = await Promise.all(Array.from({ length: 30 }, async () => {
      const res = await get();
      await res.body.dump();
      return res.statusCode;
    }));
    assert.deepEqual([...new Set(answers)], [200]);
    const refused = await get();
    assert.equal(refused.statusCode, 429);
    const retryAfter = Number(refused.headers["retry-after"]);
    assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);
    assert.deepEqual(await refused.body.json(), { error: { code: "rate_limited", message: `More than 30 requests in 10 s for pull zone ${zone}.` } });
    // The v1 day files share the zone's budget.
    const v1 = await request(`${emu.url}/01-01-26/${zone}.log`, { headers: { accesskey: emu.fixtures.accessKey } });
    await v1.body.dump();
    assert.equal(v1.statusCode, 429);
    // Requests without valid credentials are refused before they count, and do not get a 429 either.
    const anonymous = await request(`${emu.url}/v2/pullzones/${zone}/logs`);
    await anonymous.body.dump();
    assert.equal(anonymous.statusCode, 401);
  });
});
