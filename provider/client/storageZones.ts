import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { StorageZoneAddRequestSchema, StorageZoneListSchema, StorageZoneSchema, StorageZoneUpdateRequestSchema } from "../schemas/storageZones";
import { listCore } from "./coreListing";
import type { StorageZone, StorageZoneAddRequest, StorageZoneUpdateRequest } from "../types.generated";

/**
 * Storage zones. Sources: core-api-v1.0.0.json (StorageZonePublic_Add → 201 StorageZoneModel, _Index, _IndexAll
 * (an array; `search`, `page` ≥ 1, `perPage` 5..1000), _Update → 204, _Delete with `deleteLinkedPullZones`
 * (default true: the zone's pull zones go with it)); BunnyWay/terraform-provider-bunnynet internal/api/storage_zone.go
 * (create, then the settings through the update). The passwords in every answer are secrets.
 */
export class StorageZonesClient {
  constructor(private readonly http: Transport) {}

  /** Creates a zone (201 with the zone, passwords included). A create: a 5xx or timeout is not repeated. */
  async createStorageZone(request: StorageZoneAddRequest): Promise<StorageZone> {
    const body = validateRequest(StorageZoneAddRequestSchema, request, "POST", "/storagezone");
    const res = await this.http.request({ api: "core", method: "POST", path: "/storagezone", json: body, responseSchema: StorageZoneSchema, retry: "create" });
    return res.body;
  }

  /** The zone; `fresh` skips the provider's deployment-scoped read cache (after an answer that says it is stale). */
  async getStorageZone(id: number, options: { fresh?: boolean } = {}): Promise<StorageZone> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("storagezone", id), responseSchema: StorageZoneSchema, cacheable: options.fresh !== true });
    return res.body;
  }

  /** Changes the settings (204): replication regions can be added (never removed), 404 handling, origin URL. Safe to repeat. */
  async updateStorageZone(id: number, request: StorageZoneUpdateRequest): Promise<void> {
    const path = encodePath("storagezone", id);
    const body = validateRequest(StorageZoneUpdateRequestSchema, request, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent" });
  }

  /**
   * Deletes the zone. `deleteLinkedPullZones` (the API's default: true) deletes the pull zones on it too; pass
   * false to keep them. A zone that is not there is a NotFoundError.
   */
  async deleteStorageZone(id: number, options: { deleteLinkedPullZones?: boolean } = {}): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("storagezone", id), query: { deleteLinkedPullZones: options.deleteLinkedPullZones }, retry: "idempotent" });
  }

  /** Every zone of the account (optionally those whose name contains `search`), page by page (see listCore). */
  async *listStorageZones(options: { search?: string; perPage?: number } = {}): AsyncGenerator<StorageZone> {
    for await (const zone of listCore(this.http, "/storagezone", StorageZoneListSchema, options)) if (!zone.Deleted) yield zone;
  }

  /** The zone with that name (names are unique across bunny.net; compared case-insensitively), or undefined. */
  async findStorageZoneByName(name: string): Promise<StorageZone | undefined> {
    const wanted = name.toLowerCase();
    for await (const zone of this.listStorageZones({ search: name })) if (zone.Name.toLowerCase() === wanted) return zone;
    return undefined;
  }
}
