import * as pulumi from "@pulumi/pulumi";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/**
 * The CDN's regions (core-api-v1.0.0.json RegionPublic_Index `GET /region`: RegionModel), the counterpart of
 * Terraform's `bunnynet_region` data source (internal/provider/datasource_region.go: one region by `region_code`).
 * Not to be confused with `getRegions`, the Magic Containers regions.
 */

/** Filters, all optional and combined: with none, every region. */
export interface GetCdnRegionsArgs {
  /** One region by its code (e.g. "DE", "NY"; any case). */
  regionCode?: string;
  /** Regions of one continent (e.g. "EU", "NA"; any case). */
  continentCode?: string;
  /** Only regions that DNS latency routing can use. */
  allowLatencyRouting?: boolean;
}

export interface CdnRegionInfo {
  id: number;
  name: string;
  regionCode: string;
  continentCode: string;
  countryCode: string;
  /** Traffic price per gigabyte (USD). */
  pricePerGigabyte: number;
  latitude: number;
  longitude: number;
  /** Whether DNS latency routing can use the region. */
  allowLatencyRouting: boolean;
}

export interface GetCdnRegionsResult {
  regions: CdnRegionInfo[];
  /** The codes of `regions`, in the same order. */
  regionCodes: string[];
}

/** The CDN's regions (`GET /region`), filtered. */
export function getCdnRegions(args: GetCdnRegionsArgs = {}, options: LookupOptions = {}): Promise<GetCdnRegionsResult> {
  return runLookup("getCdnRegions", args, options, fetchCdnRegions);
}

/** `getCdnRegions` calling the API. */
async function fetchCdnRegions(args: GetCdnRegionsArgs, options: LookupOptions): Promise<GetCdnRegionsResult> {
  const same = (a: string, b: string | undefined) => b === undefined || a.toLowerCase() === b.toLowerCase();
  const regions = (await lookupClient(options).pullZones.listCdnRegions())
    .filter((r) => same(r.RegionCode, args.regionCode) && same(r.ContinentCode, args.continentCode) && (args.allowLatencyRouting === undefined || r.AllowLatencyRouting === args.allowLatencyRouting))
    .map((r) => ({
      id: r.Id,
      name: r.Name,
      regionCode: r.RegionCode,
      continentCode: r.ContinentCode,
      countryCode: r.CountryCode,
      pricePerGigabyte: r.PricePerGigabyte,
      latitude: r.Latitude,
      longitude: r.Longitude,
      allowLatencyRouting: r.AllowLatencyRouting,
    }));
  return { regions, regionCodes: regions.map((r) => r.regionCode) };
}

/** The filters as the Output form takes them: each may be an Output. */
export type GetCdnRegionsOutputArgs = LookupOutputArgs<GetCdnRegionsArgs>;

export function getCdnRegionsOutput(args: pulumi.Input<GetCdnRegionsOutputArgs> = {}, options: LookupOptions = {}): pulumi.Output<GetCdnRegionsResult> {
  return pulumi.output(args).apply((a) => getCdnRegions(a as GetCdnRegionsArgs, options));
}
