import { isIPv4, isIPv6 } from "node:net";
import type { EmulatorContext } from "../../context";
import { unknownProperty } from "../../unknownProperties";

/**
 * DNS records: the body check of AddDnsRecordModel / UpdateDnsRecordModel and the stored DnsRecordModel
 * (core-api-v1.0.0.json). Written from the document, not from the provider's schemas (the emulator is an
 * independent oracle). What the document leaves open is decided here and listed in emulator/README.md.
 */

/** DnsRecordTypes: 0 = A … 15 = TLSA. */
export const RECORD_TYPES = ["A", "AAAA", "CNAME", "TXT", "MX", "Redirect", "Flatten", "PullZone", "SRV", "CAA", "PTR", "Script", "NS", "SVCB", "HTTPS", "TLSA"] as const;
export const TYPE = Object.fromEntries(RECORD_TYPES.map((n, i) => [n, i])) as Record<(typeof RECORD_TYPES)[number], number>;

export interface RecordRow {
  Id: number;
  ZoneId: number;
  Type: number;
  Ttl: number;
  Value: string;
  Name: string;
  Weight: number;
  Priority: number;
  Port: number;
  Flags: number;
  Tag: string;
  Accelerated: boolean;
  AcceleratedPullZoneId: number;
  LinkName: string;
  MonitorType: number;
  GeolocationLatitude: number;
  GeolocationLongitude: number;
  EnviromentalVariables: { Name: string | null; Value: string | null }[];
  LatencyZone: string;
  SmartRoutingType: number;
  Disabled: boolean;
  Comment: string;
  AutoSslIssuance: boolean;
}

export interface FieldError {
  field?: string;
  message: string;
}

type Kind = "int32" | "int64" | "byte" | "string" | "bool" | "double" | "envs";
const FIELDS: Record<string, Kind> = {
  Type: "int32",
  Ttl: "int32",
  Value: "string",
  Name: "string",
  Weight: "int32",
  Priority: "int32",
  Flags: "byte",
  Tag: "string",
  Port: "int32",
  PullZoneId: "int64",
  ScriptId: "int64",
  Accelerated: "bool",
  MonitorType: "int32",
  GeolocationLatitude: "double",
  GeolocationLongitude: "double",
  LatencyZone: "string",
  SmartRoutingType: "int32",
  Disabled: "bool",
  EnviromentalVariables: "envs",
  Comment: "string",
  AutoSslIssuance: "bool",
};
const ENUM_MAX: Record<string, number> = { Type: 15, MonitorType: 3, SmartRoutingType: 2 };
const INT32 = 2147483647;

function kindProblem(kind: Kind, v: unknown): string | undefined {
  switch (kind) {
    case "int32":
      return Number.isInteger(v) && Math.abs(v as number) <= INT32 ? undefined : "must be a 32-bit integer";
    case "int64":
      return Number.isSafeInteger(v) ? undefined : "must be an integer";
    case "byte":
      return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255 ? undefined : "must be an integer from 0 to 255";
    case "string":
      return typeof v === "string" ? undefined : "must be a string";
    case "bool":
      return typeof v === "boolean" ? undefined : "must be true or false";
    case "double":
      return typeof v === "number" && Number.isFinite(v) ? undefined : "must be a number";
    case "envs":
      return Array.isArray(v) && v.every((e) => typeof e === "object" && e !== null && Object.keys(e).every((k) => k === "Name" || k === "Value")) ? undefined : "must be a list of {Name, Value}";
  }
}

/** The body's fields, checked one by one (null counts as absent, as the model's nullable fields say). */
export function checkRecordBody(strict: boolean, body: unknown, withId: boolean): { fields: Record<string, unknown> } | { error: FieldError } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: { message: "The request body must be a JSON object" } };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (withId && key === "Id") continue;
    const kind = FIELDS[key];
    if (!kind) {
      const refused = unknownProperty(strict, key);
      if (refused) return { error: refused };
      continue;
    }
    if (value === null || value === undefined) continue;
    const problem = kindProblem(kind, value);
    if (problem) return { error: { field: key, message: `${key} ${problem}` } };
    if (key in ENUM_MAX && ((value as number) < 0 || (value as number) > ENUM_MAX[key])) return { error: { field: key, message: `${key} must be one of 0..${ENUM_MAX[key]}` } };
    fields[key] = value;
  }
  return { fields };
}

/** Rules of the record as it would be after the change: the type's target must be valid. */
export function checkRecord(ctx: EmulatorContext, r: RecordRow, sent: Record<string, unknown>): FieldError | undefined {
  if (r.Ttl < 0) return { field: "Ttl", message: "The TTL must not be negative" };
  if (/\s/.test(r.Name) || r.Name.endsWith(".")) return { field: "Name", message: "The record name is not valid" };
  if (r.GeolocationLatitude < -90 || r.GeolocationLatitude > 90) return { field: "GeolocationLatitude", message: "The latitude must be between -90 and 90" };
  if (r.GeolocationLongitude < -180 || r.GeolocationLongitude > 180) return { field: "GeolocationLongitude", message: "The longitude must be between -180 and 180" };
  for (const f of ["Weight", "Priority", "Port"] as const) if (r[f] < 0 || r[f] > 65535) return { field: f, message: `The ${f} must be between 0 and 65535` };
  switch (r.Type) {
    case TYPE.PullZone: {
      const id = sent.PullZoneId ?? (r.LinkName === "" ? undefined : Number(r.LinkName));
      const zone = id === undefined ? undefined : ctx.store.get<{ Name: string }>("pullzone", id as number);
      if (!zone) return { field: "PullZoneId", message: "The pull zone ID is not valid" };
      // The Value sent is kept: bunny.net's Terraform provider sends the zone's name and its acceptance test reads it
      // back unchanged (resource_dns_record_test.go, TestAccDnsRecordResourcePZ: `value` equals the zone's name).
      // Without one (a new link, or none yet), the emulator answers the zone's name, the value that test sends.
      if (sent.Value === undefined && (r.Value === "" || sent.PullZoneId !== undefined)) r.Value = zone.Name;
      r.LinkName = String(id);
      return undefined;
    }
    case TYPE.Script: {
      const id = sent.ScriptId ?? (r.LinkName === "" ? undefined : Number(r.LinkName));
      const script = id === undefined ? undefined : ctx.store.get<{ Deleted?: boolean }>("edgescript", id as number);
      if (!script || script.Deleted) return { field: "ScriptId", message: "The script ID is not valid" };
      r.LinkName = String(id);
      r.Value = String(id);
      return undefined;
    }
    default:
      r.LinkName = "";
  }
  if (r.Value === "") return { field: "Value", message: "The Value field is required" };
  if (r.Type === TYPE.A && !isIPv4(r.Value)) return { field: "Value", message: "The value must be a valid IPv4 address" };
  if (r.Type === TYPE.AAAA && !isIPv6(r.Value)) return { field: "Value", message: "The value must be a valid IPv6 address" };
  if ([TYPE.CNAME, TYPE.NS, TYPE.PTR, TYPE.Flatten, TYPE.SRV].includes(r.Type) && (r.Value.endsWith(".") || /\s/.test(r.Value))) {
    return { field: "Value", message: "The value must be a hostname without a trailing dot" };
  }
  return undefined;
}

/** A new record with the API's defaults (TTL 300) and `fields` over them. */
export function newRecord(ctx: EmulatorContext, zoneId: number): RecordRow {
  return {
    Id: ctx.store.nextId("dnsrecord", 9001),
    ZoneId: zoneId,
    Type: 0,
    Ttl: 300,
    Value: "",
    Name: "",
    Weight: 0,
    Priority: 0,
    Port: 0,
    Flags: 0,
    Tag: "",
    Accelerated: false,
    AcceleratedPullZoneId: 0,
    LinkName: "",
    MonitorType: 0,
    GeolocationLatitude: 0,
    GeolocationLongitude: 0,
    EnviromentalVariables: [],
    LatencyZone: "",
    SmartRoutingType: 0,
    Disabled: false,
    Comment: "",
    AutoSslIssuance: true,
  };
}

/** Applies the sent fields (PullZoneId and ScriptId are links, not stored fields). */
export function applyFields(r: RecordRow, fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) if (key !== "PullZoneId" && key !== "ScriptId") (r as unknown as Record<string, unknown>)[key] = value;
}

/** DnsRecordModel as answered. */
export function recordModel(r: RecordRow): Record<string, unknown> {
  const { ZoneId: _zone, ...rest } = r;
  return { ...rest, IPGeoLocationInfo: null, GeolocationInfo: null, MonitorStatus: 0, AccelerationStatus: 0 };
}
