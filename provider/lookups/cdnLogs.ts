import * as pulumi from "@pulumi/pulumi";
import type { LogQueryRangeParams } from "../client/logging";
import type { LogEntry } from "../types.generated";
import { type LookupOptions, type LookupOutputArgs, collect, lookupClient, runLookup } from "./client";

/** The v2 filters (status, cacheStatus, country, edgeLocation, remoteIp, requestId, search …), a range, and a cap. */
export type GetCdnLogsArgs = LogQueryRangeParams & {
  pullZoneId: number | string;
  /** At most this many entries are fetched (paging at the largest page size until then): a busy zone has millions. */
  maxEntries: number;
};

export interface GetCdnLogsResult {
  entries: LogEntry[];
  /** True when more entries matched than `maxEntries`. */
  truncated: boolean;
}

/** CDN log entries of a pull zone (`GET {logging}/v2/pullzones/{id}/logs`), filtered, newest first unless `order: "asc"`. */
export function getCdnLogs(args: GetCdnLogsArgs, options: LookupOptions = {}): Promise<GetCdnLogsResult> {
  return runLookup("getCdnLogs", args, options, fetchCdnLogs);
}

/** `getCdnLogs` calling the API. */
async function fetchCdnLogs(args: GetCdnLogsArgs, options: LookupOptions): Promise<GetCdnLogsResult> {
  const { pullZoneId, maxEntries, ...params } = args;
  // One entry past the cap tells whether the result was cut short.
  const entries = await collect(lookupClient(options).logging.query(pullZoneId, params, { maxEntries: maxEntries + 1 }));
  return { entries: entries.slice(0, maxEntries), truncated: entries.length > maxEntries };
}

/** `getCdnLogs` for Output arguments; give `from`/`to` as ISO strings here (Outputs do not carry Date objects). */
export type GetCdnLogsOutputArgs = LookupOutputArgs<Omit<GetCdnLogsArgs, "from" | "to"> & { from?: string; to?: string }>;

export function getCdnLogsOutput(args: pulumi.Input<GetCdnLogsOutputArgs>, options: LookupOptions = {}): pulumi.Output<GetCdnLogsResult> {
  return pulumi.output(args).apply((a) => getCdnLogs(a as GetCdnLogsArgs, options));
}
