import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sendJson, startHostileServer, streamBody, type HostileServer } from "../tests/support/hostileServer";

/**
 * What a hostile server costs the client: peak memory and time of the cases of issue 9 (a 2 GB JSON body, an
 * endless body, endless paging, a slow but healthy log download; of issue 25, a download trickling a byte a second
 * with a 3 s timeout and a Shield answer nested 100 000 deep), each run in a fresh child process against a
 * server on loopback in this one.
 *
 *   node dist/bench/hostile.js [--client DIST] [--gb 2] [--cap-gb 4] [--cap-s 30] [cases...]
 *
 * `--client` loads the client from another build of the package (its `provider/dist`, e.g. an older commit's) for a
 * before/after comparison; by default this build's.
 * Every case is bounded: the server stops streaming at `--cap-gb` or `--cap-s`, and the child is killed after
 * `--cap-s` + 30 s, so a client that never stops by itself shows as "killed".
 */

const CASES = ["json2g", "endless", "paging", "slowDownload", "trickle", "deepJson"] as const;
type Case = (typeof CASES)[number];

interface ChildResult {
  outcome: string;
  ms: number;
  maxRssMb: number;
  pages?: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

async function child(): Promise<void> {
  const [, , , kind, clientDist, url] = process.argv;
  const { BunnyClient } = require(join(clientDist, "client")) as typeof import("bunnynet-pulumi/dist/client/index.js");
  const client = new BunnyClient({ apiKey: "bench-key", apiUrl: url, containersApiUrl: `${url}/mc`, loggingApiUrl: url, streamApiUrl: url, timeoutMs: kind === "slowDownload" ? 1000 : kind === "trickle" ? 3000 : 30_000 });
  const started = Date.now();
  let outcome = "ok";
  let pages = 0;
  try {
    if (kind === "json2g" || kind === "endless") await client.apiKeys.listPage();
    if (kind === "paging") for await (const _ of client.containers.listRegions()) pages++;
    if (kind === "slowDownload") {
      let bytes = 0;
      for await (const chunk of await client.logging.downloadDay(1, "11-22-26")) bytes += (chunk as Buffer).length;
      outcome = `ok, ${(bytes / 1024 / 1024).toFixed(1)} MB`;
    }
    if (kind === "trickle") for await (const _ of await client.logging.downloadDay(1, "11-23-26"));
    if (kind === "deepJson") await client.shield.getRateLimit(1);
  } catch (e) {
    const err = e as Error;
    outcome = `${err.name}: ${String(err.message).slice(0, 140)}`;
  }
  const result: ChildResult = { outcome, ms: Date.now() - started, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), pages: kind === "paging" ? pages : undefined };
  process.send!(result);
}

function serve(server: HostileServer, gb: number, capGb: number, capMs: number): { bytes: () => number } {
  let bytes = 0;
  const item = '{"Id":1,"Key":"k","Roles":["User"]},';
  server.route("/apikey", async (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    // "endless": no end of its own; the server's cap is only there to keep the machine safe.
    const max = (currentCase === "endless" ? capGb : gb) * 2 ** 30;
    bytes += await streamBody(res, { prefix: '{"Items":[', filler: item, suffix: '{"Id":1,"Key":"k"}],"CurrentPage":1,"TotalItems":1,"HasMoreItems":false}' }, { maxBytes: max, maxMs: capMs });
  });
  let page = 0;
  server.route("/mc/regions", (_req, res) => {
    page++;
    sendJson(res, 200, { items: [{ id: `r${page}`, name: "Region" }], meta: { totalItems: 1 }, cursor: `c${page}` });
  });
  server.route("/11-22-26/1.log", async (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const line = "HIT|200|1763769600000|1234|1|1.2.3.0|-|https://example.com/a.js|DE|Mozilla/5.0|abcdef0123456789|DE\n";
    bytes += await streamBody(res, { filler: line }, { maxBytes: 64 * 2 ** 20, maxMs: 3000, intervalMs: 250, chunkBytes: 16 * 1024 });
  });
  // Issue 25: one byte a second (never idle for the timeout), and an answer nested 100 000 deep.
  server.route("/11-23-26/1.log", async (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    bytes += await streamBody(res, { filler: "x" }, { maxBytes: 2 ** 20, maxMs: capMs, intervalMs: 1000, chunkBytes: 1 });
  });
  server.route("/shield/rate-limit/1", (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(`{"data":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
  });
  return { bytes: () => bytes };
}

let currentCase: Case = "json2g";

function peakRssMb(pid: number | undefined): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  const clientDist = resolve(arg("--client", join(dirname(require.resolve("bunnynet-pulumi/dist/client/index.js")), "..")));
  const gb = Number(arg("--gb", "2"));
  const capGb = Number(arg("--cap-gb", "4"));
  const capS = Number(arg("--cap-s", "30"));
  const wanted = CASES.filter((c) => process.argv.includes(c));
  const server = await startHostileServer();
  const served = serve(server, gb, capGb, capS * 1000);
  process.stdout.write(`client: ${clientDist}\n| case | outcome | time | peak RSS (client) | requests | bytes served |\n|---|---|---|---|---|---|\n`);
  for (const c of wanted.length ? wanted : CASES) {
    currentCase = c;
    server.requests.length = 0;
    const before = served.bytes();
    const proc = fork(__filename, ["--child", c, clientDist, server.url], { stdio: "inherit" });
    // A child that never stops by itself is killed; its peak RSS is read from /proc first (Linux).
    let killedPeakMb = NaN;
    const killer = setTimeout(() => {
      killedPeakMb = peakRssMb(proc.pid);
      proc.kill("SIGKILL");
    }, (capS + 30) * 1000);
    const started = Date.now();
    const result = await new Promise<ChildResult>((done) => {
      let got: ChildResult | undefined;
      proc.on("message", (m) => (got = m as ChildResult));
      proc.on("exit", (code, signal) => done(got ?? { outcome: `killed after ${capS + 30} s (${signal ?? code})`, ms: Date.now() - started, maxRssMb: killedPeakMb }));
    });
    clearTimeout(killer);
    const mb = ((served.bytes() - before) / 2 ** 20).toFixed(0);
    const rss = Number.isNaN(result.maxRssMb) ? "n/a" : `${result.maxRssMb} MB`;
    const pages = result.pages !== undefined ? ` (${result.pages} items)` : "";
    process.stdout.write(`| ${c} | ${result.outcome.replace(/\|/g, "/")}${pages} | ${(result.ms / 1000).toFixed(1)} s | ${rss} | ${server.requests.length} | ${mb} MB |\n`);
  }
  await server.close();
}

if (process.argv[2] === "--child") void child();
else void main();
