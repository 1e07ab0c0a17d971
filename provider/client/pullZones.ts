import { NotFoundError, UnexpectedResponseError, ValidationError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import {
  AddCertificateRequestSchema,
  ForceSslRequestSchema,
  HostnameRequestSchema,
  PullZoneAddRequestSchema,
  PullZoneListSchema,
  PullZoneSchema,
  PullZoneSettingsRequestSchema,
} from "../schemas/pullZones";
import { CdnRegionListSchema, EdgeRuleRequestSchema, EdgeRuleSchema, EdgeRuleToggleRequestSchema, PurgeRequestSchema } from "../schemas/pullZoneEdge";
import { listCore } from "./coreListing";
import type { CdnRegion, EdgeRule, EdgeRuleRequest, Hostname, PullZone, PullZoneAddRequest, PullZoneSettingsRequest } from "../types.generated";

/** The core API answers 400 (not 404) when the hostname (or its certificate) to remove is not there. */
const HOSTNAME_MISSING = /not[ _.-]?found|not exist/i;

/** A 400 that says "not found" as the NotFoundError it means, so "already gone" is easy to treat as done. */
function asNotFound(e: unknown): unknown {
  if (!(e instanceof ValidationError) || !HOSTNAME_MISSING.test(`${e.errorKey ?? ""} ${e.serverMessage ?? ""}`)) return e;
  const gone = new NotFoundError({ method: e.method, path: e.path, status: e.status, serverMessage: e.serverMessage, errorKey: e.errorKey, field: e.field });
  gone.attempts = e.attempts;
  return gone;
}

/**
 * Pull zones, their custom hostnames, certificates and force-SSL. Hostnames are lowercased before sending.
 * Sources: core-api-v1.0.0.json (PullZonePublic_Add: PullZoneAddModel; _UpdatePullZone: PullZoneSettingsModel → 200
 * PullZoneModel; _Delete; _IndexAll: an array, `search`, `page` ≥ 1, `perPage` 5..1000; _Index; the hostname and
 * certificate operations below); BunnyWay/terraform-provider-bunnynet internal/api/pullzone.go (the create answers
 * 201 with the zone, which the document leaves undescribed).
 *
 * At the edge: PullZonePublic_AddEdgeRule (`edgerules/addOrUpdate`, EdgeRuleV2Model; a Guid updates that rule),
 * _DeleteEdgeRule (204, 404), _SetEdgeRuleEnabled (ToggleRequestModel, 204), _PurgeCachePostByTag (PullZonePurgeModel
 * or no body, 204), PurgePublic_IndexPost (`/purge?url=&exactPath=&async=`, 200) and RegionPublic_Index (`/region`, an
 * array of RegionModel). Terraform's internal/api/pullzone_edgerule.go reads the rule from addOrUpdate's 201 answer
 * (the document leaves it undescribed), and its pullzone_purge.go and purge.go send the purges the same way.
 */
export class PullZonesClient {
  constructor(private readonly http: Transport) {}

  /**
   * Creates a pull zone (201 with the zone). A create: a 5xx or timeout is not repeated (look it up by name). A
   * name taken anywhere on bunny.net is refused (400).
   */
  async createPullZone(request: PullZoneAddRequest): Promise<PullZone> {
    const body = validateRequest(PullZoneAddRequestSchema, request, "POST", "/pullzone");
    const res = await this.http.request({ api: "core", method: "POST", path: "/pullzone", json: body, responseSchema: PullZoneSchema, retry: "create" });
    return res.body;
  }

  /** Changes the zone's settings (the name cannot change) and answers the zone. Sets absolute values: safe to repeat. */
  async updatePullZone(id: number, request: PullZoneSettingsRequest): Promise<PullZone> {
    const path = encodePath("pullzone", id);
    const body = validateRequest(PullZoneSettingsRequestSchema, request, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: PullZoneSchema, retry: "idempotent" });
    return res.body;
  }

  /** Deletes the zone with its hostnames (204); a zone that is not there is a NotFoundError. */
  async deletePullZone(id: number): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("pullzone", id), retry: "idempotent" });
  }

  /** Every zone of the account (optionally those whose name contains `search`), page by page (see listCore). */
  listPullZones(options: { search?: string; perPage?: number } = {}): AsyncGenerator<PullZone> {
    return listCore(this.http, "/pullzone", PullZoneListSchema, options);
  }

  /** The zone with that name (names are unique across bunny.net; compared case-insensitively), or undefined. */
  async findPullZoneByName(name: string): Promise<PullZone | undefined> {
    const wanted = name.toLowerCase();
    for await (const zone of this.listPullZones({ search: name })) if (zone.Name.toLowerCase() === wanted) return zone;
    return undefined;
  }

  async getPullZone(id: number): Promise<PullZone> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("pullzone", id), responseSchema: PullZoneSchema, cacheable: true });
    return res.body;
  }

  /**
   * The zone with each hostname's certificate (`includeCertificate=true`). The API sends the private keys
   * too; the schema drops them on arrival.
   */
  async getPullZoneWithCertificates(id: number): Promise<PullZone> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("pullzone", id), query: { includeCertificate: true }, responseSchema: PullZoneSchema, cacheable: true });
    return res.body;
  }

  /**
   * Adds a custom hostname (answer 204). A create: a 5xx or timeout is not repeated, because the hostname
   * may have been added; the caller looks it up with `findHostname`. A hostname already registered on
   * any zone arrives as AlreadyExistsError.
   */
  async addHostname(pullZoneId: number, hostname: string): Promise<void> {
    const path = encodePath("pullzone", pullZoneId, "addHostname");
    const body = validateRequest(HostnameRequestSchema, { Hostname: hostname }, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "create" });
  }

  /**
   * Removes a custom hostname (a DELETE with a JSON body; safe to repeat). A hostname that is not on the
   * zone, like a zone that does not exist, is a NotFoundError, so "already gone" is easy to treat as done.
   */
  async removeHostname(pullZoneId: number, hostname: string): Promise<void> {
    await this.removeFromHostname(pullZoneId, "removeHostname", hostname);
  }

  /**
   * The zone's hostname with that value (compared case-insensitively), or undefined. NotFoundError if the zone is missing.
   * With `withCertificate`, the hostname carries its certificate (Base64 PEM) when it has one.
   */
  async findHostname(pullZoneId: number, hostname: string, options: { withCertificate?: boolean } = {}): Promise<Hostname | undefined> {
    const wanted = hostname.toLowerCase();
    const zone = options.withCertificate ? await this.getPullZoneWithCertificates(pullZoneId) : await this.getPullZone(pullZoneId);
    return zone.Hostnames.find((h) => h.Value.toLowerCase() === wanted);
  }

  /**
   * Asks bunny.net to issue (or renew) a free certificate for a hostname of the account. A GET that changes
   * state (`mutates`): never shared or answered from a cache, and it invalidates cached zones like a write; it is safe to repeat (the hostname ends up with one
   * certificate). A 400 means it could not be issued now, typically because the hostname's DNS does not
   * point at bunny.net yet.
   */
  async loadFreeCertificate(hostname: string): Promise<void> {
    const value = validateRequest(HostnameRequestSchema, { Hostname: hostname }, "GET", "/pullzone/loadFreeCertificate").Hostname;
    await this.http.request({ api: "core", method: "GET", path: "/pullzone/loadFreeCertificate", query: { hostname: value, useOnlyHttp01: true }, retry: "idempotent", mutates: true });
  }

  /** Installs a custom certificate (PEM text of the certificate chain and its private key); replaces the one there. Safe to repeat. */
  async addCertificate(pullZoneId: number, hostname: string, certificatePem: string, privateKeyPem: string): Promise<void> {
    const path = encodePath("pullzone", pullZoneId, "addCertificate");
    const body = validateRequest(
      AddCertificateRequestSchema,
      { Hostname: hostname, Certificate: Buffer.from(certificatePem).toString("base64"), CertificateKey: Buffer.from(privateKeyPem).toString("base64") },
      "POST",
      path,
    );
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent" });
  }

  /** Removes the hostname's certificate; a hostname without one (or missing) is a NotFoundError. */
  async removeCertificate(pullZoneId: number, hostname: string): Promise<void> {
    await this.removeFromHostname(pullZoneId, "removeCertificate", hostname);
  }

  /** `DELETE /pullzone/{id}/{action}` with `{Hostname}` (safe to repeat); a 400 that says "not found" is a NotFoundError. */
  private async removeFromHostname(pullZoneId: number, action: "removeHostname" | "removeCertificate", hostname: string): Promise<void> {
    const path = encodePath("pullzone", pullZoneId, action);
    const body = validateRequest(HostnameRequestSchema, { Hostname: hostname }, "DELETE", path);
    await this.http.request({ api: "core", method: "DELETE", path, json: body, retry: "idempotent" }).catch((e: unknown) => {
      throw asNotFound(e);
    });
  }

  /** Turns the redirect of HTTP to HTTPS on or off for one hostname (sets an absolute value: safe to repeat). */
  async setForceSsl(pullZoneId: number, hostname: string, forceSsl: boolean): Promise<void> {
    const path = encodePath("pullzone", pullZoneId, "setForceSSL");
    const body = validateRequest(ForceSslRequestSchema, { Hostname: hostname, ForceSSL: forceSsl }, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent" });
  }

  /**
   * Adds an edge rule (no Guid) or replaces the rule with that Guid (every field: absent ones are cleared), and
   * answers the rule. An add is a create: a 5xx or timeout is not repeated (look the rule up in the zone).
   */
  async addOrUpdateEdgeRule(pullZoneId: number, request: EdgeRuleRequest): Promise<EdgeRule> {
    const path = encodePath("pullzone", pullZoneId, "edgerules", "addOrUpdate");
    const body = validateRequest(EdgeRuleRequestSchema, request, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: EdgeRuleSchema, retry: body.Guid === undefined ? "create" : "idempotent" });
    if (res.body.Guid === "") throw new UnexpectedResponseError({ method: "POST", path, status: res.status, field: "Guid", serverMessage: "the edge rule came back without its Guid" });
    return res.body;
  }

  /** The zone's edge rules in the order the API lists them (its execution order). NotFoundError if the zone is missing. */
  async listEdgeRules(pullZoneId: number): Promise<EdgeRule[]> {
    return (await this.getPullZone(pullZoneId)).EdgeRules;
  }

  /** Deletes an edge rule (204); a rule or zone that is not there is a NotFoundError. */
  async deleteEdgeRule(pullZoneId: number, guid: string): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("pullzone", pullZoneId, "edgerules", guid), retry: "idempotent" });
  }

  /** Turns an edge rule on or off (sets an absolute value: safe to repeat). */
  async setEdgeRuleEnabled(pullZoneId: number, guid: string, enabled: boolean): Promise<void> {
    const path = encodePath("pullzone", pullZoneId, "edgerules", guid, "setEdgeRuleEnabled");
    const body = validateRequest(EdgeRuleToggleRequestSchema, { Id: pullZoneId, Value: enabled }, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent" });
  }

  /** Purges the zone's whole cache, or only what carries `cacheTag` (204). Safe to repeat: a purge purges again. */
  async purgeCache(pullZoneId: number, cacheTag?: string): Promise<void> {
    const path = encodePath("pullzone", pullZoneId, "purgeCache");
    const body = cacheTag === undefined ? undefined : validateRequest(PurgeRequestSchema, { CacheTag: cacheTag }, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent" });
  }

  /**
   * Purges one URL from every zone that caches it (200); a URL ending in `*` purges everything below it. With
   * `exactPath`, a URL ending in `/` purges that path alone. Waits for the purge unless `async`.
   */
  async purgeUrl(url: string, options: { exactPath?: boolean; async?: boolean } = {}): Promise<void> {
    await this.http.request({ api: "core", method: "POST", path: "/purge", query: { url, exactPath: options.exactPath ?? false, async: options.async ?? false }, retry: "idempotent" });
  }

  /** The CDN's regions (RegionModel), with their codes and traffic prices. */
  async listCdnRegions(): Promise<CdnRegion[]> {
    const res = await this.http.request({ api: "core", method: "GET", path: "/region", responseSchema: CdnRegionListSchema, cacheable: true });
    return res.body;
  }
}
