import { createWriteStream } from "node:fs";
import { rename, unlink } from "node:fs/promises";
import { once } from "node:events";
import type { Writable } from "node:stream";
import type { Command, CommandContext, Values } from "../command";
import { intFlag } from "../command";
import { ExitCode, UsageError } from "../exitCodes";
import { type Column, rowWriter } from "../output";
import { BunnyError } from "../../http/errors";
import { LogDaySchema, type LogEntry, type LogQueryParams } from "../../schemas/logging";
import { parseV1Log, v1ToJsonLines } from "../../logs";
import { resumableLines } from "../resumableDownload";

/** Filters shared by `logs query` and `logs tail`, named as the v2 API names them (kebab-case). */
const FILTER_OPTIONS = {
  status: { type: "string", multiple: true },
  "cache-status": { type: "string", multiple: true },
  country: { type: "string", multiple: true },
  "edge-location": { type: "string" },
  "remote-ip": { type: "string" },
  "request-id": { type: "string" },
  "url-contains": { type: "string" },
  "user-agent-contains": { type: "string" },
  "referer-contains": { type: "string" },
  search: { type: "string" },
  "include-origin-shield": { type: "boolean" },
  token: { type: "string" },
} as const;

const FILTER_HELP = `Filters (repeat a flag or give a comma list): --status 404 --status 5xx, --cache-status HIT,MISS,
--country DE,US, --edge-location, --remote-ip, --request-id, --url-contains, --user-agent-contains,
--referer-contains, --search "tokens …", --include-origin-shield.
Auth: the account key (BUNNYNET_API_KEY), or a logging JWT with --token or BUNNYNET_LOGGING_TOKEN.`;

const list = (v: Values[string]): string[] | undefined => {
  if (v === undefined) return undefined;
  const items = (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(",")).map((s) => s.trim()).filter(Boolean);
  return items.length ? items : undefined;
};

function filterParams(values: Values): LogQueryParams {
  const str = (k: string) => (typeof values[k] === "string" ? (values[k] as string) : undefined);
  return {
    status: list(values.status)?.map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
    cacheStatus: list(values["cache-status"])?.map((s) => s.toUpperCase()) as LogQueryParams["cacheStatus"],
    country: list(values.country),
    edgeLocation: str("edge-location"),
    remoteIp: str("remote-ip"),
    requestId: str("request-id"),
    urlContains: str("url-contains"),
    userAgentContains: str("user-agent-contains"),
    refererContains: str("referer-contains"),
    search: str("search"),
    includeOriginShield: values["include-origin-shield"] === true ? true : undefined,
  };
}

/** Whether `date` (YYYY-MM-DD or MM-dd-yy, UTC) is a day before today: its file no longer changes. */
function isPastDay(date: string, now = new Date()): boolean {
  const day = LogDaySchema.safeParse(date);
  if (!day.success) return false;
  const [mm, dd, yy] = day.data.split("-").map(Number);
  return Date.UTC(2000 + yy, mm - 1, dd) < Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

function zoneIdArg(positionals: string[]): number {
  const id = Number(positionals[0]);
  if (!Number.isInteger(id) || id <= 0) throw new UsageError(`<pullZoneId> must be a positive integer, got ${JSON.stringify(positionals[0])}`);
  return id;
}

function loggingClient(ctx: CommandContext) {
  const token = (ctx.values.token as string | undefined) ?? (ctx.io.env.BUNNYNET_LOGGING_TOKEN || undefined);
  const logging = ctx.client().logging;
  return token ? logging.withBearer(token) : logging;
}

/** Widths from the values the v2 API gives (an ISO time, an IPv4 address, a URL…): `logs tail` often starts with no rows. */
const ENTRY_COLUMNS: Column<LogEntry>[] = [
  { header: "timestamp", value: (e) => e.timestamp, width: 24 },
  { header: "status", value: (e) => e.statusCode },
  { header: "cache", value: (e) => e.cacheStatus, width: 6 },
  { header: "edge", value: (e) => e.edgeLocation, width: 4 },
  { header: "country", value: (e) => e.countryCode },
  { header: "remoteIp", value: (e) => e.remoteIp, width: 15 },
  { header: "bytes", value: (e) => e.bytesSent, width: 8 },
  { header: "url", value: (e) => e.url, width: 40 },
  { header: "userAgent", value: (e) => e.userAgent, width: 24 },
  { header: "requestId", value: (e) => e.requestId, width: 16 },
];

function entryWriter(ctx: CommandContext) {
  return rowWriter<LogEntry>(ctx.format, ENTRY_COLUMNS, ctx.io.stdout, { json: (e) => e });
}

export const logsQueryCommand: Command = {
  name: "logs query",
  summary: "Query CDN logs (v2) across a whole time range, page after page within the API's rate limit.",
  args: "<pullZoneId>",
  positionals: { min: 1, max: 1 },
  options: {
    ...FILTER_OPTIONS,
    from: { type: "string" },
    to: { type: "string" },
    order: { type: "string" },
    max: { type: "string" },
  },
  details: `--from/--to: ISO UTC times (default: the last 24 hours; at most 3 days, inside the 3-day retention).
--order asc|desc (default desc). --max N stops after N entries.
${FILTER_HELP}
A progress line goes to stderr when it is a terminal. Ctrl-C stops; what was printed stays (exit 130).`,
  async run(ctx) {
    const { io, values } = ctx;
    const pullZoneId = zoneIdArg(ctx.positionals);
    const order = values.order as string | undefined;
    if (order !== undefined && order !== "asc" && order !== "desc") throw new UsageError(`--order must be asc or desc, got ${JSON.stringify(order)}`);
    const maxEntries = intFlag(values, "max", 0, Number.MAX_SAFE_INTEGER);
    const params: LogQueryParams = { ...filterParams(values), from: values.from as string | undefined, to: values.to as string | undefined, order };
    const out = entryWriter(ctx);
    const started = Date.now();
    let count = 0;
    const progress = (final = false) => {
      if (!io.stderrIsTTY) return;
      io.stderr(`\r${count} entries in ${((Date.now() - started) / 1000).toFixed(1)} s${final ? "\n" : ""}`);
    };
    try {
      for await (const entry of loggingClient(ctx).query(pullZoneId, params, { maxEntries })) {
        if (io.signal.aborted) break;
        out.write(entry);
        if (++count % 1000 === 0) progress();
      }
    } catch (e) {
      // Rows already printed are finished; with none, nothing is printed (not even a CSV header).
      if (count > 0) out.end();
      progress(true);
      if (count > 0 && e instanceof BunnyError) {
        io.stderr(`bunnynet logs query: stopped after ${count} entries: ${e.message}\n`);
        return ExitCode.Partial;
      }
      throw e;
    }
    out.end();
    progress(true);
    return io.signal.aborted ? ExitCode.Interrupted : ExitCode.Ok;
  },
};

/** Time to sleep, cut short by Ctrl-C. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}

export const logsTailCommand: Command = {
  name: "logs tail",
  summary: "Follow CDN logs in near real time, polling within the API's rate limit, until Ctrl-C.",
  args: "<pullZoneId>",
  positionals: { min: 1, max: 1 },
  options: { ...FILTER_OPTIONS, interval: { type: "string" }, since: { type: "string" } },
  details: `--interval SECONDS between polls (default 2; the per-zone limiter keeps every poll within 30 requests per 10 s).
--since SECONDS of history to print first (default 60).
${FILTER_HELP}
Ctrl-C stops cleanly after the current poll (exit 0).`,
  async run(ctx) {
    const { io, values } = ctx;
    const pullZoneId = zoneIdArg(ctx.positionals);
    const intervalMs = (intFlag(values, "interval", 1, 3600) ?? 2) * 1000;
    const sinceMs = (intFlag(values, "since", 0, 3 * 24 * 3600) ?? 60) * 1000;
    const filters = filterParams(values);
    const logging = loggingClient(ctx);
    const out = entryWriter(ctx);
    let cursor = new Date(Date.now() - sinceMs).toISOString();
    // Entries at the cursor's exact time may come again in the next poll: remember which were printed
    // (by request id, or the whole entry where the API sent none: the field is nullable).
    let atCursor = new Set<string>();
    const identity = (e: LogEntry) => e.requestId ?? JSON.stringify(e);
    while (!io.signal.aborted) {
      const to = new Date().toISOString();
      let polled = 0;
      if (to > cursor) {
        for await (const entry of logging.query(pullZoneId, { ...filters, from: cursor, to, order: "asc" })) {
          if (entry.timestamp === cursor && atCursor.has(identity(entry))) continue;
          if (entry.timestamp !== cursor) {
            cursor = entry.timestamp;
            atCursor = new Set();
          }
          atCursor.add(identity(entry));
          out.write(entry);
          polled++;
        }
        // Table output sizes its columns from the first rows: show each poll's rows without waiting for more, but a
        // quiet poll fixes no widths (they would be the header's, and cut every value).
        if (polled > 0) out.end();
      }
      await pause(intervalMs, io.signal);
    }
    out.end();
    return ExitCode.Ok;
  },
};

export const logsDownloadCommand: Command = {
  name: "logs download",
  summary: "Stream one day's raw log file (v1) to a file or stdout, as is or converted to JSON lines.",
  args: "<pullZoneId>",
  positionals: { min: 1, max: 1 },
  options: {
    date: { type: "string" },
    output: { type: "string", short: "o" },
    json: { type: "boolean" },
    status: { type: "string", multiple: true },
    search: { type: "string" },
    token: { type: "string" },
  },
  details: `--date YYYY-MM-DD or MM-dd-yy (UTC; required). --output FILE (default stdout). --json (or --format jsonl)
converts each line to a JSON object (malformed lines are reported on stderr with their line numbers and skipped:
exit 4); no other --format applies.
--status and --search filter on the server. The file is streamed, never held in memory; a slow transfer is never
cut while data flows (the timeout is "no data for --timeout-ms"); a past day's transfer that drops midway resumes at
the first missing line (up to 3 times). The output is written to FILE.partial and renamed to FILE only when
complete: a transfer that still fails, or a file that ends mid-line, keeps FILE.partial (exit 4).`,
  async run(ctx) {
    const { io, values } = ctx;
    const pullZoneId = zoneIdArg(ctx.positionals);
    if (typeof values.date !== "string") throw new UsageError("--date is required (YYYY-MM-DD or MM-dd-yy)");
    // The day's file is written as it is, or as JSON lines: no table or CSV of it is made.
    if (values.format !== undefined && values.format !== "jsonl") {
      throw new UsageError(`--format ${String(values.format)} does not apply: logs download writes the raw file, or JSON lines with --json (or --format jsonl); for a table or CSV use \`bunnynet logs query\``);
    }
    const asJson = values.json === true || values.format === "jsonl";
    const logging = loggingClient(ctx);
    const filters = { status: list(values.status)?.map((s) => (/^\d+$/.test(s) ? Number(s) : s)), search: values.search as string | undefined };
    const date = values.date;
    const first = await logging.downloadDay(pullZoneId, date, filters);
    const body = resumableLines(first, {
      fetchFrom: (start) => logging.downloadDay(pullZoneId, date, { ...filters, start }),
      resumable: isPastDay(date),
      onResume: (lines, failure) => io.stderr(`bunnynet logs download: ${failure.message}; resuming at line ${lines + 1}\n`),
    });
    const output = typeof values.output === "string" ? values.output : undefined;
    const partial = output === undefined ? undefined : `${output}.partial`;
    const target: Writable = partial === undefined ? process.stdout : createWriteStream(partial);
    const write = async (chunk: string | Buffer) => {
      if (!target.write(chunk)) await once(target, "drain");
    };
    // What arrived, to tell a complete file (it ends with a newline) from one cut mid-line.
    let received = 0;
    let lastByte = -1;
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of body) {
        const b = chunk as Buffer;
        if (b.length > 0) lastByte = b[b.length - 1];
        received += b.length;
        yield b;
      }
    }
    let malformed = 0;
    let failure: BunnyError | undefined;
    try {
      if (asJson) {
        const lines = v1ToJsonLines(parseV1Log(counted()), (line, reason) => {
          malformed++;
          io.stderr(`line ${line}: ${reason}\n`);
        });
        for await (const line of lines) await write(line);
      } else {
        for await (const chunk of counted()) await write(chunk);
      }
    } catch (e) {
      // A transfer that failed midway (dropped connection, stalled sender): report what was kept.
      if (!(e instanceof BunnyError)) throw e;
      failure = e;
    }
    if (partial !== undefined) {
      target.end();
      await once(target, "finish");
    }
    const cutMidLine = received > 0 && lastByte !== 0x0a;
    if (failure === undefined && !cutMidLine) {
      if (output !== undefined && partial !== undefined) await rename(partial, output);
      return malformed > 0 ? ExitCode.Partial : ExitCode.Ok;
    }
    const why = failure !== undefined ? failure.message : "the file ends mid-line: the transfer was cut";
    if (received === 0 && partial !== undefined) {
      await unlink(partial).catch(() => undefined);
      io.stderr(`bunnynet logs download: ${why}\n`);
      return ExitCode.ApiError;
    }
    const kept = partial !== undefined ? `; the ${received} bytes received are in ${partial} (incomplete)` : `; ${received} bytes were written (incomplete)`;
    io.stderr(`bunnynet logs download: ${why}${kept}\n`);
    return ExitCode.Partial;
  },
};
