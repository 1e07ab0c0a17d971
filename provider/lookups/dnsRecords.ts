import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../http/errors";
import { DNS_MONITOR_TYPES, DNS_RECORD_TYPES, DNS_SMART_ROUTING_TYPES, type DnsRecordTypeName } from "../schemas/dnsEnums";
import type { DnsRecord } from "../types.generated";
import { DNS_RECORD_TYPE_NAMES, nameOf, recordTypeName } from "../resources/dnsRecordTypes";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/**
 * Which record `getDnsRecord` finds, like Terraform's `bunnynet_dns_record` data source
 * (BunnyWay/terraform-provider-bunnynet internal/provider/datasource_dns_record.go, Read: the zone's records, matched
 * by type and name, and by id when given): a record of a zone by its id, or by its type and name. Where Terraform takes
 * the first of several records of the same type and name (round-robin A records, several TXT), this refuses the
 * ambiguity and names the ids to choose from.
 */
export interface GetDnsRecordArgs {
  /** The DNS zone's id. */
  dnsZoneId: number | string;
  /** The record's id; alone, it finds the record whatever its type and name. */
  recordId?: number | string;
  /** The record type by name (any case) or number, with `name`. */
  type?: DnsRecordTypeName | number;
  /** The name relative to the zone ('' or '@' for the apex), with `type`. */
  name?: string;
}

/** A DNS record as `getDnsRecord` answers it. */
export interface GetDnsRecordResult {
  /** The zone's id. */
  dnsZoneId: number;
  /** The record's id (a `DnsRecord`'s `recordId`). */
  recordId: number;
  /** The record type by name. */
  type: DnsRecordTypeName;
  /** The name relative to the zone ('' for the apex). */
  name: string;
  /** The record's value. A PullZone or Script record's target is its linked id: its value is only a label (bunny.net's Terraform provider sets a PullZone record's to the pull zone's name). */
  value: string;
  /** Time to live, in seconds. */
  ttl: number;
  /** Whether the record is answered. */
  enabled: boolean;
  /** Weight (SRV, and among records of one name). */
  weight: number;
  /** Priority (MX, SRV, SVCB, HTTPS). */
  priority: number;
  /** Port (SRV). */
  port: number;
  /** Flags (CAA). */
  flags: number;
  /** Tag (CAA). */
  tag: string;
  /** Whether the record goes through a pull zone (accelerated). */
  accelerated: boolean;
  /** The pull zone an accelerated record goes through (none: undefined). */
  acceleratedPullZoneId: number | undefined;
  /** What a PullZone or Script record links to, as the API names it. */
  linkName: string;
  /** The health monitor by name (`None`, `Ping`, `Http`, `Monitor`). */
  monitorType: string;
  /** The smart routing by name (`None`, `Latency`, `Geolocation`). */
  smartRoutingType: string;
  /** The latency zone of latency routing ('' for none). */
  latencyZone: string;
  /** Latitude of geolocation routing. */
  geolocationLatitude: number;
  /** Longitude of geolocation routing. */
  geolocationLongitude: number;
  /** The record's comment. */
  comment: string;
}

/** The arguments of `getDnsRecordOutput`, each of which may be an Output. */
export type GetDnsRecordOutputArgs = LookupOutputArgs<GetDnsRecordArgs>;

/**
 * A record of a DNS zone (`GET /dnszone/{id}`, whose `Records` the record is read from: core-api-v1.0.0.json
 * DnsZonePublic_Index2). Fails naming what was not found, or the ids when several records match.
 */
export function getDnsRecord(args: GetDnsRecordArgs, options: LookupOptions = {}): Promise<GetDnsRecordResult> {
  return runLookup("getDnsRecord", args, options, fetchDnsRecord);
}

/** The arguments checked, each naming the field, before any call. */
function checkedArgs(args: GetDnsRecordArgs): { zoneId: number; recordId?: number; type?: DnsRecordTypeName; name?: string } {
  const positive = (field: string, value: unknown): number => {
    const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) throw new Error(`getDnsRecord: ${field} must be a positive integer, got ${JSON.stringify(value)}`);
    return n;
  };
  const zoneId = positive("dnsZoneId", args?.dnsZoneId);
  const recordId = args.recordId === undefined || args.recordId === null ? undefined : positive("recordId", args.recordId);
  const hasType = args.type !== undefined && args.type !== null;
  const hasName = args.name !== undefined && args.name !== null;
  if (hasType !== hasName) throw new Error(`getDnsRecord: give type and name together (got only ${hasType ? "type" : "name"})`);
  if (recordId === undefined && !hasType) throw new Error("getDnsRecord: give recordId, or type and name");
  if (!hasType) return { zoneId, recordId };
  const type = recordTypeName(args.type);
  if (type === undefined) throw new Error(`getDnsRecord: type must be one of ${DNS_RECORD_TYPE_NAMES.join(", ")} (or its number 0..15), got ${JSON.stringify(args.type)}`);
  if (typeof args.name !== "string") throw new Error(`getDnsRecord: name must be a string, got ${JSON.stringify(args.name)}`);
  return { zoneId, recordId, type, name: relativeName(args.name) };
}

/** A name as records are compared: '@' is the apex (''), without case or a trailing dot. */
function relativeName(name: string): string {
  const n = name.trim().toLowerCase().replace(/\.$/, "");
  return n === "@" ? "" : n;
}

/** `getDnsRecord` calling the API. */
async function fetchDnsRecord(args: GetDnsRecordArgs, options: LookupOptions): Promise<GetDnsRecordResult> {
  const wanted = checkedArgs(args);
  const zone = await lookupClient(options)
    .dns.getZone(wanted.zoneId)
    .catch((e: unknown) => {
      if (e instanceof NotFoundError) throw new Error(`getDnsRecord: no DNS zone with id ${wanted.zoneId} in this account`);
      throw e;
    });
  const matches = zone.Records.filter(
    (r) =>
      (wanted.recordId === undefined || r.Id === wanted.recordId) &&
      (wanted.type === undefined || (r.Type === DNS_RECORD_TYPES[wanted.type] && relativeName(r.Name) === wanted.name)),
  );
  const what = [wanted.recordId !== undefined ? `id ${wanted.recordId}` : "", wanted.type !== undefined ? `${wanted.type} ${JSON.stringify(wanted.name)}` : ""].filter((s) => s !== "").join(", ");
  if (matches.length === 0) throw new Error(`getDnsRecord: zone ${zone.Id} (${zone.Domain}) has no record ${what}`);
  if (matches.length > 1) {
    throw new Error(`getDnsRecord: zone ${zone.Id} (${zone.Domain}) has ${matches.length} records ${what} (ids ${matches.map((r) => r.Id).join(", ")}): give recordId to choose one`);
  }
  return resultOf(zone.Id, matches[0]);
}


function resultOf(dnsZoneId: number, r: DnsRecord): GetDnsRecordResult {
  return {
    dnsZoneId,
    recordId: r.Id,
    type: recordTypeName(r.Type) ?? (String(r.Type) as DnsRecordTypeName),
    name: r.Name,
    value: r.Value,
    ttl: r.Ttl,
    enabled: !r.Disabled,
    weight: r.Weight,
    priority: r.Priority,
    port: r.Port,
    flags: r.Flags,
    tag: r.Tag,
    accelerated: r.Accelerated,
    acceleratedPullZoneId: r.AcceleratedPullZoneId > 0 ? r.AcceleratedPullZoneId : undefined,
    linkName: r.LinkName,
    monitorType: nameOf(DNS_MONITOR_TYPES, r.MonitorType),
    smartRoutingType: nameOf(DNS_SMART_ROUTING_TYPES, r.SmartRoutingType),
    latencyZone: r.LatencyZone,
    geolocationLatitude: r.GeolocationLatitude,
    geolocationLongitude: r.GeolocationLongitude,
    comment: r.Comment,
  };
}

export function getDnsRecordOutput(args: pulumi.Input<GetDnsRecordOutputArgs>, options: LookupOptions = {}): pulumi.Output<GetDnsRecordResult> {
  return pulumi.output(args).apply((a) => getDnsRecord(a as GetDnsRecordArgs, options));
}
