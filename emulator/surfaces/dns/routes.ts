import type { FastifyReply } from "fastify";
import type { EmulatorContext, EmulatorSurface } from "../../context";
import { coreError } from "../../errorShapes";
import type { Store } from "../../store";
import { RECORD_TYPES, type RecordRow, TYPE, applyFields, checkRecord, checkRecordBody, newRecord, recordModel } from "./records";
import { firstUnknownProperty, unknownProperty } from "../../unknownProperties";

/**
 * DNS zones and their records (`/dnszone`). Source: core-api-v1.0.0.json, operations DnsZonePublic_Index (page,
 * perPage 5..1000, search), DnsZonePublic_Add (DnsZoneAddModel, 201), DnsZonePublic_Index2, DnsZonePublic_Update
 * (UpdateDnsZoneModel, 200 DnsZoneModel), DnsZonePublic_Delete (204), DnsZonePublic_AddRecord (201 DnsRecordModel),
 * DnsZonePublic_UpdateRecord (204), DnsZonePublic_DeleteRecord (204), ManageDnsZoneDnsSecEndpoint_* (200
 * DnsSecDsRecordModel); errors `{ErrorKey, Field, Message}` (ApiErrorData), 404 without a body.
 *
 * Where the document is silent, the emulator decides (listed in emulator/README.md):
 * - `POST /dnszone` answers the new zone (as the real API does: the Terraform provider reads its Id); a domain that is
 *   already a zone is refused with 400 `dnszone.domain_taken` (Field `Domain`).
 * - A new zone has bunny.net's nameservers kiki.bunny.net and coco.bunny.net, SOA email hostmaster@bunny.net,
 *   logging off with IP anonymisation on (OneDigit), ECDSA certificates, DNSSEC off; NameserversDetected stays false.
 * - Custom nameservers need both names; turning them off answers bunny.net's again.
 * - Deleting a zone deletes its records: a record of a deleted zone is 404 on every route.
 * - A PullZone record links an existing pull zone (`LinkName` its id, `Value` as sent, else the zone's name: see
 *   records.ts), a Script record an existing edge script (`LinkName` and `Value` its id); else 400 naming PullZoneId
 *   or ScriptId.
 *
 * Seeded: zone `dnsZoneId` for `dnsZoneDomain` (emulator-dns.example) with an A record at the apex and a CNAME `www`.
 */

export interface ZoneRow {
  Id: number;
  Domain: string;
  DateCreated: string;
  DateModified: string;
  CustomNameserversEnabled: boolean;
  Nameserver1: string;
  Nameserver2: string;
  SoaEmail: string;
  LoggingEnabled: boolean;
  LoggingIPAnonymizationEnabled: boolean;
  LogAnonymizationType: number;
  CertificateKeyType: number;
  DnsSecEnabled: boolean;
}

const ZONE = "dnszone";
const RECORD = "dnsrecord";
const NAMESERVERS = ["kiki.bunny.net", "coco.bunny.net"] as const;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function zoneModel(ctx: EmulatorContext, z: ZoneRow): Record<string, unknown> {
  const records = ctx.store.list<RecordRow>(RECORD, z.Id).map(recordModel);
  const ns = z.CustomNameserversEnabled ? [z.Nameserver1, z.Nameserver2] : NAMESERVERS;
  return {
    ...z,
    Nameserver1: ns[0],
    Nameserver2: ns[1],
    Records: records,
    NameserversDetected: false,
    NameserversNextCheck: z.DateModified,
    LogAnonymizationType: z.LogAnonymizationType,
  };
}

function loadZone(ctx: EmulatorContext, id: string): ZoneRow | undefined {
  return /^\d{1,18}$/.test(id) ? ctx.store.get<ZoneRow>(ZONE, id) : undefined;
}

function saveZone(ctx: EmulatorContext, z: ZoneRow): void {
  z.DateModified = new Date().toISOString();
  ctx.store.put(ZONE, z.Id, z);
}

function invalid(reply: FastifyReply, field: string | undefined, message: string): FastifyReply {
  return coreError(reply, 400, "validation_error", field, message);
}

function createZone(ctx: EmulatorContext, domain: string): ZoneRow {
  const now = new Date().toISOString();
  const zone: ZoneRow = {
    Id: ctx.store.nextId(ZONE, 6001),
    Domain: domain,
    DateCreated: now,
    DateModified: now,
    CustomNameserversEnabled: false,
    Nameserver1: NAMESERVERS[0],
    Nameserver2: NAMESERVERS[1],
    SoaEmail: "hostmaster@bunny.net",
    LoggingEnabled: false,
    LoggingIPAnonymizationEnabled: true,
    LogAnonymizationType: 0,
    CertificateKeyType: 0,
    DnsSecEnabled: false,
  };
  saveZone(ctx, zone);
  return zone;
}

/** Adds a record from a checked body, or answers why not. */
function addRecord(ctx: EmulatorContext, zoneId: number, body: unknown): RecordRow | { field?: string; message: string } {
  const checked = checkRecordBody(ctx.strict, body, false);
  if ("error" in checked) return checked.error;
  if (checked.fields.Type === undefined) return { field: "Type", message: "The Type field is required" };
  const record = newRecord(ctx, zoneId);
  applyFields(record, checked.fields);
  const problem = checkRecord(ctx, record, checked.fields);
  if (problem) return problem;
  ctx.store.put(RECORD, record.Id, record, zoneId);
  return record;
}

const UPDATE_FIELDS: Record<string, "bool" | "string" | "enum1"> = {
  CustomNameserversEnabled: "bool",
  Nameserver1: "string",
  Nameserver2: "string",
  SoaEmail: "string",
  LoggingEnabled: "bool",
  LogAnonymizationType: "enum1",
  CertificateKeyType: "enum1",
  LoggingIPAnonymizationEnabled: "bool",
};

/** Applies UpdateDnsZoneModel (null or absent: unchanged), or answers which field is wrong. */
function updateZone(strict: boolean, z: ZoneRow, body: unknown): { field?: string; message: string } | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { message: "The request body must be a JSON object" };
  const next = { ...z } as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const kind = UPDATE_FIELDS[key];
    if (!kind) {
      const refused = unknownProperty(strict, key);
      if (refused) return refused;
      continue;
    }
    if (value === null || value === undefined) continue;
    if (kind === "bool" && typeof value !== "boolean") return { field: key, message: `${key} must be true or false` };
    if (kind === "string" && typeof value !== "string") return { field: key, message: `${key} must be a string` };
    if (kind === "enum1" && value !== 0 && value !== 1) return { field: key, message: `${key} must be 0 or 1` };
    next[key] = kind === "string" ? (value as string).trim().toLowerCase().replace(/\.$/, "") : value;
  }
  const n = next as unknown as ZoneRow;
  if (n.CustomNameserversEnabled) {
    const sent = body as Record<string, unknown>;
    for (const f of ["Nameserver1", "Nameserver2"] as const) {
      if (!z.CustomNameserversEnabled && sent[f] == null) return { field: f, message: "Custom nameservers need Nameserver1 and Nameserver2" };
      if (!HOSTNAME.test(n[f])) return { field: f, message: `${f} must be a hostname` };
    }
  }
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(n.SoaEmail)) return { field: "SoaEmail", message: "The SOA email is not a valid email address" };
  Object.assign(z, n);
  return undefined;
}

function dsAnswer(z: ZoneRow): Record<string, unknown> {
  const on = z.DnsSecEnabled;
  return {
    Enabled: on,
    DsRecord: on ? `${z.Domain}. 3600 IN DS ${z.Id % 65536} 13 2 ${"ab".repeat(32)}` : null,
    Digest: on ? "ab".repeat(32) : null,
    // The digest type as the API names it, its DS code in brackets: bunny.net's Terraform provider reads exactly
    // "SHA256 (2)" and panics on anything else (internal/api/dnszone.go, hydrateDnsZoneWithDnssec).
    DigestType: on ? "SHA256 (2)" : null,
    Algorithm: on ? 13 : 0,
    PublicKey: on ? Buffer.from(`emulator-dnssec-${z.Id}`).toString("base64") : null,
    KeyTag: on ? z.Id % 65536 : 0,
    Flags: on ? 257 : 0,
    DsConfigured: false,
  };
}

/**
 * Whether a DNS zone of the account holds `hostname` (the zone of the longest matching domain), and its records at
 * exactly that name that route traffic (CNAME, PullZone, A, AAAA; disabled records do not answer). For the certificate
 * issuance of pull zone hostnames: "points at pull zone X" is a CNAME to its b-cdn.net hostname, a PullZone record
 * linking X, or an A/AAAA to its addresses.
 */
export function dnsTargetsOf(store: Store, hostname: string): { zoneFound: boolean; records: Array<{ type: string; value: string; pullZoneId?: number }> } {
  const host = hostname.trim().toLowerCase().replace(/\.$/, "");
  const zone = store
    .list<ZoneRow>(ZONE)
    .filter((z) => host === z.Domain || host.endsWith(`.${z.Domain}`))
    .sort((a, b) => b.Domain.length - a.Domain.length)[0];
  if (!zone) return { zoneFound: false, records: [] };
  const name = host === zone.Domain ? "" : host.slice(0, -(zone.Domain.length + 1));
  const routing = new Set([TYPE.CNAME, TYPE.PullZone, TYPE.A, TYPE.AAAA]);
  const records = store
    .list<RecordRow>(RECORD, zone.Id)
    .filter((r) => !r.Disabled && routing.has(r.Type) && r.Name.toLowerCase() === name)
    .map((r) => ({ type: RECORD_TYPES[r.Type], value: r.Value, ...(r.Type === TYPE.PullZone ? { pullZoneId: Number(r.LinkName) } : {}) }));
  return { zoneFound: true, records };
}

export const dnsSurface: EmulatorSurface = {
  name: "dns",
  seed(ctx) {
    const zone = createZone(ctx, "emulator-dns.example");
    addRecord(ctx, zone.Id, { Type: TYPE.A, Name: "", Value: "192.0.2.10", Ttl: 300 });
    addRecord(ctx, zone.Id, { Type: TYPE.CNAME, Name: "www", Value: "emulator-dns.example", Ttl: 300 });
    return { dnsZoneId: zone.Id, dnsZoneDomain: zone.Domain };
  },
  routes(app, ctx) {
    type ZoneParams = { id: string };
    type RecordParams = { zoneId: string; id: string };

    app.get("/dnszone", async (req, reply) => {
      const q = req.query as Record<string, string | undefined>;
      const page = q.page === undefined ? 1 : Number(q.page);
      const perPage = q.perPage === undefined ? 1000 : Number(q.perPage);
      if (!Number.isInteger(page) || page < 1) return invalid(reply, "page", "page must be 1 or more");
      if (!Number.isInteger(perPage) || perPage < 5 || perPage > 1000) return invalid(reply, "perPage", "perPage must be between 5 and 1000");
      const search = (q.search ?? "").toLowerCase();
      const all = ctx.store.list<ZoneRow>(ZONE).filter((z) => z.Domain.includes(search));
      const items = all.slice((page - 1) * perPage, page * perPage).map((z) => zoneModel(ctx, z));
      return { Items: items, CurrentPage: page, TotalItems: all.length, HasMoreItems: page * perPage < all.length };
    });

    app.post("/dnszone", async (req, reply) => {
      const body = req.body as Record<string, unknown> | null;
      if (typeof body !== "object" || body === null || Array.isArray(body)) return invalid(reply, undefined, "The request body must be a JSON object");
      const extra = firstUnknownProperty(ctx.strict, body, ["Domain", "Records"]);
      if (extra) return invalid(reply, extra.field, extra.message);
      if (typeof body.Domain !== "string" || body.Domain.length === 0) return invalid(reply, "Domain", "The Domain field is required");
      const domain = body.Domain.trim().toLowerCase().replace(/\.$/, "");
      if (!DOMAIN.test(domain)) return invalid(reply, "Domain", "The domain name is not valid");
      if (ctx.store.list<ZoneRow>(ZONE).some((z) => z.Domain === domain)) return coreError(reply, 400, "dnszone.domain_taken", "Domain", `The domain ${domain} is already taken`);
      if (body.Records != null && !Array.isArray(body.Records)) return invalid(reply, "Records", "Records must be a list");
      const zone = createZone(ctx, domain);
      for (const r of (body.Records as unknown[] | null) ?? []) {
        const added = addRecord(ctx, zone.Id, r);
        if (!("Id" in added)) {
          for (const made of ctx.store.list<RecordRow>(RECORD, zone.Id)) ctx.store.delete(RECORD, made.Id);
          ctx.store.delete(ZONE, zone.Id);
          return invalid(reply, added.field === undefined ? "Records" : `Records.${added.field}`, added.message);
        }
      }
      return reply.code(201).send(zoneModel(ctx, zone));
    });

    app.get("/dnszone/:id", async (req, reply) => {
      const zone = loadZone(ctx, (req.params as ZoneParams).id);
      return zone ? zoneModel(ctx, zone) : coreError(reply, 404);
    });

    app.post("/dnszone/:id", async (req, reply) => {
      const zone = loadZone(ctx, (req.params as ZoneParams).id);
      if (!zone) return coreError(reply, 404);
      const problem = updateZone(ctx.strict, zone, req.body);
      if (problem) return invalid(reply, problem.field, problem.message);
      saveZone(ctx, zone);
      return zoneModel(ctx, zone);
    });

    app.delete("/dnszone/:id", async (req, reply) => {
      const zone = loadZone(ctx, (req.params as ZoneParams).id);
      if (!zone) return coreError(reply, 404);
      for (const r of ctx.store.list<RecordRow>(RECORD, zone.Id)) ctx.store.delete(RECORD, r.Id);
      ctx.store.delete(ZONE, zone.Id);
      return reply.code(204).send();
    });

    for (const method of ["post", "delete"] as const) {
      app[method]("/dnszone/:id/dnssec", async (req, reply) => {
        const zone = loadZone(ctx, (req.params as ZoneParams).id);
        if (!zone) return coreError(reply, 404);
        zone.DnsSecEnabled = method === "post";
        saveZone(ctx, zone);
        return dsAnswer(zone);
      });
    }

    app.put("/dnszone/:zoneId/records", async (req, reply) => {
      const zone = loadZone(ctx, (req.params as RecordParams).zoneId);
      if (!zone) return coreError(reply, 404);
      const added = addRecord(ctx, zone.Id, req.body);
      if (!("Id" in added)) return invalid(reply, added.field, added.message);
      saveZone(ctx, zone);
      return reply.code(201).send(recordModel(added));
    });

    app.post("/dnszone/:zoneId/records/:id", async (req, reply) => {
      const { zoneId, id } = req.params as RecordParams;
      const zone = loadZone(ctx, zoneId);
      const record = zone && /^\d{1,18}$/.test(id) ? ctx.store.get<RecordRow>(RECORD, id) : undefined;
      if (!zone || !record || record.ZoneId !== zone.Id) return coreError(reply, 404);
      const checked = checkRecordBody(ctx.strict, req.body, true);
      if ("error" in checked) return invalid(reply, checked.error.field, checked.error.message);
      applyFields(record, checked.fields);
      const problem = checkRecord(ctx, record, checked.fields);
      if (problem) return invalid(reply, problem.field, problem.message);
      ctx.store.put(RECORD, record.Id, record, zone.Id);
      saveZone(ctx, zone);
      return reply.code(204).send();
    });

    app.delete("/dnszone/:zoneId/records/:id", async (req, reply) => {
      const { zoneId, id } = req.params as RecordParams;
      const zone = loadZone(ctx, zoneId);
      const record = zone && /^\d{1,18}$/.test(id) ? ctx.store.get<RecordRow>(RECORD, id) : undefined;
      if (!zone || !record || record.ZoneId !== zone.Id) return coreError(reply, 404);
      ctx.store.delete(RECORD, record.Id);
      saveZone(ctx, zone);
      return reply.code(204).send();
    });
  },
};
