import * as pulumi from "@pulumi/pulumi";
import { type RegionFilters, regionMatches } from "../client/containers";
import { type LookupOptions, collect, lookupClient, runLookup } from "./client";

/** The filters of `getRegions` (the same as `bunnynet regions --has-capacity --anycast`). */
export type GetRegionsArgs = RegionFilters;
export { regionMatches };

export interface RegionInfo {
  id: string;
  name?: string;
  group?: string;
  hasAnycastSupport: boolean;
  hasCapacity: boolean;
}

export interface GetRegionsResult {
  regions: RegionInfo[];
  /** The ids of `regions`, in the same order. */
  ids: string[];
}

/** Magic Containers regions (`GET /mc/regions`, every page), filtered. */
export function getRegions(args: GetRegionsArgs = {}, options: LookupOptions = {}): Promise<GetRegionsResult> {
  return runLookup("getRegions", args, options, fetchRegions);
}

/** `getRegions` calling the API. */
async function fetchRegions(args: GetRegionsArgs, options: LookupOptions): Promise<GetRegionsResult> {
  const regions = await collect(lookupClient(options).containers.listRegions({ limit: 1000 }), (r) => regionMatches(r, args));
  const infos = regions.map((r) => ({
    id: r.id,
    name: r.name ?? undefined,
    group: r.group ?? undefined,
    hasAnycastSupport: r.hasAnycastSupport ?? false,
    hasCapacity: r.hasCapacity ?? false,
  }));
  return { regions: infos, ids: infos.map((r) => r.id) };
}

export function getRegionsOutput(args: pulumi.Input<GetRegionsArgs> = {}, options: LookupOptions = {}): pulumi.Output<GetRegionsResult> {
  return pulumi.output(args).apply((a) => getRegions(a, options));
}
