import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { emulatorEnv, runTool } from "../support/cli";

const jsonLines = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("cli: bunnynet logs", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  const since = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

  it("query: filters combine, output is whole entries as JSON lines, and matches the client's answer", async () => {
    const zone = String(emu.fixtures.pullZoneId);
    const run = await runTool(["logs", "query", zone, "--from", since(24), "--status", "5xx", "--status", "404", "--cache-status", "miss,bypass", "--order", "asc"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const rows = jsonLines(run.stdout);
    assert.ok(rows.length > 10, `some entries match (${rows.length})`);
    for (const r of rows) {
      assert.ok(Number(r.statusCode) >= 500 || r.statusCode === 404, `status ${r.statusCode}`);
      assert.ok(r.cacheStatus === "MISS" || r.cacheStatus === "BYPASS");
      assert.equal(typeof r.url, "string");
    }
    const times = rows.map((r) => String(r.timestamp));
    assert.deepEqual(times, [...times].sort(), "ascending order");
    assert.equal(run.stderr, "", "no progress line when stderr is not a terminal");
  });

  it("query: pages across the whole range with the largest page size, and --max caps it", async () => {
    const zone = String(emu.fixtures.pullZoneId);
    await emu.markRequests();
    const run = await runTool(["logs", "query", zone, "--from", since(71), "--to", new Date().toISOString(), "--format", "csv"], emulatorEnv(emu));
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n");
    assert.equal(lines[0], "timestamp,status,cache,edge,country,remoteIp,bytes,url,userAgent,requestId");
    const calls = (await emu.requests()).filter((r) => r.route.startsWith("/v2/"));
    assert.ok(lines.length - 1 > 10_000, `more than one page of entries (${lines.length - 1})`);
    assert.equal(calls.length, Math.ceil((lines.length - 1) / 10_000) + ((lines.length - 1) % 10_000 === 0 ? 1 : 0));
    assert.ok(calls.every((c) => c.url.includes("limit=10000")));
    const capped = await runTool(["logs", "query", zone, "--max", "25"], emulatorEnv(emu));
    assert.equal(jsonLines(capped.stdout).length, 25);
  });

  it("query: usage and API errors have their exit codes and name the problem", async () => {
    const bad = await runTool(["logs", "query", String(emu.fixtures.pullZoneId), "--status", "7xx"], emulatorEnv(emu));
    assert.equal(bad.code, 3);
    assert.match(bad.stderr, /status/);
    const order = await runTool(["logs", "query", String(emu.fixtures.pullZoneId), "--order", "up"], emulatorEnv(emu));
    assert.equal(order.code, 2);
    const disabled = await runTool(["logs", "query", String(emu.fixtures.loggingDisabledPullZoneId)], emulatorEnv(emu));
    assert.equal(disabled.code, 3);
    assert.match(disabled.stderr, /404.*logging_disabled/);
    const tooOld = await runTool(["logs", "query", String(emu.fixtures.pullZoneId), "--from", since(24 * 5), "--to", since(24 * 4)], emulatorEnv(emu));
    assert.equal(tooOld.code, 3);
  });

  it("query: a CSV query that fails before any row prints nothing, not even the header; one that succeeds has it", async () => {
    const zone = String(emu.fixtures.pullZoneId);
    const failed = await runTool(["logs", "query", String(emu.fixtures.loggingDisabledPullZoneId), "--format", "csv"], emulatorEnv(emu));
    assert.equal(failed.code, 3);
    assert.equal(failed.stdout, "");
    const empty = await runTool(["logs", "query", zone, "--format", "csv", "--search", "no-such-token-anywhere"], emulatorEnv(emu));
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, "timestamp,status,cache,edge,country,remoteIp,bytes,url,userAgent,requestId\n");
  });

  it("download: --format csv or table is refused, naming what it writes and where CSV comes from; --format jsonl is --json", async () => {
    const zone = String(emu.fixtures.pullZoneId);
    const day = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
    const csv = await runTool(["logs", "download", zone, "--date", day, "--format", "csv"], emulatorEnv(emu));
    assert.equal(csv.code, 2);
    assert.match(csv.stderr, /--format csv does not apply: logs download writes the raw file, or JSON lines with --json \(or --format jsonl\); for a table or CSV use `bunnynet logs query`/);
    assert.equal(csv.stdout, "");
    const jsonl = await runTool(["logs", "download", zone, "--date", day, "--format", "jsonl"], emulatorEnv(emu));
    const json = await runTool(["logs", "download", zone, "--date", day, "--json"], emulatorEnv(emu));
    assert.equal(jsonl.code, 0, jsonl.stderr);
    assert.ok(jsonLines(jsonl.stdout).length > 0);
    assert.equal(jsonl.stdout, json.stdout);
  });

  it("query: a failure after some pages keeps what was printed and exits 4 (partial results)", async () => {
    const zone = String(emu.fixtures.pullZoneId);
    // The first page passes; the second is refused (400 is not retried).
    await emu.faults({ rules: [{ path: "^/v2/", skip: 1, times: 1, errorRate: 1, errorStatus: 400 }] });
    const run = await runTool(["logs", "query", zone, "--from", since(71)], emulatorEnv(emu));
    await emu.clearFaults();
    assert.equal(run.code, 4, run.stderr);
    assert.equal(jsonLines(run.stdout).length, 10_000, "the first page was printed");
    assert.match(run.stderr, /stopped after 10000 entries: GET \/v2\/pullzones\/\d+\/logs answered 400/);
  });

  it("query: a logging JWT works instead of the account key", async () => {
    const res = await fetch(`${emu.url}/_emulator/logging-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pullZoneId: emu.fixtures.pullZoneId, ttlSeconds: 60 }),
    });
    const { token } = (await res.json()) as { token: string };
    const env = { ...emulatorEnv(emu), BUNNYNET_API_KEY: "unused-because-the-token-is-sent", BUNNYNET_LOGGING_TOKEN: token };
    const run = await runTool(["logs", "query", String(emu.fixtures.pullZoneId), "--max", "3"], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(jsonLines(run.stdout).length, 3);
    const auth = (await emu.requests()).filter((r) => r.route.startsWith("/v2/")).pop();
    assert.equal(auth?.auth, "bearer");
  });

  it("download: streams the day file raw to a file, or converts it to JSON lines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bunnynet-logs-"));
    const file = join(dir, "day.log");
    const date = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
    const raw = await runTool(["logs", "download", String(emu.fixtures.pullZoneId), "--date", date, "--output", file], emulatorEnv(emu));
    assert.equal(raw.code, 0, raw.stderr);
    const text = readFileSync(file, "utf8");
    const lines = text.trim().split("\n");
    assert.ok(lines.length > 1000, `a day of lines (${lines.length})`);
    assert.ok(lines.every((l) => l.split("|").length >= 12), "pipe-delimited v1 lines");
    assert.equal(statSync(file).size, Buffer.byteLength(text));

    const json = await runTool(["logs", "download", String(emu.fixtures.pullZoneId), "--date", date, "--json", "--status", "404"], emulatorEnv(emu));
    assert.equal(json.code, 0, json.stderr);
    const rows = jsonLines(json.stdout);
    assert.ok(rows.length > 0 && rows.every((r) => r.statusCode === 404));
    const missing = await runTool(["logs", "download", String(emu.fixtures.pullZoneId)], emulatorEnv(emu));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--date is required/);
  });

  it("tail as a table on a quiet zone: the quiet polls fix no column widths, so the first rows are not cut to the header's", async () => {
    const zone = Number(emu.fixtures.pullZoneId);
    const run = await runTool(["logs", "tail", String(zone), "--since", "0", "--interval", "1", "--format", "table"], emulatorEnv(emu), {
      onStart: (child, output) => {
        const started = Date.now();
        let injected = false;
        const wait = setInterval(async () => {
          const elapsed = Date.now() - started;
          if (!injected && elapsed > 2500) {
            // Two quiet polls have passed; now traffic arrives.
            injected = true;
            await fetch(`${emu.url}/_emulator/logs/traffic`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pullZoneId: zone, count: 3 }) });
          }
          if (output().split("\n").length > 3 || elapsed > 20_000) {
            clearInterval(wait);
            child.kill("SIGINT");
          }
        }, 100);
      },
    });
    assert.equal(run.code, 0, run.stderr);
    const [header, , first] = run.stdout.split("\n");
    assert.match(header, /^timestamp {2,}status/);
    assert.match(first, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /, `a whole timestamp: ${first}`);
  });

  it("tail: prints recent entries, then live traffic as it arrives, each once, and stops cleanly on Ctrl-C", async () => {
    const zone = Number(emu.fixtures.pullZoneId);
    let live: string[] = [];
    const run = await runTool(["logs", "tail", String(zone), "--since", "3600", "--interval", "1", "--include-origin-shield"], emulatorEnv(emu), {
      onStart: (child, output) => {
        const started = Date.now();
        let injected = false;
        const wait = setInterval(async () => {
          const elapsed = Date.now() - started;
          if (!injected && output().length > 0) {
            // The history is out: now requests arrive while tail is polling.
            injected = true;
            const res = await fetch(`${emu.url}/_emulator/logs/traffic`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ pullZoneId: zone, count: 5 }),
            });
            live = ((await res.json()) as { requestIds: string[] }).requestIds;
          }
          const seenAll = live.length > 0 && live.every((id) => output().includes(id));
          if (seenAll || elapsed > 20_000) {
            clearInterval(wait);
            child.kill("SIGINT");
          }
        }, 100);
      },
    });
    assert.equal(run.signal, null, "exited by itself, not killed by the signal");
    assert.equal(run.code, 0, run.stderr);
    const ids = jsonLines(run.stdout).map((r) => r.requestId);
    assert.equal(live.length, 5);
    for (const id of live) assert.equal(ids.filter((x) => x === id).length, 1, `live request ${id} printed exactly once`);
    assert.equal(new Set(ids).size, ids.length, "no entry printed twice across polls");
  });
});
