import { NotFoundError, ValidationError } from "../http/errors";
import { type Transport, encodePath, validateRequest } from "../http/transport";
import { HostnameRequestSchema, PullZoneSchema } from "../schemas/pullZones";
import type { Hostname, PullZone } from "../types.generated";

/** The core API answers 400 (not 404) when the hostname to remove is not on the zone. */
const HOSTNAME_MISSING = /not[ _.-]?found|not exist/i;

/** Pull zones (`GET /pullzone/{id}`) and their custom hostnames. Hostnames are lowercased before sending. */
export class PullZonesClient {
  constructor(private readonly http: Transport) {}

  async getPullZone(id: number): Promise<PullZone> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("pullzone", id), responseSchema: PullZoneSchema });
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
    const path = encodePath("pullzone", pullZoneId, "removeHostname");
    const body = validateRequest(HostnameRequestSchema, { Hostname: hostname }, "DELETE", path);
    try {
      await this.http.request({ api: "core", method: "DELETE", path, json: body, retry: "idempotent" });
    } catch (e) {
      if (e instanceof ValidationError && HOSTNAME_MISSING.test(`${e.errorKey ?? ""} ${e.serverMessage ?? ""}`)) {
        const gone = new NotFoundError({ method: e.method, path: e.path, status: e.status, serverMessage: e.serverMessage, errorKey: e.errorKey, field: e.field });
        gone.attempts = e.attempts;
        throw gone;
      }
      throw e;
    }
  }

  /** The zone's hostname with that value (compared case-insensitively), or undefined. NotFoundError if the zone is missing. */
  async findHostname(pullZoneId: number, hostname: string): Promise<Hostname | undefined> {
    const wanted = hostname.toLowerCase();
    const zone = await this.getPullZone(pullZoneId);
    return zone.Hostnames.find((h) => h.Value.toLowerCase() === wanted);
  }
}
