import assert from "node:assert/strict";
import { Readable } from "node:stream";
import {
  V1Filter,
  formatV1Line,
  parseV1Log,
  newV1ParseStats,
  v1ToJsonLines,
  type V1LogEntry,
  type V1LogFields,
  type V1MalformedLine,
  type V1ParseOptions,
  type V1Record,
} from "bunnynet-pulumi/dist/logs/index.js";

const UA = "Mozilla/5.0 (X11; Linux x86_64) Firefox/127.0";
const GOOD = `HIT|200|1715000000123|412|1001|163.172.53.229|-|https://cdn.example/a.js|DE|${UA}|322b688bd63fb63f2babe9de30a5d262|DE`;

/** Feeds `text` as a stream of `chunkSize`-byte Buffers (1 = every multi-byte character split). */
async function parse(text: string | Buffer, options: V1ParseOptions = {}, chunkSize = 64 * 1024): Promise<V1Record[]> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const out: V1Record[] = [];
  for await (const r of parseV1Log(Readable.from(chunks), options)) out.push(r);
  return out;
}

const entries = (records: V1Record[]): V1LogEntry[] => records.filter((r): r is V1LogEntry => r.kind === "entry");
const malformed = (records: V1Record[]): V1MalformedLine[] => records.filter((r): r is V1MalformedLine => r.kind === "malformed");

describe("logs: streaming v1 parser", () => {
  it("reads every column of a standard line, with its line number", async () => {
    const [e] = entries(await parse(`${GOOD}\n`));
    assert.deepEqual(
      { ...e },
      {
        kind: "entry",
        line: 1,
        extended: false,
        cacheStatus: "HIT",
        statusCode: 200,
        timestamp: 1715000000123,
        bytesSent: 412,
        pullZoneId: 1001,
        remoteIp: "163.172.53.229",
        referer: undefined,
        url: "https://cdn.example/a.js",
        edgeLocation: "DE",
        userAgent: UA,
        requestId: "322b688bd63fb63f2babe9de30a5d262",
        countryCode: "DE",
        bodyBytesSent: undefined,
        contentRange: undefined,
        authorizationHeader: undefined,
      },
    );
  });

  it("empty optional columns read as absent, and a written line parses back to the same fields", async () => {
    const fields: V1LogFields = {
      cacheStatus: "-",
      statusCode: 503,
      timestamp: 1715000000999,
      bytesSent: 0,
      pullZoneId: 7,
      remoteIp: undefined,
      referer: undefined,
      url: "http://h/p?q=1",
      edgeLocation: "NY",
      userAgent: undefined,
      requestId: "abc",
      countryCode: undefined,
    };
    const line = formatV1Line(fields);
    assert.equal(line, "-|503|1715000000999|0|7||-|http://h/p?q=1|NY||abc|");
    const [e] = entries(await parse(line + "\n"));
    for (const k of Object.keys(fields) as (keyof V1LogFields)[]) assert.equal(e[k], fields[k], k);
  });

  it("takes extra pipes as part of the user agent (followed by exactly request id and country)", async () => {
    const ua = "LegacyPlayer/1.0 | build 42 | \"quoted\"";
    const records = await parse(`${GOOD}\nMISS|404|1715000000200|200|1001|10.0.0.1|https://ref.example/|https://cdn.example/x|UK|${ua}|ffee00|GB\n`);
    assert.equal(malformed(records).length, 0);
    const e = entries(records)[1];
    assert.equal(e.line, 2);
    assert.equal(e.userAgent, ua);
    assert.equal(e.requestId, "ffee00");
    assert.equal(e.countryCode, "GB");
    assert.equal(e.referer, "https://ref.example/");
  });

  it("reads extended-logging lines (15 columns), with and without a pipe in the user agent", async () => {
    const ext = `${GOOD}|1200|bytes=0-1023|Bearer x.y.z`;
    const extPipe = `HIT|206|1715000000300|1500|1001|::1|-|https://cdn.example/v.mp4|SG|Bot|v2|req1|SG|1250||`;
    const records = await parse(`${ext}\n${extPipe}\n`);
    assert.equal(malformed(records).length, 0);
    const [a, b] = entries(records);
    assert.equal(a.extended, true);
    assert.equal(a.bodyBytesSent, 1200);
    assert.equal(a.contentRange, "bytes=0-1023");
    assert.equal(a.authorizationHeader, "Bearer x.y.z");
    assert.equal(a.userAgent, UA);
    assert.equal(b.extended, true);
    assert.equal(b.userAgent, "Bot|v2");
    assert.equal(b.requestId, "req1");
    assert.equal(b.bodyBytesSent, 1250);
    assert.equal(b.contentRange, undefined);
  });

  it("reports wrong column counts and non-numeric fields with their line numbers, and keeps going", async () => {
    const lines = [
      GOOD,
      "HIT|200|1715000000123|412|1001",
      GOOD.replace("|200|", "|2x0|"),
      GOOD.replace("|1715000000123|", "|yesterday|"),
      GOOD.replace("|412|", "|-1|"),
      // 13 columns whose trailing ones are not a request id and a country: not resolvable.
      `${GOOD}|not a country`,
      "",
      GOOD,
    ];
    const records = await parse(lines.join("\n") + "\n");
    assert.deepEqual(
      malformed(records).map((m) => [m.line, m.reason.split(":")[0]]),
      [
        [2, "wrong column count"],
        [3, "status code is not a number"],
        [4, "timestamp is not a number"],
        [5, "bytes sent is not a number"],
        [6, "wrong column count"],
      ],
    );
    assert.match(malformed(records)[0].reason, /wrong column count: 5 \(expected 12, or 15 with extended logging\)/);
    assert.equal(malformed(records)[0].text, "HIT|200|1715000000123|412|1001");
    // The blank line 7 is skipped but counted, so the last good line is line 8.
    assert.deepEqual(entries(records).map((e) => e.line), [1, 8]);
  });

  it("reports a truncated last line (no newline) instead of parsing it", async () => {
    const cut = GOOD.slice(0, GOOD.length - 1); // country code cut to "D": still 12 columns
    const stats = newV1ParseStats();
    const records = await parse(`${GOOD}\n${cut}`, { stats });
    assert.equal(entries(records).length, 1);
    assert.deepEqual(malformed(records).map((m) => m.line), [2]);
    assert.match(malformed(records)[0].reason, /truncated/);
    assert.deepEqual({ lines: stats.lines, entries: stats.entries, malformed: stats.malformed }, { lines: 2, entries: 1, malformed: 1 });
  });

  it("gives the same result whatever the chunking, including multi-byte characters split across chunks and CRLF", async () => {
    const ua = "Mözilla/5.0 (Lïnux; ☃ snowman edition) 日本語";
    const text = [GOOD, GOOD.replace(UA, ua), GOOD.replace(UA, `${ua}|pipe`)].join("\r\n") + "\r\n";
    const whole = await parse(text);
    const bytewise = await parse(text, {}, 1);
    const odd = await parse(text, {}, 7);
    assert.equal(entries(whole).length, 3);
    assert.equal(entries(whole)[1].userAgent, ua);
    assert.equal(entries(whole)[2].userAgent, `${ua}|pipe`);
    assert.equal(entries(whole)[2].countryCode, "DE");
    assert.deepEqual(bytewise, whole);
    assert.deepEqual(odd, whole);
  });

  it("skips an over-long line without buffering it, reporting it, then continues", async () => {
    const long = `HIT|200|1|2|3|ip|-|https://x/${"a".repeat(5000)}|DE|ua|id|DE`;
    const records = await parse(`${long}\n${GOOD}\n`, { maxLineBytes: 1000 }, 256);
    assert.deepEqual(malformed(records).map((m) => [m.line, m.reason]), [[1, "line longer than 1000 bytes"]]);
    assert.deepEqual(entries(records).map((e) => e.line), [2]);
  });

  it("filters by status codes and classes, cache status and a case-insensitive substring", async () => {
    const lines = [
      GOOD,
      GOOD.replace("HIT|200|", "MISS|404|"),
      GOOD.replace("HIT|200|", "STALE|503|"),
      GOOD.replace("HIT|200|", "hit|502|").replace("/a.js", "/Video/Clip.MP4"),
    ];
    const text = lines.join("\n") + "\n";
    const lineNumbers = async (filter: V1ParseOptions["filter"]): Promise<number[]> => entries(await parse(text, { filter })).map((e) => e.line);
    assert.deepEqual(await lineNumbers({ status: ["5xx"] }), [3, 4]);
    assert.deepEqual(await lineNumbers({ status: [404, "2xx"] }), [1, 2]);
    assert.deepEqual(await lineNumbers({ cacheStatus: ["HIT"] }), [1, 4]);
    assert.deepEqual(await lineNumbers({ status: ["5xx"], cacheStatus: ["hit"] }), [4]);
    assert.deepEqual(await lineNumbers({ search: "clip.mp4" }), [4]);
    assert.deepEqual(await lineNumbers({ search: "322B688B" }), [1, 2, 3, 4]);
    assert.throws(() => new V1Filter({ status: ["6xx"] }), /neither a code/);
    // The filter also works on entries parsed without it (the CLI filters after a merge, for one).
    const all = entries(await parse(text));
    assert.deepEqual(all.filter((e) => new V1Filter({ status: ["5xx"], search: "CLIP" }).test(e)).map((e) => e.line), [4]);
  });

  it("converts to JSON lines in the v2 entry shape, handing malformed lines to the caller", async () => {
    const bad: number[] = [];
    const out: string[] = [];
    for await (const l of v1ToJsonLines(parseV1Log(Readable.from([Buffer.from(`${GOOD}\nbroken\n`)])), (line) => bad.push(line))) out.push(l);
    assert.deepEqual(bad, [2]);
    assert.equal(out.length, 1);
    assert.ok(out[0].endsWith("\n"));
    assert.deepEqual(JSON.parse(out[0]), {
      timestamp: new Date(1715000000123).toISOString(),
      pullZoneId: 1001,
      requestId: "322b688bd63fb63f2babe9de30a5d262",
      cacheStatus: "HIT",
      statusCode: 200,
      bytesSent: 412,
      edgeLocation: "DE",
      scheme: "https",
      host: "cdn.example",
      path: "/a.js",
      url: "https://cdn.example/a.js",
      remoteIp: "163.172.53.229",
      countryCode: "DE",
      userAgent: UA,
    });
  });
});
