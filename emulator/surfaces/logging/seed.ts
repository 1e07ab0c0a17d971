import { z } from "zod";
import type { EmulatorContext, Fixtures } from "../../context";
import { RETENTION_MS } from "./facts";
import { createPullZone, type PullZoneRecord } from "../pullZones";
import { logGenerator } from "./generator";
import { logRowInserter } from "./table";

/**
 * The requests in the logs: those the emulator starts with (the main zone's and an extended-logging zone's, spread over
 * the retention window) and the live traffic added on request (`POST /_emulator/logs/traffic`).
 */

const SEEDED_MAIN_LINES = 40_000;
const SEEDED_EXTENDED_LINES = 3_000;

/** Stores generated requests of a zone at the given times; returns their request ids. */
function insertTraffic(ctx: EmulatorContext, zone: PullZoneRecord, extended: boolean, timestamps: number[], seed?: number): string[] {
  const insert = logRowInserter(ctx);
  const next = logGenerator({ pullZoneId: zone.Id, hosts: [zone.Hostnames[0].Value, `cdn.${zone.Name}.example`], extended, seed });
  return timestamps.map((t) => {
    const r = next(t);
    insert(r);
    return r.requestId;
  });
}

/** The surface's `seed`: fills the main zone's logs and creates a zone with extended logging. */
export function seedLogs(ctx: EmulatorContext, seededSoFar: Fixtures): Fixtures {
  const now = Date.now();
  const fill = (zone: PullZoneRecord, lines: number, extended: boolean): void => {
    // Spread evenly over the retention window (newest a few seconds ago), each at a jittered offset in its slot.
    const span = RETENTION_MS - 60_000;
    const slot = span / lines;
    insertTraffic(ctx, zone, extended, Array.from({ length: lines }, (_, i) => Math.floor(now - span + i * slot + ((i * 7919) % 1000) / 1000 * slot * 0.9)));
  };
  const main = ctx.store.get<PullZoneRecord>("pullzone", seededSoFar.pullZoneId);
  if (main) fill(main, SEEDED_MAIN_LINES, false);
  // A zone with extended logging (15-column v1 lines; bodyBytesSent/contentRange/authorizationHeader in v2).
  const extended = createPullZone(ctx, "emulator-extlogs");
  fill(extended, SEEDED_EXTENDED_LINES, true);
  return { extendedLoggingPullZoneId: extended.Id, seededLogLines: SEEDED_MAIN_LINES };
}

/** The body of `POST /_emulator/logs/traffic`. */
export const TrafficRequestSchema = z.object({ pullZoneId: z.number().int().positive(), count: z.number().int().min(1).max(10_000).default(10) }).strict();

/** `count` requests of the zone served just now (for demos and `logs tail` tests); returns their request ids. */
export function addLiveTraffic(ctx: EmulatorContext, zone: PullZoneRecord, count: number): string[] {
  // The newest a millisecond ago: a query's range ends before its `to` (now by default, v2Page.ts), so a line stamped
  // `now` was missed by a query answered in the same millisecond.
  const now = Date.now();
  const timestamps = Array.from({ length: count }, (_, i) => now - count + i);
  return ctx.store.transaction(() => insertTraffic(ctx, zone, false, timestamps, now % 2147483647));
}
