import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ForbiddenError, InvalidRequestError, NotFoundError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";
import type { LoggingClient } from "bunnynet-pulumi/dist/client/logging.js";
import type { LogEntry, LogQueryParams } from "bunnynet-pulumi/dist/schemas/logging.js";
import { parseV1Log, type V1LogEntry, type V1Record } from "bunnynet-pulumi/dist/logs/index.js";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ORIGIN_SHIELD_AGENT = "BunnyCDN-OriginShield/1.0";

/** `MM-dd-yy` of a UTC day. */
function v1Day(t: number): string {
  const d = new Date(t);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}-${two(d.getUTCFullYear() % 100)}`;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const contains = (value: string | null | undefined, needle: string) => value != null && value.toLowerCase().includes(needle.toLowerCase());

describe("client: CDN logs (v2 query, v1 day files)", () => {
  let emu: TestEmulator;
  let logs: LoggingClient;
  let zone: number;
  /** A pinned six-hour window and everything in it (origin-shield lines included), fetched once. */
  let window: { from: string; to: string };
  let all: LogEntry[];

  const token = async (pullZoneId: number, ttlSeconds = 600): Promise<string> => {
    const res = await fetch(`${emu.url}/_emulator/logging-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pullZoneId, ttlSeconds }) });
    assert.equal(res.status, 200);
    return ((await res.json()) as { token: string }).token;
  };

  before(async () => {
    emu = await startEmulator();
    logs = emu.client().logging;
    zone = Number(emu.fixtures.pullZoneId);
    const to = Date.now();
    window = { from: new Date(to - 6 * HOUR).toISOString(), to: new Date(to).toISOString() };
    const page = await logs.queryPage(zone, { ...window, includeOriginShield: true, limit: 10_000 });
    assert.equal(page.pagination.hasMore, false, "the six-hour window fits one page");
    all = page.data;
  });
  after(() => emu.stop());

  /** The server's answer for a filter over the window, as request ids, beside the same filter applied locally. */
  async function compare(filter: LogQueryParams, expected: (e: LogEntry) => boolean): Promise<void> {
    const page = await logs.queryPage(zone, { ...window, includeOriginShield: true, limit: 10_000, ...filter });
    const want = all.filter(expected).map((e) => e.requestId);
    assert.ok(want.length > 0 && want.length < all.length, `the filter ${JSON.stringify(filter)} should select some but not all of ${all.length} entries (selected ${want.length})`);
    assert.deepEqual(page.data.map((e) => e.requestId), want);
  }

  describe("v2 query", () => {
    it("answers the documented shape, newest first, 100 by default, null fields omitted", async () => {
      assert.ok(all.length > 1000, `seeded variety in six hours (${all.length})`);
      const page = await logs.queryPage(zone);
      assert.equal(page.data.length, 100);
      assert.deepEqual({ ...page.pagination }, { offset: 0, limit: 100, returned: 100, hasMore: true });
      assert.equal(page.query.pullZoneId, zone);
      assert.equal(page.query.order, "desc");
      assert.equal(Date.parse(page.query.to) - Date.parse(page.query.from), DAY);
      const times = page.data.map((e) => Date.parse(e.timestamp));
      assert.deepEqual(times, [...times].sort((a, b) => b - a));
      for (const e of page.data) {
        for (const k of ["timestamp", "pullZoneId", "requestId", "cacheStatus", "statusCode", "bytesSent", "edgeLocation", "scheme", "host", "path", "url"] as const) assert.notEqual(e[k], undefined, k);
        assert.equal(e.url, `${e.scheme}://${e.host}${e.path}`);
        // No extended-logging fields on a standard zone.
        assert.equal(e.bodyBytesSent, undefined);
      }
      // Optional fields are left out, not sent as null.
      const res = await fetch(`${emu.url}/v2/pullzones/${zone}/logs?limit=500`, { headers: { AccessKey: emu.fixtures.accessKey } });
      const raw = (await res.json()) as { data: Record<string, unknown>[] };
      assert.ok(raw.data.every((e) => Object.values(e).every((v) => v !== null)));
      assert.ok(raw.data.some((e) => !("referer" in e)) && raw.data.some((e) => "referer" in e));
    });

    it("filters by status codes and classes", async () => {
      await compare({ status: ["5xx", 404] }, (e) => (e.statusCode >= 500 && e.statusCode <= 599) || e.statusCode === 404);
    });

    it("filters by cache status", async () => {
      await compare({ cacheStatus: ["BYPASS", "-"] }, (e) => e.cacheStatus === "BYPASS" || e.cacheStatus === "-");
    });

    it("filters by country (case-insensitive codes)", async () => {
      await compare({ country: ["si", "JP"] }, (e) => e.countryCode === "SI" || e.countryCode === "JP");
    });

    it("filters by edge location", async () => {
      await compare({ edgeLocation: "sg" }, (e) => e.edgeLocation === "SG");
    });

    it("filters by remote IP and by request id", async () => {
      const sample = all.find((e) => e.remoteIp)!;
      await compare({ remoteIp: sample.remoteIp! }, (e) => e.remoteIp === sample.remoteIp);
      await compare({ requestId: all[7].requestId! }, (e) => e.requestId === all[7].requestId);
    });

    it("leaves origin-shield requests out unless asked", async () => {
      const page = await logs.queryPage(zone, { ...window, limit: 10_000 });
      const shield = all.filter((e) => e.userAgent === ORIGIN_SHIELD_AGENT);
      assert.ok(shield.length > 0);
      assert.deepEqual(page.data.map((e) => e.requestId), all.filter((e) => e.userAgent !== ORIGIN_SHIELD_AGENT).map((e) => e.requestId));
    });

    it("urlContains, userAgentContains and refererContains are case-insensitive substrings", async () => {
      await compare({ urlContains: "PLAYLIST.M3U8" }, (e) => contains(e.url, "playlist.m3u8"));
      await compare({ userAgentContains: "scannerbot|V2" }, (e) => contains(e.userAgent, "ScannerBot|v2"));
      await compare({ refererContains: "GOOGLE.com" }, (e) => contains(e.referer, "google.com"));
      // `%` and `_` are literal, not wildcards.
      await compare({ urlContains: "%20name" }, (e) => contains(e.url, "%20name"));
    });

    it("search matches any token in cache status, request id, edge location, host, path, user agent or referer", async () => {
      const tokens = ["bypass", "WOFF2", all[3].requestId!];
      const fields = (e: LogEntry) => [e.cacheStatus, e.requestId, e.edgeLocation, e.host, e.path, e.userAgent, e.referer];
      await compare({ search: tokens.join(" ") }, (e) => tokens.some((t) => fields(e).some((f) => contains(f, t))));
    });

    it("pages asc and desc with offsets: the pages join to the whole result, nothing repeated", async () => {
      const filter = { ...window, status: ["3xx", "4xx"] } satisfies LogQueryParams;
      for (const order of ["asc", "desc"] as const) {
        const whole = (await logs.queryPage(zone, { ...filter, order, limit: 10_000 })).data.map((e) => e.requestId!);
        assert.ok(whole.length > 500);
        const paged: string[] = [];
        for (let offset = 0; ; offset += 250) {
          const page = await logs.queryPage(zone, { ...filter, order, limit: 250, offset });
          paged.push(...page.data.map((e) => e.requestId!));
          assert.equal(page.pagination.hasMore, offset + 250 < whole.length);
          if (!page.pagination.hasMore) break;
        }
        assert.deepEqual(paged, whole, order);
        assert.equal(new Set(paged).size, paged.length);
      }
      const asc = (await logs.queryPage(zone, { ...filter, order: "asc", limit: 10 })).data.map((e) => Date.parse(e.timestamp));
      assert.deepEqual(asc, [...asc].sort((a, b) => a - b));
    });

    it("query() pages across a long range at the largest page size, stops at maxEntries, and repeats nothing", async () => {
      const to = Date.now();
      const range = { from: new Date(to - 30 * HOUR).toISOString(), to: new Date(to).toISOString() };
      await emu.markRequests();
      const entries = await collect(logs.query(zone, range));
      const calls = (await emu.requests()).filter((r) => r.route === "/v2/pullzones/:pullZoneId/logs");
      assert.ok(entries.length > 10_000, `more than one page (${entries.length})`);
      assert.equal(new Set(entries.map((e) => e.requestId)).size, entries.length);
      assert.equal(calls.length, Math.ceil(entries.length / 10_000));
      assert.ok(calls.every((c) => new URL(c.url, emu.url).searchParams.get("limit") === "10000"));

      await emu.markRequests();
      const first = await collect(logs.query(zone, range, { maxEntries: 10_250 }));
      assert.deepEqual(first.map((e) => e.requestId), entries.slice(0, 10_250).map((e) => e.requestId));
      const limits = (await emu.requests()).map((c) => new URL(c.url, emu.url).searchParams.get("limit"));
      assert.deepEqual(limits, ["10000", "250"]);
    });

    it("refuses bad parameters before sending, naming the parameter", async () => {
      await emu.markRequests();
      const cases: [LogQueryParams, string][] = [
        [{ limit: 10_001 }, "limit"],
        [{ offset: -1 }, "offset"],
        [{ status: ["6xx"] }, "status.0"],
        [{ country: ["DEU"] }, "country.0"],
        [{ search: Array.from({ length: 17 }, (_, i) => `t${i}`).join(" ") }, "search"],
        [{ search: "x".repeat(129) }, "search.0"],
        [{ from: "2026-05-09T00:00:00Z", to: "2026-05-08T00:00:00Z" }, "from"],
        [{ from: "2026-05-01T00:00:00Z", to: "2026-05-08T00:00:00Z" }, "to"],
        [{ from: "yesterday" }, "from"],
      ];
      for (const [params, field] of cases) {
        await assert.rejects(logs.queryPage(zone, params), (e: unknown) => e instanceof InvalidRequestError && e.field === field, JSON.stringify(params));
      }
      assert.equal((await emu.requests()).length, 0);
    });

    it("the emulator refuses bad parameters with 400 invalid_request naming them", async () => {
      const http = emu.client().http;
      const now = Date.now();
      const cases: [Record<string, string | number>, string][] = [
        [{ limit: 0 }, "limit"],
        [{ limit: "ten" }, "limit"],
        [{ order: "sideways" }, "order"],
        [{ status: "6xx" }, "status"],
        [{ cacheStatus: "WARM" }, "cacheStatus"],
        [{ country: "DEU" }, "country"],
        [{ includeOriginShield: "yes" }, "includeOriginShield"],
        [{ search: Array.from({ length: 17 }, (_, i) => `t${i}`).join(" ") }, "search"],
        [{ from: new Date(now - 2 * HOUR).toISOString(), to: new Date(now - 3 * HOUR).toISOString() }, "from"],
        // The retention: a range older than three days.
        [{ from: new Date(now - 4 * DAY).toISOString(), to: new Date(now - 3.5 * DAY).toISOString() }, "from"],
      ];
      for (const [query, field] of cases) {
        await assert.rejects(
          http.request({ api: "logging", method: "GET", path: `/v2/pullzones/${zone}/logs`, query, limiterKey: `logging:${zone}` }),
          (e: unknown) => e instanceof ValidationError && e.status === 400 && e.errorKey === "invalid_request" && e.field === field,
          JSON.stringify(query),
        );
      }
    });

    it("a range older than the 3-day retention is refused by the server even when the client lets it through", async () => {
      const now = Date.now();
      await assert.rejects(logs.queryPage(zone, { from: new Date(now - 3 * DAY - HOUR), to: new Date(now - 2 * DAY) }), (e: unknown) => {
        assert.ok(e instanceof ValidationError);
        assert.equal(e.field, "from");
        assert.match(e.message, /retention/);
        return true;
      });
    });
  });

  describe("credentials and zone state", () => {
    it("no credentials → 401; a wrong key → 403, and the key is not in the error", async () => {
      const http = emu.client().http;
      const path = `/v2/pullzones/${zone}/logs`;
      await assert.rejects(http.request({ api: "logging", method: "GET", path, auth: "none" }), (e: unknown) => e instanceof UnauthorizedError && e.errorKey === "unauthorized");
      const wrong = "wrong-key-123456";
      await assert.rejects(emu.client({ apiKey: wrong }).logging.queryPage(zone), (e: unknown) => {
        assert.ok(e instanceof ForbiddenError);
        assert.equal(e.errorKey, "forbidden");
        assert.ok(!e.message.includes(wrong) && !JSON.stringify(e).includes(wrong));
        return true;
      });
    });

    it("a zone's JWT works instead of the key, for v2 and v1", async () => {
      await emu.markRequests();
      const bearer = emu.client({ apiKey: "not-used-with-a-token" }).logging.withBearer(await token(zone));
      const page = await bearer.queryPage(zone, { limit: 5 });
      assert.equal(page.data.length, 5);
      const records = await collect(parseV1Log(await bearer.downloadDay(zone, v1Day(Date.now() - DAY), { end: 3 })));
      assert.equal(records.length, 3);
      const calls = await emu.requests();
      assert.deepEqual(calls.map((c) => [c.auth, c.status]), [["bearer", 200], ["bearer", 200]]);
    });

    it("an expired, wrongly signed or other-zone JWT → 403", async () => {
      const other = Number(emu.fixtures.extendedLoggingPullZoneId);
      const valid = await token(zone);
      const [header, , signature] = valid.split(".");
      const otherPayload = (await token(other)).split(".")[1];
      const tokens = {
        expired: await token(zone, -60),
        wrongSignature: `${header}.${otherPayload}.${signature}`,
        otherZone: await token(other),
        notAJwt: "abc.def",
      };
      for (const [name, t] of Object.entries(tokens)) {
        await assert.rejects(logs.withBearer(t).queryPage(zone, { limit: 1 }), (e: unknown) => e instanceof ForbiddenError && e.errorKey === "forbidden", name);
      }
    });

    it("a suspended zone → 403, logging disabled → 404 logging_disabled, an unknown zone → 404", async () => {
      await assert.rejects(logs.queryPage(emu.fixtures.suspendedPullZoneId), (e: unknown) => e instanceof ForbiddenError && /suspended/.test(e.message));
      await assert.rejects(logs.queryPage(emu.fixtures.loggingDisabledPullZoneId), (e: unknown) => e instanceof NotFoundError && e.errorKey === "logging_disabled");
      await assert.rejects(logs.downloadDay(emu.fixtures.loggingDisabledPullZoneId, new Date()), (e: unknown) => e instanceof NotFoundError && e.errorKey === "logging_disabled");
      await assert.rejects(logs.queryPage(999_999), (e: unknown) => e instanceof NotFoundError && e.errorKey === "not_found");
    });
  });

  describe("v1 day files", () => {
    const yesterday = () => Date.now() - DAY;

    it("streams a whole day as pipe-delimited lines that parse cleanly, pipes in user agents included", async () => {
      const day = yesterday();
      const dayStart = Date.parse(new Date(day).toISOString().slice(0, 10));
      const records: V1Record[] = await collect(parseV1Log(await logs.downloadDay(zone, new Date(day), { sort: "asc" })));
      const entries = records.filter((r): r is V1LogEntry => r.kind === "entry");
      assert.equal(entries.length, records.length, "no malformed lines");
      assert.ok(entries.length > 10_000, `a day of seeded lines (${entries.length})`);
      assert.ok(entries.every((e, i) => e.line === i + 1 && e.pullZoneId === zone && e.timestamp >= dayStart && e.timestamp < dayStart + DAY && !e.extended));
      assert.ok(entries.every((e, i) => i === 0 || entries[i - 1].timestamp <= e.timestamp), "sort=asc");
      // The raw file holds everything, origin-shield requests included, and user agents with `|` in them.
      assert.ok(entries.some((e) => e.userAgent === ORIGIN_SHIELD_AGENT));
      const piped = entries.find((e) => e.userAgent?.includes("|"))!;
      assert.ok(piped, "a user agent with a pipe");
      const [same] = (await logs.queryPage(zone, { requestId: piped.requestId, includeOriginShield: true, from: new Date(piped.timestamp), to: new Date(piped.timestamp + 1) })).data;
      assert.equal(same.userAgent, piped.userAgent);
      assert.equal(same.url, piped.url);
      assert.equal(same.referer, piped.referer);
    });

    it("the day file is streamed (chunked), not sent with a length; download=true names the file", async () => {
      const day = v1Day(yesterday());
      const res = await emu.client().http.stream({ api: "logging", method: "GET", path: `/${day}/${zone}.log`, query: { download: true, end: 50_000 }, limiterKey: `logging:${zone}` });
      assert.equal(res.headers["transfer-encoding"], "chunked");
      assert.equal(res.headers["content-length"], undefined);
      assert.equal(res.headers["content-disposition"], `attachment; filename="${day}-${zone}.log"`);
      res.body.destroy();
    });

    it("applies status (a round hundred means its class), search, sort and start/end", async () => {
      const day = new Date(yesterday());
      const lines = async (params: Parameters<LoggingClient["downloadDay"]>[2]) =>
        (await collect(parseV1Log(await logs.downloadDay(zone, day, params)))).filter((r): r is V1LogEntry => r.kind === "entry");
      const desc = await lines({});
      assert.ok(desc.every((e, i) => i === 0 || desc[i - 1].timestamp >= e.timestamp), "sort defaults to desc");
      const errors = await lines({ status: [500, 404] });
      assert.deepEqual(errors.map((e) => e.requestId), desc.filter((e) => e.statusCode >= 500 || e.statusCode === 404).map((e) => e.requestId));
      const classes = await lines({ status: ["5xx"] });
      assert.deepEqual(classes.map((e) => e.requestId), desc.filter((e) => e.statusCode >= 500).map((e) => e.requestId));
      const search = await lines({ search: "PLAYLIST.m3u8" });
      assert.ok(search.length > 0);
      assert.deepEqual(search.map((e) => e.requestId), desc.filter((e) => contains(e.url, "playlist.m3u8") || contains(e.userAgent, "playlist.m3u8") || contains(e.referer, "playlist.m3u8")).map((e) => e.requestId));
      const slice = await lines({ start: 100, end: 2600 });
      assert.deepEqual(slice.map((e) => e.requestId), desc.slice(100, 2600).map((e) => e.requestId));
    });

    it("extended logging adds three columns, parsed as such", async () => {
      const extendedZone = Number(emu.fixtures.extendedLoggingPullZoneId);
      const entries = (await collect(parseV1Log(await logs.downloadDay(extendedZone, new Date(yesterday()))))).filter((r): r is V1LogEntry => r.kind === "entry");
      assert.ok(entries.length > 500);
      assert.ok(entries.every((e) => e.extended && typeof e.bodyBytesSent === "number"));
      assert.ok(entries.some((e) => e.contentRange?.startsWith("bytes=")));
      const v2 = await logs.queryPage(extendedZone, { limit: 50 });
      assert.ok(v2.data.every((e) => typeof e.bodyBytesSent === "number"));
    });

    it("refuses a day outside the retention, a day that does not exist, and end before start", async () => {
      await assert.rejects(logs.downloadDay(zone, new Date(Date.now() - 5 * DAY)), (e: unknown) => e instanceof ValidationError && e.field === "date" && /retention/.test(e.message));
      await assert.rejects(logs.downloadDay(zone, "13-45-24"), (e: unknown) => e instanceof ValidationError && e.field === "date");
      await assert.rejects(logs.downloadDay(zone, new Date(), { start: 10, end: 5 }), (e: unknown) => e instanceof InvalidRequestError && e.field === "end");
      const http = emu.client().http;
      await assert.rejects(
        http.stream({ api: "logging", method: "GET", path: `/${v1Day(Date.now())}/${zone}.log`, query: { start: 10, end: 5 }, limiterKey: `logging:${zone}` }),
        (e: unknown) => e instanceof ValidationError && e.field === "end",
      );
    });
  });
});
