import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import type { LoggingClient } from "bunnynet-pulumi/dist/client/logging.js";
import { collect } from "bunnynet-pulumi/dist/lookups/client.js";
import { LOG_MAX_PAGE_SIZE, type LogEntry } from "bunnynet-pulumi/dist/schemas/logging.js";
import { parseV1Log, type V1LogEntry } from "bunnynet-pulumi/dist/logs/index.js";

/**
 * The logging API as its own documents describe it (issue 9, points 2 and 4):
 * - v2 applies `country` and `search` after fetching a page (docs.bunny.net, "Query CDN access logs for a pull
 *   zone"), so pages can be short or empty while more follow: the client must advance by the server's window;
 * - v1 takes status classes as digits (`status=4,5`), and its ordering parameter is `sort` in the OpenAPI document
 *   and `order` on the pages.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe("client: the logging API's documented behaviour", () => {
  let emu: TestEmulator;
  let logs: LoggingClient;
  let zone: number;
  const logRoute = (route: string) => async () => (await emu.requests()).filter((r) => r.route === route);

  before(async () => {
    emu = await startEmulator();
    logs = emu.client().logging;
    zone = Number(emu.fixtures.pullZoneId);
  });
  after(() => emu.stop());

  it("country and search filter after the fetch: query() pages by the server's window and neither repeats nor stops early", async () => {
    const range = { from: new Date(Date.now() - 20 * HOUR).toISOString(), to: new Date().toISOString() };
    const everything = await collect(logs.query(zone, range));
    assert.ok(everything.length > LOG_MAX_PAGE_SIZE, `the range spans more than one page (${everything.length})`);
    const counts = new Map<string, number>();
    for (const e of everything) if (e.countryCode) counts.set(e.countryCode, (counts.get(e.countryCode) ?? 0) + 1);
    const [country] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    const id = (e: LogEntry) => e.requestId;

    await emu.markRequests();
    const byCountry = await collect(logs.query(zone, { ...range, country: [country] }));
    assert.deepEqual(byCountry.map(id), everything.filter((e) => e.countryCode === country).map(id));
    const calls = await logRoute("/v2/pullzones/:pullZoneId/logs")();
    assert.equal(calls.length, 2, "the short first page did not end the listing");
    assert.match(calls[1].url, new RegExp(`offset=${LOG_MAX_PAGE_SIZE}(&|$)`), "the second page starts after the server's window, not after the entries received");

    // Up to a few entries: still full pages, since a page of N rows holds fewer than N matching entries.
    await emu.markRequests();
    assert.equal((await collect(logs.query(zone, { ...range, country: [country] }, { maxEntries: 5 }))).length, 5);
    assert.match((await logRoute("/v2/pullzones/:pullZoneId/logs")())[0].url, new RegExp(`limit=${LOG_MAX_PAGE_SIZE}(&|$)`));

    const token = everything[3].host!;
    const bySearch = await collect(logs.query(zone, { ...range, search: token }));
    assert.ok(bySearch.length > 0);
    assert.equal(new Set(bySearch.map(id)).size, bySearch.length, "nothing repeated");
  });

  it("v1: a status class goes as its digit (the documented form), and the server refuses the v2 form 5xx", async () => {
    const day = new Date(Date.now() - DAY);
    await emu.markRequests();
    const entries = (await collect(parseV1Log(await logs.downloadDay(zone, day, { status: ["5xx", 404] })))).filter((r): r is V1LogEntry => r.kind === "entry");
    assert.ok(entries.length > 0);
    assert.ok(entries.every((e) => e.statusCode === 404 || (e.statusCode >= 500 && e.statusCode <= 599)));
    const [call] = await logRoute("/:date(^\\d{2}-\\d{2}-\\d{2}$)/:pullZoneId.log")();
    assert.match(decodeURIComponent(call.url), /status=5,404(&|$)/);

    const raw = (query: string) => fetch(`${emu.url}/${call.url.split("/")[1]}/${zone}.log?${query}`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal((await raw("status=5xx&end=1")).status, 400);
    assert.equal((await raw("status=4,5&end=1")).status, 200);
  });

  it("v1: the ordering parameter is read as sort (the OpenAPI document) and as order (the documentation pages)", async () => {
    const day = new Date(Date.now() - DAY);
    const two = (n: number) => String(n).padStart(2, "0");
    const path = `${two(day.getUTCMonth() + 1)}-${two(day.getUTCDate())}-${two(day.getUTCFullYear() % 100)}/${zone}.log`;
    const firstTimes = async (query: string) => {
      const res = await fetch(`${emu.url}/${path}?${query}&end=50`, { headers: { AccessKey: emu.fixtures.accessKey } });
      assert.equal(res.status, 200, query);
      return (await res.text()).trim().split("\n").map((line) => Number(line.split("|")[2]));
    };
    const ascending = (t: number[]) => t.every((v, i) => i === 0 || t[i - 1] <= v);
    assert.ok(ascending(await firstTimes("sort=asc")));
    assert.ok(ascending(await firstTimes("order=asc")));
    assert.ok(!ascending(await firstTimes("order=desc")));
  });
});
