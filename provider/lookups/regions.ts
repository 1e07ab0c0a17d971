import * as pulumi from "@pulumi/pulumi";
import type { Region } from "../schemas/containers";
import { type LookupOptions, collect, lookupClient } from "./client";

export interface GetRegionsArgs {
  /** Only regions that can take new deployments. */
  hasCapacity?: boolean;
  /** Only regions with anycast support. */
  anycast?: boolean;
}

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

/** Whether a region passes the filters (an absent flag in the API's answer counts as false). */
export function regionMatches(region: Region, filters: GetRegionsArgs): boolean {
  if (filters.hasCapacity && !region.hasCapacity) return false;
  if (filters.anycast && !region.hasAnycastSupport) return false;
  return true;
}

/** Magic Containers regions (`GET /mc/regions`, every page), filtered. */
export async function getRegions(args: GetRegionsArgs = {}, options: LookupOptions = {}): Promise<GetRegionsResult> {
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
