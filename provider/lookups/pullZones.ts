import * as pulumi from "@pulumi/pulumi";
import type { PullZone } from "../types.generated";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/** Which pull zone `getPullZone` finds: by id, or by name (names are unique across bunny.net). */
export type GetPullZoneArgs = { id: number | string; name?: undefined } | { name: string; id?: undefined };

export interface GetPullZoneResult {
  pullZoneId: number;
  name: string;
  /** The zone's whole CDN hostname, `<name>.b-cdn.net`. */
  cdnHostname: string;
  originUrl: string;
  /** The storage zone it serves, if that is its origin. */
  storageZoneId: number | undefined;
  /** The edge script it runs, if any. */
  scriptId: number | undefined;
  enabled: boolean;
  suspended: boolean;
  /** Every hostname of the zone (its own `b-cdn.net` one first), lowercase. */
  hostnames: string[];
  /** The whole zone as the API answers it. */
  zone: PullZone;
}

/** A pull zone (`GET /pullzone/{id}`, or `GET /pullzone?search=` by name); fails naming what was not found. */
export function getPullZone(args: GetPullZoneArgs, options: LookupOptions = {}): Promise<GetPullZoneResult> {
  return runLookup("getPullZone", args, options, fetchPullZone);
}

/** `getPullZone` calling the API. */
async function fetchPullZone(args: GetPullZoneArgs, options: LookupOptions): Promise<GetPullZoneResult> {
  const client = lookupClient(options);
  const byId = args.id !== undefined && args.id !== null;
  if (byId === (args.name !== undefined && args.name !== null)) throw new Error("getPullZone: give exactly one of id and name");
  let zone: PullZone | undefined;
  if (byId) {
    if (!/^\d+$/.test(String(args.id))) throw new Error(`getPullZone: id must be a positive integer (got ${JSON.stringify(args.id)})`);
    zone = await client.pullZones.getPullZone(Number(args.id));
  } else {
    zone = await client.pullZones.findPullZoneByName(String(args.name));
    if (!zone) throw new Error(`getPullZone: no pull zone named ${JSON.stringify(args.name)} in this account`);
  }
  const system = zone.Hostnames.filter((h) => h.IsSystemHostname);
  return {
    pullZoneId: zone.Id,
    name: zone.Name,
    cdnHostname: `${zone.Name}.${zone.CnameDomain || "b-cdn.net"}`,
    originUrl: zone.OriginUrl,
    storageZoneId: zone.StorageZoneId ? zone.StorageZoneId : undefined,
    scriptId: zone.EdgeScriptId ? zone.EdgeScriptId : undefined,
    enabled: zone.Enabled,
    suspended: zone.Suspended,
    hostnames: [...system, ...zone.Hostnames.filter((h) => !h.IsSystemHostname)].map((h) => h.Value.toLowerCase()),
    zone,
  };
}

/** The arguments of `getPullZoneOutput`, each of which may be an Output. */
export type GetPullZoneOutputArgs = LookupOutputArgs<GetPullZoneArgs>;

export function getPullZoneOutput(args: pulumi.Input<GetPullZoneOutputArgs>, options: LookupOptions = {}): pulumi.Output<GetPullZoneResult> {
  return pulumi.output(args).apply((a) => getPullZone(a as GetPullZoneArgs, options));
}
