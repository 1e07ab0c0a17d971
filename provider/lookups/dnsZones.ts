import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../http/errors";
import type { DnsZone } from "../types.generated";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/** Which zone `getDnsZone` finds: by id, or by domain (exactly, without case or a trailing dot). */
export type GetDnsZoneArgs = { dnsZoneId: number | string; domain?: undefined } | { domain: string; dnsZoneId?: undefined };

/** A DNS zone as `getDnsZone` answers it. */
export interface GetDnsZoneResult {
  dnsZoneId: number;
  domain: string;
  /** The nameservers the domain must be delegated to. */
  nameservers: string[];
  customNameservers: boolean;
  nameserversDetected: boolean;
  dnssecEnabled: boolean;
  loggingEnabled: boolean;
  /** How many records the zone has. */
  recordCount: number;
}

/**
 * An existing DNS zone (`GET /dnszone/{id}`, or `GET /dnszone?search=` for a domain: core-api-v1.0.0.json
 * DnsZonePublic_Index2 and DnsZonePublic_Index). A zone that does not exist is an error naming what was looked for.
 */
export function getDnsZone(args: GetDnsZoneArgs, options: LookupOptions = {}): Promise<GetDnsZoneResult> {
  return runLookup("getDnsZone", args, options, fetchDnsZone);
}

/** `getDnsZone` calling the API. */
async function fetchDnsZone(args: GetDnsZoneArgs, options: LookupOptions): Promise<GetDnsZoneResult> {
  const client = lookupClient(options).dns;
  let zone: DnsZone | undefined;
  if (args.dnsZoneId !== undefined && args.dnsZoneId !== "") {
    const id = Number(args.dnsZoneId);
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`getDnsZone: dnsZoneId must be a positive integer, got ${JSON.stringify(args.dnsZoneId)}`);
    zone = await client.getZone(id).catch((e: unknown) => {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    });
  } else if (typeof args.domain === "string" && args.domain.trim() !== "") {
    zone = await client.findZoneByDomain(args.domain);
  } else {
    throw new Error("getDnsZone: give dnsZoneId or domain");
  }
  if (!zone) throw new Error(`getDnsZone: no DNS zone ${args.dnsZoneId !== undefined ? `with id ${args.dnsZoneId}` : `for domain ${args.domain}`} in this account`);
  return {
    dnsZoneId: zone.Id,
    domain: zone.Domain,
    nameservers: [zone.Nameserver1, zone.Nameserver2].filter((n) => n !== ""),
    customNameservers: zone.CustomNameserversEnabled,
    nameserversDetected: zone.NameserversDetected,
    dnssecEnabled: zone.DnsSecEnabled,
    loggingEnabled: zone.LoggingEnabled,
    recordCount: zone.Records.length,
  };
}

/** The arguments of `getDnsZoneOutput`, each of which may be an Output. */
export type GetDnsZoneOutputArgs = LookupOutputArgs<GetDnsZoneArgs>;

export function getDnsZoneOutput(args: pulumi.Input<GetDnsZoneOutputArgs>, options: LookupOptions = {}): pulumi.Output<GetDnsZoneResult> {
  return pulumi.output(args).apply((a) => getDnsZone(a as GetDnsZoneArgs, options));
}
