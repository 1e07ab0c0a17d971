import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { request } from "undici";
import { z } from "zod";
import { BunnyClient } from "bunnynet-pulumi/dist/client/index.js";
import { ForbiddenError } from "bunnynet-pulumi/dist/http/errors.js";
import type { AddApplicationRequest as bunnynet_AddApplicationRequest } from "bunnynet-pulumi/dist/schemas/containers.js";
import { CloseAccountResponseSchema } from "bunnynet-pulumi/dist/schemas/account.js";
import { ApiKeyPageSchema } from "bunnynet-pulumi/dist/schemas/apiKeys.js";
import {
  AddApplicationResponseSchema,
  AppPageSchema,
  ApplicationSchema,
  ContainerRegistryListSchema,
  ContainerRegistrySchema,
  DeleteVolumeInstanceResultSchema,
  DetachVolumeResultSchema,
  EndpointPageSchema,
  RegionPageSchema,
  RemoveContainerRegistryResultSchema,
  SaveContainerRegistryResultSchema,
  VolumeListSchema,
} from "bunnynet-pulumi/dist/schemas/containers.js";
import { DnsRecordSchema, DnsSecDsRecordSchema, DnsZonePageSchema, DnsZoneSchema } from "bunnynet-pulumi/dist/schemas/dns.js";
import { EdgeScriptSchema, VariableSchema } from "bunnynet-pulumi/dist/schemas/edgeScripts.js";
import { EdgeScriptWithKeySchema, ScriptCodeSchema, ScriptListSchema, ScriptReleaseListSchema, ScriptReleaseSchema } from "bunnynet-pulumi/dist/schemas/edgeScriptCode.js";
import { PullZoneListSchema, PullZoneSchema } from "bunnynet-pulumi/dist/schemas/pullZones.js";
import { CdnRegionListSchema } from "bunnynet-pulumi/dist/schemas/pullZoneEdge.js";
import { StorageZoneListSchema, StorageZoneSchema } from "bunnynet-pulumi/dist/schemas/storageZones.js";
import { GenericRequestResponseSchema, RateLimitPageSchema, RateLimitRuleSchema, ShieldZoneSchema } from "bunnynet-pulumi/dist/schemas/shield.js";
import {
  CaptionStatusSchema,
  CollectionPageSchema,
  CollectionSchema,
  FetchVideoAnswerSchema,
  StreamStatusSchema,
  VideoLibrarySchema,
  VideoPageSchema,
  VideoSchema,
} from "bunnynet-pulumi/dist/schemas/stream.js";
import { BotDetectionSchema, ShieldZoneDetailsSchema, ShieldZoneWriteAnswerSchema, UploadScanningSchema } from "bunnynet-pulumi/dist/schemas/shieldZones.js";
import { WafRulePageSchema, WafRuleSchema } from "bunnynet-pulumi/dist/schemas/shield.js";
import { AccessListsSchema, CustomAccessListSchema, UpdateAccessListConfigurationRequestSchema } from "bunnynet-pulumi/dist/schemas/shieldAccessLists.js";
import { VideoLanguageListSchema, VideoLibraryDetailsSchema } from "bunnynet-pulumi/dist/schemas/videoLibraries.js";
import { putPullZone } from "../support/pullZoneRecords";
import { resolveSettings } from "bunnynet-pulumi/dist/settings.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { tinyMp4 } from "../support/videoFile";

/**
 * Conformance with bunny.net's published OpenAPI documents (issue 9): the typed client drives every operation the
 * package uses through a recording proxy in front of the emulator, and every exchange is checked against the
 * documents with Ajv (a JSON-Schema validator; the documents' `nullable` is Ajv's own OpenAPI keyword):
 * - requests: the operation exists; every query parameter is one the operation documents, with a value that fits
 *   its schema; the body's media type is one it documents, and a JSON body fits its schema;
 * - answers: the status is one the operation documents, and a JSON body fits that status's schema.
 * The emulator and the client were written from one reading of the API; this checks both against the source.
 *
 * The documents are reference material beside the repository (`../shared/openapi`), never part of it: where that
 * folder is absent the check is skipped, and says so.
 *
 * Where the documents contradict themselves or the field, the emulator's choice is listed in emulator/README.md
 * ("Where the documents contradict themselves"), one entry per `CONTRADICTIONS` key below: a departure of that kind
 * is counted as that contradiction, not as a violation, and the test requires each listed contradiction to be met in
 * the run (so the list names only what the emulator really does). Everything else must conform. Besides those:
 * - Error statuses the documents do not list (e.g. Shield's 404 on an unknown rule, Core's 400 on a hostname): the
 *   documents list few errors, and BUNNY-API.md records these from the field. Their bodies are not checked.
 * - The logging API (`/v2/pullzones/{id}/logs`, `/{MM-dd-yy}/{id}.log`) has no document in `../shared/openapi`;
 *   its checks are the tests of tests/client/logging*.test.ts, written from its documentation pages.
 * - Stream's resumable uploads (`POST /tusupload`, `HEAD`/`PATCH /tusupload/{uploadId}`, the tus protocol) are in no
 *   document either: their checks are tests/pulumi/streamVideoTus.test.ts, written from docs.bunny.net's "TUS Resumable
 *   Uploads" page and the tus 1.0.0 protocol; the client's direct `PUT` upload is checked here.
 * - `nullable: true` beside `$ref`/`allOf` or without `type` (OpenAPI 3.0 ignores it there, Ajv refuses it): read as
 *   the authors meant it, "this or null" (`nullableAsAnyOf`).
 * - A component that is `allOf` closed objects (`additionalProperties: false` in each), like Stream's
 *   StatusModelOfCaptionValidationModel (StatusModel and `{data}`): no object with fields of both parts satisfies it
 *   literally, so it is read as the authors meant it, one closed object with the properties of every part
 *   (`mergeClosedAllOf`).
 */

/** The contradictions emulator/README.md lists, by the key this check counts them under. */
const CONTRADICTIONS = {
  /** Shield's error envelope with 202: not in shield-api-v1.0.0.json (AcceptedResult forbids other properties), answered in the field. */
  shieldEnvelope202: "Shield's error envelope with 202",
  /** Shield's rule GETs document CustomWafRule, whose ruleConfiguration lacks requestCount, counterKeyType, timeframe and blockTime; POST/PATCH answer RateLimitRule with them. */
  shieldRuleReadShape: "Shield's rule GETs answer RateLimitRule, as POST and PATCH do",
  /** A 204 whose document declares a JSON body (PUT /compute/script/{id}/variables): 204 No Content has none. */
  noContent204: "204 without the body the document declares",
  /** `POST /mc/registries` answers 201 (the Terraform provider requires it), the document 200: checked against the 200's body. */
  registryCreated201: "A registry's create answers 201",
  /** "Upload Custom Response Page" documents no request body; the page is sent as the raw HTML (the Terraform provider's call). */
  customPageBody: "A custom response page sent as its HTML",
} as const;

/** Shield's rule reads: the rate-limit fields CustomWafRule's ruleConfiguration leaves out. */
const RATE_LIMIT_FIELDS = new Set(["requestCount", "counterKeyType", "timeframe", "blockTime"]);

/** Rewrites `nullable` where Ajv cannot read it (quirk 5), in place. */
function nullableAsAnyOf(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableAsAnyOf);
  if (typeof node !== "object" || node === null) return;
  const o = node as Json;
  for (const v of Object.values(o)) nullableAsAnyOf(v);
  if (o.nullable === true && o.type === undefined) {
    delete o.nullable;
    const rest = { ...o };
    for (const k of Object.keys(o)) delete o[k];
    o.anyOf = [rest, { type: "null" }];
  }
}

/** Quirk 6: each component that is `allOf` closed objects becomes one closed object with all their properties, in place. */
function mergeClosedAllOf(spec: Json): void {
  const schemas = ((spec.components as Json | undefined)?.schemas ?? {}) as Json;
  const resolve = (s: Json): Json => (typeof s.$ref === "string" ? (schemas[s.$ref.split("/").pop()!] as Json) : s);
  for (const [name, schema] of Object.entries(schemas) as [string, Json][]) {
    const parts = Array.isArray(schema.allOf) ? (schema.allOf as Json[]).map(resolve) : [];
    if (parts.length < 2 || !parts.every((p) => p && p.additionalProperties === false && p.type === "object")) continue;
    const properties = Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Json;
    const required = parts.flatMap((p) => (p.required as string[] | undefined) ?? []);
    schemas[name] = { type: "object", additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
  }
}

const SPEC_DIR = resolve(__dirname, "..", "..", "..", "..", "shared", "openapi");
const SPECS = {
  core: { file: "core-api-v1.0.0.json", prefix: "" },
  edge: { file: "edge-scripting-api-v1.0.0.json", prefix: "" },
  shield: { file: "shield-api-v1.0.0.json", prefix: "" },
  stream: { file: "stream-api-v1.5.23.json", prefix: "" },
  mc: { file: "magic-containers-api-v1.0.0.json", prefix: "/mc" },
} as const;

type Json = Record<string, unknown>;

/** The client's schema for each operation's success answer, by `spec METHOD template`. */
const CLIENT_SCHEMAS: Record<string, z.ZodType> = {
  "core GET /apikey": ApiKeyPageSchema,
  "core GET /pullzone/{id}": PullZoneSchema,
  "core GET /pullzone": PullZoneListSchema,
  "core POST /pullzone": PullZoneSchema,
  "core POST /pullzone/{id}": PullZoneSchema,
  "core GET /region": CdnRegionListSchema,
  "core GET /storagezone": StorageZoneListSchema,
  "core POST /storagezone": StorageZoneSchema,
  "core GET /storagezone/{id}": StorageZoneSchema,
  "core GET /videolibrary/{id}": VideoLibrarySchema,
  "core POST /user/closeaccount": CloseAccountResponseSchema,
  "core GET /dnszone": DnsZonePageSchema,
  "core GET /dnszone/{id}": DnsZoneSchema,
  "core POST /dnszone/{id}": DnsZoneSchema,
  "core POST /dnszone/{id}/dnssec": DnsSecDsRecordSchema,
  "core DELETE /dnszone/{id}/dnssec": DnsSecDsRecordSchema,
  "core PUT /dnszone/{zoneId}/records": DnsRecordSchema,
  "edge GET /compute/script/{id}": EdgeScriptSchema,
  "edge POST /compute/script/{id}/variables/add": VariableSchema,
  "edge GET /compute/script/{id}/variables/{variableId}": VariableSchema,
  "edge POST /compute/script/{id}/variables/{variableId}": VariableSchema,
  "edge PUT /compute/script/{id}/variables": VariableSchema,
  "edge POST /compute/script": EdgeScriptWithKeySchema,
  "edge GET /compute/script": ScriptListSchema,
  "edge POST /compute/script/{id}": EdgeScriptWithKeySchema,
  "edge GET /compute/script/{id}/code": ScriptCodeSchema,
  "edge GET /compute/script/{id}/releases": ScriptReleaseListSchema,
  "edge GET /compute/script/{id}/releases/active": ScriptReleaseSchema,
  "shield GET /shield/shield-zone/get-by-pullzone/{pullZoneId}": z.object({ data: ShieldZoneSchema }),
  "shield POST /shield/rate-limit": RateLimitRuleSchema,
  "shield GET /shield/shield-zone/{shieldZoneId}": z.object({ data: ShieldZoneDetailsSchema }),
  "shield POST /shield/shield-zone": z.object({ data: ShieldZoneWriteAnswerSchema }),
  "shield PATCH /shield/shield-zone": z.object({ data: ShieldZoneWriteAnswerSchema }),
  "core POST /videolibrary": VideoLibraryDetailsSchema,
  "core POST /videolibrary/{id}": VideoLibraryDetailsSchema,
  "core GET /videolibrary": z.object({ Items: z.array(VideoLibraryDetailsSchema).nullish() }),
  "core GET /videolibrary/languages": VideoLanguageListSchema,
  "shield GET /shield/rate-limit/{id}": RateLimitRuleSchema,
  "shield PATCH /shield/rate-limit/{id}": RateLimitRuleSchema,
  "shield DELETE /shield/rate-limit/{id}": GenericRequestResponseSchema,
  "shield GET /shield/rate-limits/{shieldZoneId}": RateLimitPageSchema,
  "shield POST /shield/waf/custom-rule": WafRuleSchema,
  "shield GET /shield/waf/custom-rule/{id}": WafRuleSchema,
  "shield PATCH /shield/waf/custom-rule/{id}": WafRuleSchema,
  "shield DELETE /shield/waf/custom-rule/{id}": GenericRequestResponseSchema,
  "shield GET /shield/waf/custom-rules/{shieldZoneId}": WafRulePageSchema,
  "shield GET /shield/shield-zone/{shieldZoneId}/access-lists": AccessListsSchema,
  "shield POST /shield/shield-zone/{shieldZoneId}/access-lists": z.object({ data: CustomAccessListSchema }),
  "shield GET /shield/shield-zone/{shieldZoneId}/access-lists/{id}": z.object({ data: CustomAccessListSchema }),
  "shield PATCH /shield/shield-zone/{shieldZoneId}/access-lists/{id}": z.object({ data: CustomAccessListSchema }),
  "shield DELETE /shield/shield-zone/{shieldZoneId}/access-lists/{id}": GenericRequestResponseSchema,
  "shield GET /shield/shield-zone/{shieldZoneId}/bot-detection": z.object({ data: BotDetectionSchema }),
  "shield PATCH /shield/shield-zone/{shieldZoneId}/bot-detection": z.object({ data: BotDetectionSchema }),
  "shield GET /shield/shield-zone/{shieldZoneId}/upload-scanning": z.object({ data: UploadScanningSchema }),
  "shield PATCH /shield/shield-zone/{shieldZoneId}/upload-scanning": z.object({ data: UploadScanningSchema }),
  "shield PUT /shield/shield-zone/{shieldZoneId}/custom-page/{pageType}": GenericRequestResponseSchema,
  "shield DELETE /shield/shield-zone/{shieldZoneId}/custom-page/{pageType}": GenericRequestResponseSchema,
  "shield PATCH /shield/shield-zone/{shieldZoneId}/access-lists/configurations/{id}": z.object({ data: UpdateAccessListConfigurationRequestSchema }),
  "stream GET /library/{libraryId}/videos/{videoId}": VideoSchema,
  "stream POST /library/{libraryId}/videos/{videoId}/thumbnail": StreamStatusSchema,
  "stream POST /library/{libraryId}/videos": VideoSchema,
  "stream PUT /library/{libraryId}/videos/{videoId}": StreamStatusSchema,
  "stream POST /library/{libraryId}/videos/{videoId}": StreamStatusSchema,
  "stream DELETE /library/{libraryId}/videos/{videoId}": StreamStatusSchema,
  "stream GET /library/{libraryId}/videos": VideoPageSchema,
  "stream POST /library/{libraryId}/videos/fetch": FetchVideoAnswerSchema,
  "stream POST /library/{libraryId}/videos/{videoId}/captions/{srclang}": CaptionStatusSchema,
  "stream DELETE /library/{libraryId}/videos/{videoId}/captions/{srclang}": StreamStatusSchema,
  "stream POST /library/{libraryId}/collections": CollectionSchema,
  "stream GET /library/{libraryId}/collections": CollectionPageSchema,
  "stream GET /library/{libraryId}/collections/{collectionId}": CollectionSchema,
  "stream POST /library/{libraryId}/collections/{collectionId}": StreamStatusSchema,
  "stream DELETE /library/{libraryId}/collections/{collectionId}": StreamStatusSchema,
  "mc GET /regions": RegionPageSchema,
  "mc GET /registries": ContainerRegistryListSchema,
  "mc POST /registries": SaveContainerRegistryResultSchema,
  "mc GET /registries/{registryId}": ContainerRegistrySchema,
  "mc PUT /registries/{registryId}": SaveContainerRegistryResultSchema,
  "mc DELETE /registries/{registryId}": RemoveContainerRegistryResultSchema,
  "mc GET /apps/{appId}/endpoints": EndpointPageSchema,
  "mc GET /apps/{appId}/volumes": VolumeListSchema,
  "mc POST /apps/{appId}/volumes/{volumeId}/detach": DetachVolumeResultSchema,
  "mc DELETE /apps/{appId}/volumes/{volumeId}/instances/{instanceId}": DeleteVolumeInstanceResultSchema,
  "mc GET /apps": AppPageSchema,
  "mc POST /apps": AddApplicationResponseSchema,
  "mc GET /apps/{appId}": ApplicationSchema,
  "mc PUT /apps/{appId}": AddApplicationResponseSchema,
};


interface Exchange {
  method: string;
  url: string;
  requestType: string;
  requestBody: Buffer;
  status: number;
  responseType: string;
  responseBody: Buffer;
}

interface Operation {
  spec: keyof typeof SPECS;
  template: string;
  method: string;
  op: Json;
  pathItem: Json;
}

const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** A recording proxy: forwards to the emulator and keeps every request and answer (bodies are small here). */
async function startRecorder(target: string): Promise<{ url: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const exchanges: Exchange[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const requestBody = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k))) as Record<string, string>;
    const answer = await request(target + req.url, { method: req.method as "GET", headers, body: requestBody.length > 0 || req.method === "POST" ? requestBody : undefined });
    const responseBody = Buffer.from(await answer.body.arrayBuffer());
    exchanges.push({
      method: req.method ?? "",
      url: req.url ?? "",
      requestType: String(req.headers["content-type"] ?? ""),
      requestBody,
      status: answer.statusCode,
      responseType: String(answer.headers["content-type"] ?? ""),
      responseBody,
    });
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (typeof v === "string" && !["content-length", "transfer-encoding", "connection"].includes(k)) out[k] = v;
    res.writeHead(answer.statusCode, out);
    res.end(responseBody);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe("conformance with bunny.net's published OpenAPI documents", function () {
  const specs = new Map<keyof typeof SPECS, Json>();
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const f of ["int32", "int64", "double", "float", "decimal", "binary", "byte"]) if (!ajv.formats[f]) ajv.addFormat(f, true);
  const compiled = new Map<string, ValidateFunction>();
  let emu: TestEmulator;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;

  before(async function () {
    if (!existsSync(SPEC_DIR)) {
      console.log(`    conformance check skipped: the OpenAPI documents are not at ${SPEC_DIR} (they live beside the repository, in ../shared/openapi)`);
      this.skip();
    }
    for (const [name, { file }] of Object.entries(SPECS) as [keyof typeof SPECS, (typeof SPECS)[keyof typeof SPECS]][]) {
      const spec = JSON.parse(readFileSync(join(SPEC_DIR, file), "utf8")) as Json;
      mergeClosedAllOf(spec);
      nullableAsAnyOf(spec.components);
      nullableAsAnyOf(spec.paths);
      specs.set(name, spec);
      ajv.addSchema(spec, name);
    }
    emu = await startEmulator();
    recorder = await startRecorder(emu.url);
  });
  after(async () => {
    await recorder?.close();
    await emu?.stop();
  });

  function validator(spec: string, pointer: string): ValidateFunction {
    const ref = `${spec}#${pointer}`;
    let v = compiled.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: ref });
      compiled.set(ref, v);
    }
    return v;
  }

  function deref(spec: keyof typeof SPECS, value: unknown): Json {
    let v = value as Json;
    while (v && typeof v.$ref === "string") {
      const path = (v.$ref as string).replace(/^#\//, "").split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
      v = path.reduce<Json>((o, k) => o[k] as Json, specs.get(spec)!);
    }
    return v;
  }

  function findOperation(method: string, pathname: string): Operation | undefined {
    const candidates: (Operation & { params: number })[] = [];
    for (const [name, spec] of specs) {
      const prefix = SPECS[name].prefix;
      if (prefix && !pathname.startsWith(prefix + "/")) continue;
      const rest = pathname.slice(prefix.length);
      for (const [template, pathItem] of Object.entries(spec.paths as Json)) {
        const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
        const op = (pathItem as Json)[method.toLowerCase()] as Json | undefined;
        if (op && re.test(rest)) candidates.push({ spec: name, template, method: method.toLowerCase(), op, pathItem: pathItem as Json, params: (template.match(/\{/g) ?? []).length });
      }
    }
    return candidates.sort((a, b) => a.params - b.params)[0];
  }

  /** Every way the exchange departs from the documents, as readable lines; a listed contradiction met is added to `met`. */
  function problems(x: Exchange, met: Set<keyof typeof CONTRADICTIONS> = new Set()): string[] {
    const url = new URL(x.url, "http://x");
    const found = findOperation(x.method, url.pathname);
    const where = `${x.method} ${url.pathname}`;
    if (!found) return [`${where}: no such operation in the documents`];
    const out: string[] = [];
    const { spec, template, method, op } = found;
    const params = [...((found.pathItem.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => deref(spec, p));
    for (const [name, value] of url.searchParams) {
      const p = params.find((q) => q.in === "query" && q.name === name);
      if (!p) {
        out.push(`${where}: query parameter "${name}" is not documented`);
        continue;
      }
      const schema = deref(spec, p.schema ?? {});
      const typed = schema.type === "integer" || schema.type === "number" ? Number(value) : schema.type === "boolean" ? value === "true" : value;
      const v = ajv.compile({ ...schema, $id: undefined });
      if (!v(typed)) out.push(`${where}: query ${name}=${value}: ${ajv.errorsText(v.errors)}`);
    }
    if (x.requestBody.length > 0) {
      const body = deref(spec, op.requestBody);
      const types = Object.keys((body?.content as Json) ?? {});
      const sent = x.requestType.split(";")[0].trim();
      const match = types.find((t) => t === sent || (t.endsWith("/*+json") && sent.endsWith("+json")));
      if (!match && types.length === 0 && spec === "shield" && template.endsWith("/custom-page/{pageType}") && sent === "text/html") met.add("customPageBody");
      else if (!match) out.push(`${where}: request body as ${sent}, documented: ${types.join(", ") || "none"}`);
      else if (sent.includes("json")) {
        const v = validator(spec, `/paths/${escapePointer(template)}/${method}/requestBody/content/${escapePointer(match)}/schema`);
        if (!v(JSON.parse(x.requestBody.toString("utf8")))) out.push(`${where}: request body: ${ajv.errorsText(v.errors)}`);
      }
    }
    const responses = op.responses as Json;
    const status = String(x.status);
    const text = x.responseBody.toString("utf8");
    const json = text.trim() && x.responseType.includes("json") ? (JSON.parse(text) as unknown) : undefined;
    if (x.status === 202 && json && typeof json === "object" && "error" in json) {
      met.add("shieldEnvelope202");
      return out;
    }
    if (spec === "mc" && template === "/registries" && method === "post" && x.status === 201 && !(status in responses)) {
      met.add("registryCreated201");
      return problems({ ...x, status: 200 }, met);
    }
    if (!(status in responses)) {
      if (x.status < 400) out.push(`${where}: answered ${status}, documented: ${Object.keys(responses).join(", ")}`);
      return out; // quirk 2 for errors
    }
    const content = deref(spec, responses[status]).content as Json | undefined;
    const type = content && Object.keys(content).find((t) => t.includes("json"));
    if (type && !text.trim()) {
      if (x.status === 204) met.add("noContent204");
      else out.push(`${where} → ${status}: no body, documented: ${type}`);
    }
    if (json !== undefined && type) {
      const v = validator(spec, `/paths/${escapePointer(template)}/${method}/responses/${status}/content/${escapePointer(type)}/schema`);
      const readShape = (e: { keyword: string; instancePath: string; params: Record<string, unknown> }) =>
        spec === "shield" && e.keyword === "additionalProperties" && e.instancePath.endsWith("/ruleConfiguration") && RATE_LIMIT_FIELDS.has(String(e.params.additionalProperty));
      const all = v(json) ? [] : (v.errors ?? []);
      if (all.some(readShape)) met.add("shieldRuleReadShape");
      const errors = all.filter((e) => !readShape(e));
      if (errors.length > 0) out.push(`${where} → ${status}: ${ajv.errorsText(errors)}`);
    }
    return out;
  }

  it("every request the client sends, and every answer the emulator gives, is what the documents describe", async () => {
    const f = emu.fixtures;
    const client = new BunnyClient({ ...resolveSettings({ apiKey: f.accessKey, apiUrl: recorder.url, streamApiUrl: recorder.url, loggingApiUrl: recorder.url }, {}), retryBaseDelayMs: 5 });
    const zone = Number(f.pullZoneId);

    await client.apiKeys.listPage();
    await client.pullZones.getPullZone(zone);
    await client.pullZones.addHostname(zone, "conformance.example.com");
    await client.pullZones.removeHostname(zone, "conformance.example.com");
    await client.account.closeAccount({ password: "not the password" }).catch(() => undefined);

    const storage = await client.storageZones.createStorageZone({ Name: "conformance-storage", Region: "DE", ReplicationRegions: ["NY"], ZoneTier: 0 });
    await client.storageZones.getStorageZone(storage.Id);
    await client.storageZones.updateStorageZone(storage.Id, { ReplicationZones: ["NY", "SG"], Rewrite404To200: true, Custom404FilePath: "/404.html" });
    await client.storageZones.findStorageZoneByName("conformance-storage");
    const created = await client.pullZones.createPullZone({ Name: "conformance-zone", OriginType: 2, StorageZoneId: storage.Id, BlockedIps: ["192.0.2.1"], IpFamilyPolicy: 1 });
    await client.pullZones.getPullZone(created.Id);
    await client.storageZones.getStorageZone(storage.Id);
    await client.pullZones.updatePullZone(created.Id, { OriginType: 0, OriginUrl: "https://origin.example.com", DnsOriginPort: 8443, DnsOriginScheme: "https", EnableTLS1: false });
    await client.pullZones.findPullZoneByName("conformance-zone");
    await client.pullZones.deletePullZone(created.Id);
    await client.storageZones.deleteStorageZone(storage.Id, { deleteLinkedPullZones: false });

    const edgeZone = await client.pullZones.createPullZone({ Name: "conformance-edge", OriginUrl: "https://origin.example.com" });
    const edgeRule = await client.pullZones.addOrUpdateEdgeRule(edgeZone.Id, {
      ActionType: 1,
      ActionParameter1: "https://www.example.com%{Url.Path}",
      ActionParameter2: "301",
      ActionParameter3: "",
      ExtraActions: [{ ActionType: 5, ActionParameter1: "X-Moved", ActionParameter2: "yes", ActionParameter3: "" }],
      Triggers: [
        { Type: 0, PatternMatches: ["https://old.example.com/*"], PatternMatchingType: 0, Parameter1: "" },
        { Type: 1, PatternMatches: ["1"], PatternMatchingType: 2, Parameter1: "X-Legacy" },
      ],
      TriggerMatchingType: 1,
      Description: "conformance",
      Enabled: true,
      OrderIndex: 3,
    });
    await client.pullZones.addOrUpdateEdgeRule(edgeZone.Id, { Guid: edgeRule.Guid, ActionType: 4, Triggers: [{ Type: 4, PatternMatches: ["KP"], PatternMatchingType: 0, Parameter1: "" }], TriggerMatchingType: 0, Description: "", Enabled: false, OrderIndex: 0 });
    await client.pullZones.setEdgeRuleEnabled(edgeZone.Id, edgeRule.Guid, true);
    await client.pullZones.updatePullZone(edgeZone.Id, { OptimizerClasses: [{ Name: "thumb", Properties: { width: "320", crop_gravity: "center" } }] });
    await client.pullZones.getPullZone(edgeZone.Id);
    await client.pullZones.purgeCache(edgeZone.Id);
    await client.pullZones.purgeCache(edgeZone.Id, "css");
    await client.pullZones.purgeUrl("https://conformance-edge.b-cdn.net/app.css", { exactPath: true, async: true });
    await client.pullZones.deleteEdgeRule(edgeZone.Id, edgeRule.Guid);
    await client.pullZones.listCdnRegions();
    await client.pullZones.deletePullZone(edgeZone.Id);

    const library = Number(f.videoLibraryId);
    await client.stream.getVideo(library, String(f.videoId));
    await client.stream.setThumbnail(library, String(f.videoId), { frame: 2 });
    await client.stream.setThumbnail(library, String(f.videoId), { file: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), contentType: "image/png" });
    const collection = await client.stream.createCollection(library, "conformance");
    await client.stream.getCollection(library, collection.guid);
    await client.stream.renameCollection(library, collection.guid, "conformance 2");
    await client.stream.findCollectionByName(library, "conformance 2");
    const upload = await client.stream.createVideo(library, { title: "conformance", collectionId: collection.guid });
    await client.stream.uploadVideo(library, upload.guid, tinyMp4(3));
    for (let i = 0; i < 4; i++) await client.stream.getVideo(library, upload.guid); // through every encoding status
    await client.stream.updateVideo(library, upload.guid, {
      title: "conformance video",
      collectionId: "",
      chapters: [{ title: "Intro", start: 0, end: 2 }],
      moments: [{ label: "Wave", timestamp: 1 }],
      metaTags: [{ property: "description", value: "checked against the document" }],
    });
    await client.stream.addCaption(library, upload.guid, "en", { file: Buffer.from("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHi\n"), label: "English" });
    await client.stream.addCaption(library, upload.guid, "de", { file: Buffer.from("not captions") }).catch(() => undefined);
    await client.stream.getVideo(library, upload.guid);
    await client.stream.deleteCaption(library, upload.guid, "en");
    for await (const _ of client.stream.listVideos(library, { search: "conformance", collection: collection.guid })) void _;
    await client.stream.fetchVideo(library, { url: "https://media.example.com/conformance.mp4", title: "conformance fetched" }, { collectionId: collection.guid });
    await client.stream.deleteVideo(library, upload.guid);
    await client.stream.deleteCollection(library, collection.guid);

    const dnsZone = await client.dns.addZone("conformance.example");
    await client.dns.findZoneByDomain("conformance.example");
    await client.dns.updateZone(dnsZone.Id, { CustomNameserversEnabled: true, Nameserver1: "ns1.example.net", Nameserver2: "ns2.example.net", SoaEmail: "dns@example.net", LoggingEnabled: true, LoggingIPAnonymizationEnabled: true, LogAnonymizationType: 1, CertificateKeyType: 1 });
    await client.dns.setDnssec(dnsZone.Id, true);
    await client.dns.setDnssec(dnsZone.Id, false);
    const mx = await client.dns.addRecord(dnsZone.Id, { Type: 4, Name: "", Value: "mail.example.net", Priority: 10, Ttl: 300, Disabled: false, Comment: "" });
    await client.dns.addRecord(dnsZone.Id, { Type: 7, Name: "cdn", PullZoneId: zone });
    await client.dns.addRecord(dnsZone.Id, { Type: 8, Name: "_sip._tcp", Value: "sip.example.net", Priority: 1, Weight: 5, Port: 5060, MonitorType: 0, SmartRoutingType: 0 });
    await client.dns.updateRecord(dnsZone.Id, mx.Id, { Type: 4, Value: "mx.example.net", Priority: 20, Id: mx.Id });
    await client.dns.getRecord(dnsZone.Id, mx.Id);
    await client.dns.deleteRecord(dnsZone.Id, mx.Id);
    await client.dns.deleteZone(dnsZone.Id);

    const script = Number(f.scriptId);
    await client.edgeScripts.getScript(script);
    const variable = await client.edgeScripts.addVariable(script, { Name: "CONFORMANCE", DefaultValue: "a", Required: false });
    await client.edgeScripts.getVariable(script, variable.Id);
    await client.edgeScripts.updateVariable(script, variable.Id, { DefaultValue: "b", Required: true });
    await client.edgeScripts.upsertVariable(script, { Name: "CONFORMANCE", DefaultValue: "c", Required: false });
    await client.edgeScripts.upsertVariable(script, { Name: "CONFORMANCE_NEW", DefaultValue: "d", Required: false });
    await client.edgeScripts.deleteVariable(script, variable.Id);
    const standalone = await client.edgeScripts.createScript({ Name: "conformance", ScriptType: 1, Code: "export default {}", CreateLinkedPullZone: true, LinkedPullZoneName: "conformance-script" });
    await client.edgeScripts.getScriptWithKey(standalone.script.Id);
    await client.edgeScripts.findScriptsByName("conformance");
    await client.edgeScripts.updateScript(standalone.script.Id, { Name: "conformance 2" });
    await client.edgeScripts.setCode(standalone.script.Id, "export default { v: 2 }");
    await client.edgeScripts.getCode(standalone.script.Id);
    await client.edgeScripts.publish(standalone.script.Id, "conformance");
    await client.edgeScripts.getActiveRelease(standalone.script.Id);
    for await (const _ of client.edgeScripts.listReleases(standalone.script.Id)) void _;
    await client.edgeScripts.deleteScript(standalone.script.Id, { deleteLinkedPullZones: true });

    const shieldZone = await client.shield.getShieldZoneByPullZone(zone);
    const configuration = { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/login", requestCount: 10, timeframe: "PerOneMinute", blockTime: "ForFiveMinutes" } as const;
    const rule = await client.shield.createRateLimit({ shieldZoneId: shieldZone.shieldZoneId, ruleName: "conformance", ruleConfiguration: configuration });
    await client.shield.getRateLimit(rule.id);
    await client.shield.listRateLimitsPage(shieldZone.shieldZoneId);
    await client.shield.updateRateLimit(rule.id, { ruleName: "conformance 2", ruleConfiguration: configuration });
    await client.shield.deleteRateLimit(rule.id);
    await client.shield.createRateLimit({ shieldZoneId: Number(f.provisioningShieldZoneId), ruleName: "accepted", ruleConfiguration: configuration });
    await assert.rejects(client.shield.getRateLimit(Number(f.downgradedRateLimitId)), ForbiddenError);

    const waf = { actionType: "Block", variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin", chainedRuleConditions: [{ variableTypes: { GEO: "" }, operatorType: "STREQ", value: "DE", isNegated: true }] };
    const wafRule = await client.wafRules.create({ shieldZoneId: shieldZone.shieldZoneId, ruleName: "conformance", ruleDescription: "admin", ruleConfiguration: waf });
    await client.wafRules.get(wafRule.id);
    await client.wafRules.listPage(shieldZone.shieldZoneId);
    await client.wafRules.update(wafRule.id, { ruleName: "conformance 2", ruleConfiguration: { ...waf, actionType: "Challenge", transformationTypes: ["LOWERCASE"] } });
    await client.wafRules.delete(wafRule.id);
    await client.wafRules.delete(wafRule.id);

    const accessList = await client.accessLists.create(shieldZone.shieldZoneId, { name: "conformance", type: "Country", content: "RU\nKP" });
    await client.accessLists.get(shieldZone.shieldZoneId, accessList.id);
    await client.accessLists.update(shieldZone.shieldZoneId, accessList.id, { name: "conformance 2", content: "RU" });
    const lists = await client.accessLists.list(shieldZone.shieldZoneId);
    for (const l of [...lists.customLists, lists.managedLists[0]]) await client.accessLists.configure(shieldZone.shieldZoneId, l.configurationId, { action: "Challenge", isEnabled: true });
    await client.accessLists.delete(shieldZone.shieldZoneId, accessList.id);
    await client.accessLists.delete(shieldZone.shieldZoneId, accessList.id);

    const shieldedZone = putPullZone(emu, "conformance-shield");
    const createdZone = await client.shieldZones.create({ pullZoneId: shieldedZone, shieldZone: { planType: "Advanced", wafDisabledRules: ["920100"], dDoSShieldSensitivity: "High" } });
    await client.shieldZones.update({ shieldZoneId: createdZone.shieldZoneId, shieldZone: { learningMode: true, wafRequestIgnoredHeaders: ["Cookie"] } });
    await client.shieldZones.create({ pullZoneId: shieldedZone }).catch(() => undefined);
    await client.shieldZones.updateBotDetection(createdZone.shieldZoneId, { executionMode: "Challenge", browserFingerprint: { sensitivity: "High", aggression: "Medium", complexEnabled: true } });
    await client.shieldZones.getBotDetection(createdZone.shieldZoneId);
    await client.shieldZones.updateUploadScanning(createdZone.shieldZoneId, { isEnabled: true, antivirusScanningMode: "Block", csamScanningMode: "Log" });
    await client.shieldZones.getUploadScanning(createdZone.shieldZoneId);
    await client.shieldZones.putCustomPage(createdZone.shieldZoneId, "block", "<html><body>Blocked</body></html>");
    await client.shieldZones.getCustomPage(createdZone.shieldZoneId, "block");
    await client.shieldZones.getCustomPage(createdZone.shieldZoneId, "challenge");
    await client.shieldZones.deleteCustomPage(createdZone.shieldZoneId, "block");
    await client.shieldZones.create({ pullZoneId: 987654 }).catch(() => undefined);

    const newLibrary = await client.videoLibraries.create({ Name: "conformance", ReplicationRegions: ["NY"], EncodingTier: "Free", EnabledResolutions: "720p" });
    await client.videoLibraries.update(newLibrary.Id, { Name: "conformance 2", WebhookUrl: "https://hooks.example/c", Controls: "play" });
    await client.videoLibraries.findByName("conformance 2");
    await client.videoLibraries.delete(newLibrary.Id);
    await client.videoLibraries.delete(newLibrary.Id);
    await client.videoLibraries.languages();

    for await (const _ of client.containers.listRegions()) void _;
    for await (const _ of client.containers.listEndpoints(String(f.appId))) void _;
    await client.containers.listVolumesPage(String(f.appId));
    await client.containers.detachVolume(String(f.appId), String(f.attachedVolumeId));
    await client.containers.deleteVolumeInstance(String(f.appId), String(f.detachedVolumeId), String(f.detachedInstanceId));
    const registryId = await client.containers.addRegistry({ displayName: "GitHub", type: "gitHub", passwordCredentials: { userName: "conformance", password: "conformance-token" } });
    await client.containers.getRegistry(registryId);
    await client.containers.updateRegistry(registryId, { displayName: "GitHub", type: "gitHub", passwordCredentials: { userName: "conformance", password: "other-token" } });
    await client.containers.listRegistries();
    await client.containers.deleteRegistry(registryId);
    await assert.rejects(client.containers.deleteRegistry(registryId));
    await assert.rejects(client.containers.getRegistry(registryId));
    // Applications: the calls ContainerApp makes, in the document's own form (a CDN endpoint on a declared pull zone too).
    const declaredZone = await client.pullZones.createPullZone({ Name: "conformance-app-front", OriginUrl: "https://origin.example.com" });
    const appRequest: bunnynet_AddApplicationRequest = {
      name: "conformance-app",
      runtimeType: "shared",
      autoScaling: { min: 1, max: 2 },
      regionSettings: { allowedRegionIds: ["DE", "NY"], requiredRegionIds: ["DE"] },
      containerTemplates: [
        {
          name: "web",
          imageNamespace: "library",
          imageName: "nginx",
          imageTag: "1.27",
          imageRegistryId: String(f.dockerHubRegistryId),
          imagePullPolicy: "ifNotPresent",
          environmentVariables: [{ name: "MODE", value: "conformance" }],
          endpoints: [
            { displayName: "site", cdn: { isSslEnabled: true, portMappings: [{ containerPort: 80 }] } },
            { displayName: "front", cdn: { pullZoneId: declaredZone.Id, portMappings: [{ containerPort: 80 }] } },
            { displayName: "edge", anycast: { type: "iPv4", portMappings: [{ containerPort: 80, exposedPort: 80, protocols: ["tcp"] }] } },
          ],
          volumeMounts: [{ name: "cache", mountPath: "/cache" }],
        },
      ],
      volumes: [{ name: "cache", size: 2 }],
    };
    // The client's application calls (ContainerApp's), answers checked: a create, its deployment read, an update, the list, a delete.
    const newAppId = await client.containers.addApp(appRequest);
    await client.containers.getApp(newAppId);
    await client.containers.updateApp(newAppId, { ...appRequest, autoScaling: { min: 2, max: 3 } });
    await client.containers.listAppsPage({ limit: 1 });
    for await (const _ of client.containers.listApps({ limit: 1 })) void _;
    await client.containers.getApp(String(f.appId));
    // A pull zone whose origin is one of the app's endpoints (PullZoneAddModel / PullZoneSettingsModel MagicContainersAppId,
    // MagicContainersEndpointId; OriginType 5), moved to another endpoint in place, and one naming no endpoint refused.
    const appEndpoints: { id: string; displayName?: string | null }[] = [];
    for await (const e of client.containers.listEndpoints(newAppId)) appEndpoints.push(e);
    const endpointId = (name: string) => appEndpoints.find((e) => e.displayName === name)!.id;
    const containerZone = await client.pullZones.createPullZone({ Name: "conformance-container", OriginType: 5, MagicContainersAppId: newAppId, MagicContainersEndpointId: endpointId("site") });
    assert.deepEqual([containerZone.OriginType, containerZone.MagicContainersAppId, containerZone.MagicContainersEndpointId], [5, newAppId, endpointId("site")]);
    await client.pullZones.updatePullZone(containerZone.Id, { OriginType: 5, MagicContainersAppId: newAppId, MagicContainersEndpointId: endpointId("edge") });
    await client.pullZones.getPullZone(containerZone.Id);
    await assert.rejects(client.pullZones.updatePullZone(containerZone.Id, { OriginType: 5, MagicContainersAppId: newAppId, MagicContainersEndpointId: "no-such-endpoint" }), /MagicContainersEndpointId/);
    await client.pullZones.deletePullZone(containerZone.Id);
    await client.containers.deleteApp(newAppId);
    await assert.rejects(client.containers.getApp(newAppId));
    await assert.rejects(client.containers.deleteApp(newAppId));

    // Errors whose bodies the documents describe: Magic Containers' ErrorDetails (404) and ProblemDetails (401).
    await assert.rejects(async () => {
      for await (const _ of client.containers.listEndpoints("no-such-app")) void _;
    });
    await assert.rejects(client.containers.deleteVolumeInstance(String(f.appId), String(f.detachedVolumeId), "no-such-instance"));
    const wrongKey = new BunnyClient({ ...resolveSettings({ apiKey: "not-the-key", apiUrl: recorder.url, streamApiUrl: recorder.url, loggingApiUrl: recorder.url }, {}), retryBaseDelayMs: 5 });
    await assert.rejects(wrongKey.containers.listVolumesPage(String(f.appId)));

    const checked = recorder.exchanges;
    assert.ok(checked.length >= 30, `${checked.length} exchanges recorded`);
    assert.ok(checked.filter((x) => x.url.includes("?")).length >= 5 && checked.filter((x) => x.requestBody.length > 0).length >= 8, "queries and bodies were checked");
    assert.ok(checked.some((x) => x.url.startsWith("/mc/") && x.status === 404) && checked.some((x) => x.url.startsWith("/mc/") && x.status === 401), "error bodies were checked");
    const met = new Set<keyof typeof CONTRADICTIONS>();
    const found = checked.flatMap((x) => problems(x, met));
    assert.deepEqual(found, [], `departures from the published documents:\n${found.join("\n")}`);
    assert.deepEqual([...met].sort(), Object.keys(CONTRADICTIONS).sort(), "every listed contradiction is one the emulator meets (else drop it from the list and emulator/README.md)");
  });

  /** The paths (in `value`) of the fields present there that the document marks nullable, and not null already. */
  function nullableFields(spec: keyof typeof SPECS, schema: unknown, value: unknown, at: (string | number)[] = []): (string | number)[][] {
    let s = deref(spec, schema);
    const alternatives = (s.anyOf ?? s.oneOf ?? s.allOf) as unknown[] | undefined;
    if (alternatives) s = deref(spec, alternatives.map((a) => deref(spec, a)).find((a) => a.type !== "null") ?? {});
    const out: (string | number)[][] = [];
    if (Array.isArray(value) && s.items && value.length > 0) return nullableFields(spec, s.items, value[0], [...at, 0]);
    if (typeof value !== "object" || value === null || !s.properties) return out;
    for (const [key, propSchema] of Object.entries(s.properties as Json)) {
      const v = (value as Json)[key];
      if (v === undefined || v === null) continue;
      const p = deref(spec, propSchema);
      const nullable = p.nullable === true || ((p.anyOf as Json[] | undefined) ?? []).some((a) => a.type === "null");
      if (nullable) out.push([...at, key]);
      out.push(...nullableFields(spec, p, v, [...at, key]));
    }
    return out;
  }

  it("every field the documents mark nullable, set to null in a real answer, is accepted by the client's schemas", () => {
    const refused: string[] = [];
    let fields = 0;
    for (const x of recorder.exchanges) {
      const url = new URL(x.url, "http://x");
      const found = findOperation(x.method, url.pathname);
      const text = x.responseBody.toString("utf8");
      if (!found || x.status !== 200 || !text.trim() || !x.responseType.includes("json")) continue;
      const key = `${found.spec} ${x.method} ${found.template}`;
      const schema = CLIENT_SCHEMAS[key];
      if (!schema) {
        refused.push(`${key}: no client schema listed for this answer`);
        continue;
      }
      const answer = JSON.parse(text) as unknown;
      const responseSchema = ((found.op.responses as Json)["200"] as Json | undefined)?.content as Json | undefined;
      const documented = responseSchema && Object.entries(responseSchema).find(([t]) => t.includes("json"))?.[1];
      if (!documented) continue;
      for (const path of nullableFields(found.spec, (documented as Json).schema, answer)) {
        fields++;
        const copy = structuredClone(answer) as Json;
        const parent = path.slice(0, -1).reduce<Json>((o, k) => o[k] as Json, copy);
        parent[path[path.length - 1]] = null;
        if (!schema.safeParse(copy).success) refused.push(`${key}: ${path.join(".")} may be null (the document says so) but the client refuses null`);
      }
    }
    assert.ok(fields >= 50, `nullable fields checked: ${fields}`);
    assert.deepEqual([...new Set(refused)], []);
  });

  it("the Terraform provider's bodies the emulator accepts depart from the documents, as emulator/README.md lists them", () => {
    const sent = (method: string, url: string, body: unknown): string => problems({ method, url, requestType: "application/json", requestBody: Buffer.from(JSON.stringify(body)), status: 200, responseType: "", responseBody: Buffer.from("{}") }).join("\n");
    const configuration = { actionType: 1, variableTypes: { REQUEST_URI: "" }, operatorType: 0, transformationTypes: [], value: "/", requestCount: 5, blockTime: 300, timeframe: 60, chainedRuleConditions: null };
    // internal/api/pullzone_ratelimit_rule.go: create with ruleJson, update with id, shieldZoneId and ruleJson.
    assert.match(sent("POST", "/shield/rate-limit", { shieldZoneId: 1, ruleName: "a", ruleDescription: "", ruleJson: "", ruleConfiguration: configuration }), /request body: .*must NOT have additional properties/);
    assert.match(sent("PATCH", "/shield/rate-limit/1", { id: 1, shieldZoneId: 0, ruleName: "a", ruleDescription: "", ruleJson: "", ruleConfiguration: configuration }), /request body: .*must NOT have additional properties/);
    // internal/api/compute_script_variable.go UpdateComputeScriptVariable: Name with the update.
    assert.match(sent("POST", "/compute/script/1/variables/2", { Name: "A", Required: true, DefaultValue: "x" }), /request body: .*must NOT have additional properties/);
    // internal/api/compute_container_app.go UpdateComputeContainerApp: "Shared", packageId, null probes.
    const app = { name: "a", runtimeType: "Shared", autoScaling: { min: 1, max: 1 }, regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: ["DE"], maxAllowedRegions: null }, containerTemplates: [{ packageId: "p", name: "echo", imageNamespace: "hashicorp", imageName: "http-echo", imageTag: "latest", imageRegistryId: "1", imagePullPolicy: "Always", probes: { startup: null, readiness: null, liveness: null }, endpoints: [], environmentVariables: [] }] };
    // internal/api/compute_container_imageregistry.go: the type in its display name's case; the update with the id.
    assert.match(sent("POST", "/mc/registries", { displayName: "DockerHub", type: "DockerHub", passwordCredentials: { userName: "u", password: "p" } }), /type must be equal to one of the allowed values/);
    assert.match(sent("PUT", "/mc/registries/1", { id: 1, displayName: "DockerHub", type: "dockerHub", passwordCredentials: { userName: "u", password: "p" } }), /request body: .*must NOT have additional properties/);
    const departures = sent("POST", "/mc/apps", app);
    for (const expected of [/runtimeType must be equal to one of the allowed values/, /imagePullPolicy must be equal to one of the allowed values/, /must NOT have additional properties/, /startup must be object/]) assert.match(departures, expected);
  });

  it("the check itself catches what the client used to send: paging parameters on endpoints, an image media type", () => {
    const exchange = (method: string, url: string, requestType = "", body = ""): Exchange => ({
      method,
      url,
      requestType,
      requestBody: Buffer.from(body),
      status: 200,
      responseType: "",
      responseBody: Buffer.alloc(0),
    });
    assert.deepEqual(problems(exchange("GET", "/mc/apps/a/endpoints?limit=1000&nextCursor=x")), [
      'GET /mc/apps/a/endpoints: query parameter "limit" is not documented',
      'GET /mc/apps/a/endpoints: query parameter "nextCursor" is not documented',
      // The synthetic exchange has no answer body: a 200 without the JSON the document declares is a departure too.
      "GET /mc/apps/a/endpoints → 200: no body, documented: application/json",
    ]);
    // A 204 without the body its document declares is the listed contradiction, not a departure; a `type` in ErrorDetails is.
    const met = new Set<keyof typeof CONTRADICTIONS>();
    assert.deepEqual(problems({ ...exchange("PUT", "/compute/script/1/variables", "application/json", '{"Name":"A"}'), status: 204 }, met), []);
    assert.deepEqual([...met], ["noContent204"]);
    const typed = { ...exchange("GET", "/mc/apps/a/endpoints"), status: 404, responseType: "application/problem+json", responseBody: Buffer.from('{"type":"https://httpstatuses.io/404","title":"Not Found","status":404}') };
    assert.match(problems(typed)[0], /→ 404: .*must NOT have additional properties/);
    assert.match(problems(exchange("POST", "/library/1/videos/v/thumbnail", "image/png", "png"))[0], /request body as image\/png, documented: application\/octet-stream/);
    assert.match(problems(exchange("GET", "/apikey?perPage=1"))[0], /query perPage=1: data must be >= 5/);
  });
});
