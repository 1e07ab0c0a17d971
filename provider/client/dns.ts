import { NotFoundError, UnexpectedResponseError } from "../http/errors";
import { numberedPages } from "../http/paging";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import {
  AddDnsRecordRequestSchema,
  AddDnsZoneRequestSchema,
  DnsRecordSchema,
  DnsSecDsRecordSchema,
  DnsZoneListQuerySchema,
  DnsZonePageSchema,
  DnsZoneSchema,
  UpdateDnsRecordRequestSchema,
  UpdateDnsZoneRequestSchema,
} from "../schemas/dns";
import type { AddDnsRecordRequest, DnsRecord, DnsSecDsRecord, DnsZone, DnsZoneListQuery, DnsZonePage, UpdateDnsRecordRequest, UpdateDnsZoneRequest } from "../types.generated";

/** An add's answer: the zone, or no body (as the document gives it). Built once, not per call. */
const ADDED_ZONE = DnsZoneSchema.optional();

/**
 * DNS zones and their records (`/dnszone`). Source: core-api-v1.0.0.json, operations DnsZonePublic_Index,
 * DnsZonePublic_Add, DnsZonePublic_Index2, DnsZonePublic_Update, DnsZonePublic_Delete, DnsZonePublic_AddRecord,
 * DnsZonePublic_UpdateRecord, DnsZonePublic_DeleteRecord, ManageDnsZoneDnsSecEndpoint_EnableDnsSecDnsZone and
 * _DisableDnsSecDnsZone. The document gives `POST /dnszone` a 201 without a body; the real API answers the zone
 * (BunnyWay/terraform-provider-bunnynet internal/api/dnszone.go reads its Id): both are accepted, an empty answer is
 * followed by a look-up by domain. A record is read through its zone (`GET /dnszone/{id}` carries `Records`), as the
 * Terraform provider does (internal/api/dnsrecord.go): one cached read serves every record of a zone in a refresh.
 */
export class DnsClient {
  constructor(private readonly http: Transport) {}

  async listZonesPage(query: DnsZoneListQuery = {}): Promise<DnsZonePage> {
    const q = validateRequest(DnsZoneListQuerySchema, query, "GET", "/dnszone");
    const res = await this.http.request({ api: "core", method: "GET", path: "/dnszone", query: q, responseSchema: DnsZonePageSchema });
    return res.body;
  }

  /** Every zone (optionally those whose domain contains `search`), page by page (bounded: see PageGuard). */
  async *listZones(options: { search?: string; perPage?: number } = {}): AsyncGenerator<DnsZone> {
    yield* numberedPages("GET", "/dnszone", this.http.limits, (page) => this.listZonesPage({ page, perPage: options.perPage, search: options.search }));
  }

  /** The zone of exactly that domain (compared without case and trailing dot), or undefined. */
  async findZoneByDomain(domain: string): Promise<DnsZone | undefined> {
    const wanted = normalDomain(domain);
    for await (const zone of this.listZones({ search: wanted })) if (normalDomain(zone.Domain) === wanted) return zone;
    return undefined;
  }

  /** The zone with its records. Cached for the deployment in the provider process (a parent of records). */
  async getZone(zoneId: number): Promise<DnsZone> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("dnszone", zoneId), responseSchema: DnsZoneSchema, cacheable: true });
    return res.body;
  }

  /** Adds a zone. A create: not repeated after a 5xx or timeout. A domain already taken is refused (AlreadyExistsError when the API says so). */
  async addZone(domain: string): Promise<DnsZone> {
    const body = validateRequest(AddDnsZoneRequestSchema, { Domain: domain }, "POST", "/dnszone");
    const res = await this.http.request({ api: "core", method: "POST", path: "/dnszone", json: body, retry: "create", responseSchema: ADDED_ZONE });
    if (res.body) return res.body;
    const found = await this.findZoneByDomain(domain);
    if (!found) throw new UnexpectedResponseError({ method: "POST", path: "/dnszone", status: res.status, serverMessage: `zone ${domain} is missing after the add` });
    return found;
  }

  /** Sets the given settings (absolute values: safe to repeat); answers the zone. */
  async updateZone(zoneId: number, changes: UpdateDnsZoneRequest): Promise<DnsZone> {
    const path = encodePath("dnszone", zoneId);
    const body = validateRequest(UpdateDnsZoneRequestSchema, changes, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent", responseSchema: DnsZoneSchema });
    return res.body;
  }

  /** Deletes the zone and, with it, its records. */
  async deleteZone(zoneId: number): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("dnszone", zoneId) });
  }

  /** Turns DNSSEC on or off; answers the DS record information. */
  async setDnssec(zoneId: number, enabled: boolean): Promise<DnsSecDsRecord> {
    const path = encodePath("dnszone", zoneId, "dnssec");
    const res = await this.http.request({ api: "core", method: enabled ? "POST" : "DELETE", path, retry: "idempotent", responseSchema: DnsSecDsRecordSchema });
    return res.body;
  }

  /** The record of the zone with that id. NotFoundError when the zone or the record is gone (a zone's deletion takes its records). */
  async getRecord(zoneId: number, recordId: number): Promise<DnsRecord> {
    const record = (await this.getZone(zoneId)).Records.find((r) => r.Id === recordId);
    if (!record) throw new NotFoundError({ method: "GET", path: encodePath("dnszone", zoneId), status: 404, subject: `there is no record ${recordId} in DNS zone ${zoneId}` });
    return record;
  }

  /** Adds a record (answer 201 with the record). A create: not repeated after a 5xx or timeout. */
  async addRecord(zoneId: number, record: AddDnsRecordRequest): Promise<DnsRecord> {
    const path = encodePath("dnszone", zoneId, "records");
    const body = validateRequest(AddDnsRecordRequestSchema, record, "PUT", path);
    const res = await this.http.request({ api: "core", method: "PUT", path, json: body, retry: "create", responseSchema: DnsRecordSchema });
    return res.body;
  }

  /** Sets the record's values (answer 204 without a body: safe to repeat); read it back with `getRecord`. */
  async updateRecord(zoneId: number, recordId: number, record: UpdateDnsRecordRequest): Promise<void> {
    const path = encodePath("dnszone", zoneId, "records", recordId);
    const body = validateRequest(UpdateDnsRecordRequestSchema, record, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent" });
  }

  async deleteRecord(zoneId: number, recordId: number): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("dnszone", zoneId, "records", recordId) });
  }
}

/** A domain as zones are compared: lower case, without a trailing dot. */
export function normalDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, "");
}
