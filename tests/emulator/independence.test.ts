import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { Readable } from "node:stream";
import { parseV1Log, type V1LogEntry } from "bunnynet-pulumi/dist/logs/index.js";
import { LOG_CACHE_STATUSES, LOG_RETENTION_MS } from "bunnynet-pulumi/dist/schemas/logging.js";
import { LOGGING_RATE_LIMIT } from "bunnynet-pulumi/dist/http/rateLimiter.js";
import {
  RateLimitAction,
  RateLimitBlockTime,
  RateLimitCounterKey,
  RateLimitTimeframe,
  RULE_VARIABLES,
  RuleOperator,
  RuleSeverity,
  RuleTransformation,
  WafRuleAction,
} from "bunnynet-pulumi/dist/schemas/shield.js";
import { CACHE_STATUSES, RETENTION_MS, ZONE_REQUEST_BUDGET } from "bunnynet-emulator/dist/surfaces/logging/facts.js";
import { logGenerator, v1Line } from "bunnynet-emulator/dist/surfaces/logging/generator.js";
import { REQUEST_VARIABLES, RULE_ENUMS, WAF_RULE_ACTIONS } from "bunnynet-emulator/dist/surfaces/shieldRuleBodies.js";
import { ACCESS_LIST_ENUMS } from "bunnynet-emulator/dist/surfaces/shieldAccessLists.js";
import { AccessListAction, AccessListType } from "bunnynet-pulumi/dist/schemas/shieldEnums.js";
import { STORAGE_REGIONS } from "bunnynet-pulumi/dist/schemas/storageRegions.js";
import { STORAGE_ZONE_REGIONS } from "bunnynet-emulator/dist/surfaces/storageZones.js";
import { COUNTRY_CODES } from "bunnynet-pulumi/dist/schemas/countryCodes.js";
import { ISO_COUNTRY_CODES } from "bunnynet-emulator/dist/surfaces/countryCodes.js";
import { DATABASE_REGIONS } from "bunnynet-pulumi/dist/schemas/databases.js";
import { DATABASE_REGIONS as EMULATOR_DATABASE_REGIONS } from "bunnynet-emulator/dist/surfaces/edgeDatabases.js";

/**
 * The emulator is an oracle for the provider only if it reads the API on its own: its server (everything in
 * emulator/ but the testing kit and the two Node guards, which share the one Node.js check) imports nothing of
 * bunnynet-pulumi. Where both sides state one fact (the logging API's retention, budget and cache statuses,
 * Shield's enums, the v1 line format, ISO country codes, database regions), each states it for itself and this file
 * checks they agree.
 */

const EMULATOR_DIR = dirname(require.resolve("bunnynet-emulator/package.json"));
const MAY_IMPORT_THE_PROVIDER = new Set(["testing", "nodeGuard", "libraryNodeGuard"]);
const PROVIDER_IMPORT = /(?:from\s+|require\(\s*|import\(\s*)["']bunnynet-pulumi(?:\/[^"']*)?["']/;

/** The server's files under `dir` with one of `extensions`, skipping the testing kit, the guards and node_modules. */
function serverFiles(dir: string, extensions: RegExp, top = dir): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const first = relative(top, path).split(/[\\/]/)[0].replace(/\.(d\.ts|ts|js)$/, "");
    if (entry.name === "node_modules" || MAY_IMPORT_THE_PROVIDER.has(first)) continue;
    if (entry.isDirectory()) files.push(...serverFiles(path, extensions, top));
    else if (extensions.test(entry.name)) files.push(path);
  }
  return files;
}

/** The `bunnynet-emulator` package's files (other than allowed ones) that import the provider. */
function importersOfTheProvider(dir: string, extensions: RegExp): string[] {
  return serverFiles(dir, extensions)
    .filter((f) => PROVIDER_IMPORT.test(readFileSync(f, "utf8")))
    .map((f) => relative(EMULATOR_DIR, f));
}

describe("the emulator as an independent oracle", () => {
  describe("it imports nothing of the provider", () => {
    it("in its sources", () => {
      const sources = serverFiles(EMULATOR_DIR, /\.ts$/).filter((f) => !relative(EMULATOR_DIR, f).startsWith("dist"));
      assert.ok(sources.length > 30, `the scan found the emulator's sources (${sources.length})`);
      const importers = sources.filter((f) => PROVIDER_IMPORT.test(readFileSync(f, "utf8"))).map((f) => relative(EMULATOR_DIR, f));
      assert.deepEqual(importers, []);
    });

    it("in its compiled files", () => {
      const dist = join(EMULATOR_DIR, "dist");
      assert.ok(serverFiles(dist, /\.js$/).length > 30, "the scan found the compiled server");
      assert.deepEqual(importersOfTheProvider(dist, /\.js$/), []);
    });

    it("the scan sees an import where there is one (the Node guard may import the provider's check)", () => {
      const guard = readFileSync(join(EMULATOR_DIR, "dist", "nodeGuard.js"), "utf8");
      assert.match(guard, PROVIDER_IMPORT);
    });
  });

  describe("facts both sides state agree", () => {
    it("logging: retention, the per-zone budget and the cache statuses", () => {
      assert.equal(RETENTION_MS, LOG_RETENTION_MS);
      assert.deepEqual({ requests: ZONE_REQUEST_BUDGET.requests, windowMs: ZONE_REQUEST_BUDGET.windowMs }, { requests: LOGGING_RATE_LIMIT.limit, windowMs: LOGGING_RATE_LIMIT.windowMs });
      assert.deepEqual([...CACHE_STATUSES].sort(), [...LOG_CACHE_STATUSES].sort());
    });

    it("logging: the published description says the same (when ../shared is present)", function () {
      const doc = join(EMULATOR_DIR, "..", "..", "shared", "BUNNY-API.md");
      if (!existsSync(doc)) this.skip();
      const text = readFileSync(doc, "utf8");
      assert.match(text, new RegExp(`${ZONE_REQUEST_BUDGET.requests} requests per ${ZONE_REQUEST_BUDGET.windowMs / 1000} seconds per pull zone`));
      assert.match(text, new RegExp(`retention ${RETENTION_MS / 86_400_000} days`));
      for (const status of CACHE_STATUSES) assert.ok(text.includes(status === "-" ? "`-`" : status), status);
    });

    it("storage: the same storage regions on both sides", () => {
      assert.deepEqual([...STORAGE_ZONE_REGIONS].sort(), [...STORAGE_REGIONS].sort());
    });

    it("the same ISO 3166-1 alpha-2 country codes on both sides (access lists), each a region the runtime's CLDR names", () => {
      assert.deepEqual([...ISO_COUNTRY_CODES].sort(), [...COUNTRY_CODES].sort());
      assert.equal(COUNTRY_CODES.length, 249);
      const names = new Intl.DisplayNames(["en"], { type: "region" });
      assert.deepEqual(COUNTRY_CODES.filter((code) => names.of(code) === code), [], "a code CLDR does not know is a typo");
    });

    it("databases: the same regions on both sides", () => {
      assert.deepEqual([...EMULATOR_DATABASE_REGIONS].sort(), [...DATABASE_REGIONS].sort());
    });

    it("Shield: every enum has the same numbers on both sides, and the same request variables", () => {
      const pairs: [string, Record<number, string>, Record<string, number>][] = [
        ["actionType", RULE_ENUMS.actionType, RateLimitAction],
        ["operatorType", RULE_ENUMS.operatorType, RuleOperator],
        ["severityType", RULE_ENUMS.severityType, RuleSeverity],
        ["transformationType", RULE_ENUMS.transformationType, RuleTransformation],
        ["counterKeyType", RULE_ENUMS.counterKeyType, RateLimitCounterKey],
        ["timeframe", RULE_ENUMS.timeframe, RateLimitTimeframe],
        ["blockTime", RULE_ENUMS.blockTime, RateLimitBlockTime],
        ["WAF rule actionType", WAF_RULE_ACTIONS, WafRuleAction],
      ];
      for (const [name, emulator, provider] of pairs) {
        const providerNumbers = [...new Set(Object.values(provider))].sort((a, b) => a - b);
        assert.deepEqual(Object.keys(emulator).map(Number).sort((a, b) => a - b), providerNumbers, name);
      }
      assert.deepEqual([...REQUEST_VARIABLES].sort(), [...RULE_VARIABLES].sort());
      // Access lists: the same names for the same numbers (the provider leaves out the action None: a list is turned off with enabled).
      assert.deepEqual(Object.fromEntries(Object.entries(AccessListType).map(([name, n]) => [n, name])), Object.fromEntries(Object.entries(ACCESS_LIST_ENUMS.type)));
      const { 0: none, ...actions } = ACCESS_LIST_ENUMS.action;
      assert.equal(none, "None");
      assert.deepEqual(Object.fromEntries(Object.entries(AccessListAction).map(([name, n]) => [n, name])), actions);
    });

    it("v1 logs: every line the emulator writes, the provider's parser reads back field by field", async () => {
      const next = logGenerator({ pullZoneId: 1001, hosts: ["a.b-cdn.net"], extended: true, seed: 11 });
      const rows = Array.from({ length: 500 }, (_, i) => next(Date.UTC(2026, 0, 1) + i * 1000));
      for (const extended of [false, true]) {
        const text = rows.map((r) => v1Line(r, extended)).join("\n") + "\n";
        const parsed: V1LogEntry[] = [];
        for await (const record of parseV1Log(Readable.from([Buffer.from(text)]))) {
          assert.equal(record.kind, "entry", JSON.stringify(record));
          parsed.push(record as V1LogEntry);
        }
        assert.equal(parsed.length, rows.length);
        rows.forEach((row, i) => {
          const e = parsed[i];
          assert.deepEqual(
            [e.cacheStatus, e.statusCode, e.timestamp, e.bytesSent, e.pullZoneId, e.remoteIp, e.referer, e.url, e.edgeLocation, e.userAgent, e.requestId, e.countryCode],
            [row.cacheStatus, row.statusCode, row.timestamp, row.bytesSent, row.pullZoneId, row.remoteIp ?? undefined, row.referer ?? undefined, `${row.scheme}://${row.host}${row.path}`, row.edgeLocation, row.userAgent ?? undefined, row.requestId, row.countryCode ?? undefined],
            `line ${i + 1}`,
          );
          if (extended) assert.deepEqual([e.bodyBytesSent, e.contentRange, e.authorizationHeader], [row.bodyBytesSent ?? undefined, row.contentRange ?? undefined, row.authorizationHeader ?? undefined]);
        });
      }
    });
  });
});
