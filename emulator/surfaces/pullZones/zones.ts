import type { FastifyInstance, FastifyReply } from "fastify";
import type { EmulatorContext } from "../../context";
import { coreError } from "../../errorShapes";
import { HIDDEN, PULL_ZONE, type PullZoneRecord, createPullZone, zoneById } from "./records";
import { RULE as SHIELD_RULE, ZONE as SHIELD_ZONE } from "../shield";
import { zoneAnswer } from "./hostnames";
import { APP, ENDPOINT } from "../containers/records";
import { STORED_SETTINGS, type StoredSettingType } from "./storedSettings";

/**
 * Pull zones themselves: add, get, list, update, delete. Sources: core-api-v1.0.0.json (PullZonePublic_Add with
 * PullZoneAddModel → 201; _Index; _IndexAll → an array, `search`, `page`, `perPage`, `includeCertificate`;
 * _UpdatePullZone with PullZoneSettingsModel → 200 PullZoneModel; _Delete → 204, 404), PullZoneOriginType;
 * `pullzone.name_taken` (400, Field Name) as quoted by API users; the Terraform provider's issue #14 (deleting a
 * storage zone deletes its pull zones).
 *
 * Where the documents are silent, the emulator decides:
 * - Names are 1..60 letters, digits and hyphens, unique across the service, case-insensitively; a rename is not
 *   possible (PullZoneSettingsModel has no Name).
 * - The origin is one kind: OriginType (or, without it, StorageZoneId > 0 → StorageZone, EdgeScriptId > 0 →
 *   EdgeScript, else OriginUrl). An unknown storage zone or script is 400 naming the field; the ids of the other
 *   kinds are set to 0. A URL origin must be an http(s) URL.
 * - A Magic Containers origin (OriginType 5, `MagicContainersAppId` + `MagicContainersEndpointId`: in PullZoneAddModel,
 *   PullZoneSettingsModel and PullZoneModel; the Terraform provider's resource_pullzone.go sends exactly these two for
 *   `origin.container_app_id` / `container_endpoint_id`) names an app of the account and one of that app's endpoints
 *   (of any type: no source restricts it); either missing or unknown is 400 naming its field
 *   (`pullzone.magic_containers_app_not_found`, `…_endpoint_not_found`: the emulator's keys, no source quotes the
 *   API's). It has no URL (OriginUrl ""), as the zones the API makes for CDN endpoints (../containers/endpointZones.ts).
 *   Another kind clears both ids (null). Without OriginType, a MagicContainersAppId sent makes the kind 5.
 *   A declared zone whose app or endpoint is deleted later keeps its origin (the emulator does not follow it).
 * - Fields absent from an update keep their values; unknown fields are ignored; a field of the wrong type is 400
 *   `validation_error` naming it. DnsOriginPort and DnsOriginScheme are kept but never answered (PullZoneModel has
 *   neither).
 * - Deleting a zone deletes its hostnames, edge rules and optimizer classes (all in its record), and its Shield zone
 *   with that zone's rate-limit rules.
 * - OptimizerClasses (PullZoneSettingsModel) replaces the zone's list; a class name is 1..100 letters, digits, `-`
 *   and `_` (it is used in query strings), unique in the zone case-insensitively; otherwise 400 naming the field.
 */

const NAME = /^[a-zA-Z0-9-]{1,60}$/;

type FieldType = StoredSettingType | "classes";

/** PullZoneSettingsModel's fields the emulator keeps with behaviour, with their types (enums as their number ranges). */
const MODELLED_SETTINGS: Record<string, FieldType> = {
  OriginUrl: "string",
  OriginType: [0, 6],
  StorageZoneId: "int",
  EdgeScriptId: "int",
  MagicContainersAppId: "string",
  MagicContainersEndpointId: "string",
  MiddlewareScriptId: "int",
  OriginHostHeader: "string",
  AddHostHeader: "bool",
  VerifyOriginSSL: "bool",
  FollowRedirects: "bool",
  OriginRetries: "int",
  OriginConnectTimeout: "int",
  OriginResponseTimeout: "int",
  Type: [0, 1],
  EnableGeoZoneUS: "bool",
  EnableGeoZoneEU: "bool",
  EnableGeoZoneASIA: "bool",
  EnableGeoZoneSA: "bool",
  EnableGeoZoneAF: "bool",
  BlockedCountries: "strings",
  BudgetRedirectedCountries: "strings",
  CacheControlMaxAgeOverride: "int",
  CacheControlPublicMaxAgeOverride: "int",
  EnableQueryStringOrdering: "bool",
  IgnoreQueryStrings: "bool",
  CacheErrorResponses: "bool",
  DisableCookies: "bool",
  EnableCacheSlice: "bool",
  UseStaleWhileUpdating: "bool",
  UseStaleWhileOffline: "bool",
  UseBackgroundUpdate: "bool",
  EnableTLS1: "bool",
  EnableTLS1_1: "bool",
  DisableLetsEncrypt: "bool",
  EnableAutoSSL: "bool",
  EnableAccessControlOriginHeader: "bool",
  AccessControlOriginHeaderExtensions: "strings",
  IpFamilyPolicy: [0, 3],
  EnableLogging: "bool",
  LoggingIPAnonymizationEnabled: "bool",
  LogAnonymizationType: [0, 1],
  LoggingSaveToStorage: "bool",
  LoggingStorageZoneId: "int",
  BlockedIps: "strings",
  BlockedReferrers: "strings",
  AllowedReferrers: "strings",
  BlockNoneReferrer: "bool",
  BlockRootPathAccess: "bool",
  BlockPostRequests: "bool",
  ZoneSecurityEnabled: "bool",
  ZoneSecurityIncludeHashRemoteIP: "bool",
  EnableOriginShield: "bool",
  OriginShieldZoneCode: "string",
  MonthlyBandwidthLimit: "int",
  RequestLimit: "int",
  ConnectionLimitPerIPCount: "int",
  LimitRatePerSecond: "number",
  LimitRateAfter: "number",
  BurstSize: "int",
  EnableWebSockets: "bool",
  MaxWebSocketConnections: "int",
  PermaCacheStorageZoneId: "int",
  EnableRequestCoalescing: "bool",
  RequestCoalescingTimeout: "int",
  ErrorPageWhitelabel: "bool",
  AddCanonicalHeader: "bool",
  OptimizerClasses: "classes",
};

/** Every setting the emulator keeps and answers: those it models, and those it only stores (storedSettings.ts). */
const SETTINGS: Record<string, FieldType> = { ...MODELLED_SETTINGS, ...Object.fromEntries(Object.entries(STORED_SETTINGS).map(([name, s]) => [name, s.type])) };

/** Accepted, kept, never answered (in PullZoneSettingsModel, not in PullZoneModel). */
const WRITE_ONLY: Record<string, FieldType> = { DnsOriginPort: "int", DnsOriginScheme: "string", CacheControlBrowserMaxAgeOverride: "int" };

/**
 * Each setting by its name in lower case: the API binds a body's names case-insensitively, as ASP.NET does (the
 * settings model's EnableWebpVary is the zone model's EnableWebPVary; Terraform sends ZoneSecurityIncludeHashRemoteIp
 * for ZoneSecurityIncludeHashRemoteIP, internal/api/pullzone.go), and the emulator answers the zone model's spelling.
 */
const BY_LOWER_CASE = new Map([...Object.keys(SETTINGS), ...Object.keys(WRITE_ONLY)].map((name) => [name.toLowerCase(), name]));

const ORIGIN = { url: 0, storageZone: 2, edgeScript: 4, container: 5 } as const;

/** The container origin's refusal, if its app or endpoint is missing or not the account's. */
function containerOriginRefusal(ctx: EmulatorContext, zone: PullZoneRecord): Refusal | undefined {
  const appId = zone.MagicContainersAppId;
  const endpointId = zone.MagicContainersEndpointId;
  if (typeof appId !== "string" || appId === "") return { key: "validation_error", field: "MagicContainersAppId", message: "The MagicContainersAppId field is required for a Magic Containers origin" };
  if (typeof endpointId !== "string" || endpointId === "") return { key: "validation_error", field: "MagicContainersEndpointId", message: "The MagicContainersEndpointId field is required for a Magic Containers origin" };
  if (!ctx.store.get(APP, appId)) return { key: "pullzone.magic_containers_app_not_found", field: "MagicContainersAppId", message: "The Magic Containers application does not exist" };
  if (!ctx.store.list<{ id: string }>(ENDPOINT, appId).some((e) => e.id === endpointId)) {
    return { key: "pullzone.magic_containers_endpoint_not_found", field: "MagicContainersEndpointId", message: "The endpoint is not one of the application's" };
  }
  return undefined;
}


/** One OptimizerClassModel: a name of letters, digits, `-` and `_` (it goes in query strings), and string properties. */
function isOptimizerClass(v: unknown): v is { Name: string } {
  if (!isObject(v) || typeof v.Name !== "string" || !/^[A-Za-z0-9_-]{1,100}$/.test(v.Name)) return false;
  return v.Properties === undefined || v.Properties === null || (isObject(v.Properties) && Object.values(v.Properties).every((p) => typeof p === "string"));
}

function fits(type: FieldType, v: unknown): boolean {
  if (Array.isArray(type)) return Number.isInteger(v) && (v as number) >= type[0] && (v as number) <= type[1];
  if (type === "bool") return typeof v === "boolean";
  if (type === "int") return Number.isInteger(v);
  if (type === "number") return typeof v === "number" && Number.isFinite(v);
  if (type === "string") return typeof v === "string";
  if (type === "objects") return Array.isArray(v) && v.every(isObject);
  if (type === "classes") return Array.isArray(v) && v.every(isOptimizerClass) && new Set(v.map((c) => c.Name.toLowerCase())).size === v.length;
  return Array.isArray(v) && v.every((s) => typeof s === "string");
}

interface Refusal {
  key: string;
  field: string;
  message: string;
}

/** The settings of a body (known fields only, nulls skipped), or the first refusal. */
function settingsOf(body: Record<string, unknown>): { fields: Record<string, unknown>; hidden: Record<string, unknown> } | Refusal {
  const fields: Record<string, unknown> = {};
  const hidden: Record<string, unknown> = {};
  for (const [sent, value] of Object.entries(body)) {
    const key = BY_LOWER_CASE.get(sent.toLowerCase()) ?? sent;
    const type = SETTINGS[key] ?? WRITE_ONLY[key];
    if (!type || value === null || value === undefined) continue;
    if (!fits(type, value)) return { key: "validation_error", field: key, message: `The ${key} field has an invalid value` };
    (SETTINGS[key] ? fields : hidden)[key] = value;
  }
  return { fields, hidden };
}

/** Applies the origin rules (one kind; the linked object exists) to the zone as it will be, or the refusal. */
function settleOrigin(ctx: EmulatorContext, zone: PullZoneRecord, sent: Record<string, unknown>): Refusal | undefined {
  const kind =
    (sent.OriginType as number | undefined) ??
    (Number(sent.StorageZoneId) > 0
      ? ORIGIN.storageZone
      : Number(sent.EdgeScriptId) > 0
        ? ORIGIN.edgeScript
        : sent.MagicContainersAppId
          ? ORIGIN.container
          : sent.OriginUrl !== undefined
            ? ORIGIN.url
            : undefined);
  if (kind === undefined) return undefined;
  zone.OriginType = kind;
  if (kind !== ORIGIN.container && zone.MagicContainersAppId != null) Object.assign(zone, { MagicContainersAppId: null, MagicContainersEndpointId: null });
  if (kind === ORIGIN.container) {
    const refused = containerOriginRefusal(ctx, zone);
    if (refused) return refused;
    Object.assign(zone, { StorageZoneId: 0, EdgeScriptId: 0, OriginUrl: "" });
  } else if (kind === ORIGIN.storageZone) {
    if (!ctx.store.get("storagezone", Number(zone.StorageZoneId))) return { key: "pullzone.storage_zone_not_found", field: "StorageZoneId", message: "The storage zone does not exist" };
    Object.assign(zone, { EdgeScriptId: 0, OriginUrl: "" });
  } else if (kind === ORIGIN.edgeScript) {
    if (!ctx.store.get("edgescript", Number(zone.EdgeScriptId))) return { key: "pullzone.edge_script_not_found", field: "EdgeScriptId", message: "The edge script does not exist" };
    Object.assign(zone, { StorageZoneId: 0, OriginUrl: "" });
  } else if (kind === ORIGIN.url) {
    if (!/^https?:\/\/[^\s/]+/i.test(zone.OriginUrl)) return { key: "pullzone.origin_url_invalid", field: "OriginUrl", message: "The origin URL must be an http or https URL" };
    Object.assign(zone, { StorageZoneId: 0, EdgeScriptId: 0 });
  }
  return undefined;
}

/** Deletes a pull zone with what hangs off it: its hostnames (in the record), its Shield zone and that zone's rules. */
export function deletePullZone(ctx: EmulatorContext, id: number): boolean {
  if (!ctx.store.delete(PULL_ZONE, id)) return false;
  for (const shield of ctx.store.list<{ shieldZoneId: number; pullZoneId: number }>(SHIELD_ZONE).filter((z) => z.pullZoneId === id)) {
    for (const rule of ctx.store.list<{ id: number }>(SHIELD_RULE, shield.shieldZoneId)) ctx.store.delete(SHIELD_RULE, rule.id);
    ctx.store.delete(SHIELD_ZONE, shield.shieldZoneId);
  }
  return true;
}

const refuse = (reply: FastifyReply, r: Refusal) => coreError(reply, 400, r.key, r.field, r.message);

/** Whether a JSON value is an object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `page` ≥ 1 and `perPage` (5..1000) as the document bounds them; the slice of `items` they select. */
function pageOf<T>(items: T[], query: { page?: string; perPage?: string }): T[] {
  const page = Math.max(1, Number(query.page) || 1);
  const perPage = Math.min(1000, Math.max(5, Number(query.perPage) || 1000));
  return items.slice((page - 1) * perPage, page * perPage);
}

export function zoneRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get("/pullzone", async (req) => {
    const query = req.query as { search?: string; page?: string; perPage?: string; includeCertificate?: string };
    const search = query.search?.toLowerCase() ?? "";
    const zones = ctx.store.list<PullZoneRecord>(PULL_ZONE).filter((z) => z.Name.toLowerCase().includes(search));
    return pageOf(zones, query).map((z) => zoneAnswer(z, query.includeCertificate === "true"));
  });

  app.post("/pullzone", async (req, reply) => {
    if (!isObject(req.body)) return coreError(reply, 400, "validation_error", undefined, "The request body must be a JSON object");
    const name = req.body.Name;
    if (typeof name !== "string" || name === "") return coreError(reply, 400, "validation_error", "Name", "The Name field is required");
    if (!NAME.test(name)) return coreError(reply, 400, "pullzone.name_invalid", "Name", "The name may only contain letters, numbers and dashes (at most 60)");
    if (ctx.store.list<PullZoneRecord>(PULL_ZONE).some((z) => z.Name.toLowerCase() === name.toLowerCase())) {
      return coreError(reply, 400, "pullzone.name_taken", "Name", "The pull zone name is already taken");
    }
    const settings = settingsOf(req.body);
    if ("key" in settings) return refuse(reply, settings);
    const draft = { Name: name, Hostnames: [], OriginUrl: "", ...settings.fields } as unknown as PullZoneRecord;
    const refused = settleOrigin(ctx, draft, settings.fields) ?? (draft.OriginType === undefined ? settleOrigin(ctx, draft, { OriginType: ORIGIN.url }) : undefined);
    if (refused) return refuse(reply, refused);
    const { Name: _n, Hostnames: _h, ...fields } = draft;
    const zone = createPullZone(ctx, name, { ...fields, [HIDDEN]: settings.hidden });
    return reply.code(201).send(zoneAnswer(zone, false));
  });

  app.get("/pullzone/:id", async (req, reply) => {
    const zone = zoneById(ctx, (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    return zoneAnswer(zone, (req.query as { includeCertificate?: string }).includeCertificate === "true");
  });

  app.post("/pullzone/:id", async (req, reply) => {
    const zone = zoneById(ctx, (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    if (!isObject(req.body)) return coreError(reply, 400, "validation_error", undefined, "The request body must be a JSON object");
    const settings = settingsOf(req.body);
    if ("key" in settings) return refuse(reply, settings);
    const updated: PullZoneRecord = { ...zone, ...settings.fields, [HIDDEN]: { ...(zone[HIDDEN] as object | undefined), ...settings.hidden } };
    const refused = settleOrigin(ctx, updated, settings.fields);
    if (refused) return refuse(reply, refused);
    ctx.store.put(PULL_ZONE, zone.Id, updated);
    return zoneAnswer(updated, false);
  });

  app.delete("/pullzone/:id", async (req, reply) => {
    const zone = zoneById(ctx, (req.params as { id: string }).id);
    if (!zone || !deletePullZone(ctx, zone.Id)) return coreError(reply, 404);
    return reply.code(204).send();
  });
}


