import type { RawBody } from "../http/requestSpec";
import { InvalidRequestError, UnauthorizedError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { StorageObjectListSchema, storagePathProblem } from "../schemas/storage";
import type { StorageObject } from "../types.generated";
import type { StorageZonesClient } from "./storageZones";

/**
 * The Storage API: a zone's files, at the zone's storage host (`storage.bunnycdn.com`, `<region>.storage.bunnycdn.com`,
 * or the `storageApiUrl` setting), authenticated with the zone's password as `AccessKey`. No OpenAPI document is
 * published with the others; sources: docs.bunny.net "Storage API" / Edge Storage API reference (PUT
 * `/{storageZoneName}/{path}/{fileName}` → 201, the `Checksum` header (upper-case SHA-256 hex; a mismatch is
 * refused), GET `/{storageZoneName}/{path}/` lists a directory, GET a file downloads it, DELETE → 200, 404 when
 * there is nothing; GET of a file answers its bytes) and docs.bunny.net/storage/http (the hosts per region); BunnyWay/terraform-provider-bunnynet
 * internal/api/storage_file.go (zone read first for its name, host and password; PUT with `Checksum` and
 * `Override-Content-Type`; DELETE expects 200).
 */

/** What reaches a zone's files: its name (the first path segment), its host and its password (a secret). */
export interface StorageZoneAccess {
  zoneId: number;
  name: string;
  hostname: string;
  /** The zone's read-write password: never logged, stored only as a secret. */
  password: string;
}

/** A file found by `listFiles`: its path below the listed directory, size and checksum. */
export interface StoredFile {
  path: string;
  length: number;
  /** Upper-case SHA-256 hex, as the API answers it. */
  checksum: string | null;
}

/** Directories listed at once by `listFiles`. */
const LISTING_CONCURRENCY = 4;

export class StorageClient {
  constructor(
    private readonly http: Transport,
    private readonly zones: StorageZonesClient,
  ) {}

  /** The zone's name, host and password, read from the core API (a cacheable read of the zone, unless `fresh`). */
  async access(zoneId: number, options: { fresh?: boolean } = {}): Promise<StorageZoneAccess> {
    const zone = await this.zones.getStorageZone(zoneId, options);
    return { zoneId, name: zone.Name, hostname: zone.StorageHostname, password: zone.Password };
  }

  /**
   * Runs `work` with the zone's access. A 401 from the Storage API means the zone read was stale (the zone deleted or
   * its password reset since it was cached): the zone is read again, uncached, and `work` runs once more; a zone
   * that is gone is then a NotFoundError ("already gone" for a delete).
   */
  async withZone<T>(zoneId: number, work: (zone: StorageZoneAccess) => Promise<T>): Promise<T> {
    try {
      return await work(await this.access(zoneId));
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
      return work(await this.access(zoneId, { fresh: true }));
    }
  }

  /**
   * Uploads a file (201), replacing one at the same path. `checksum` (SHA-256 hex) makes the server refuse a body that
   * arrived different; `contentType` overrides the type the server would derive from the name. Safe to repeat. A
   * stream of known size (`{ length, open }`, a file on disk) is sent with its Content-Length, one of unknown size
   * (a bare function opening it) chunked.
   */
  async putFile(zone: StorageZoneAccess, path: string, body: RawBody, options: { checksum: string; contentType?: string }): Promise<void> {
    const headers: Record<string, string> = { checksum: options.checksum.toUpperCase() };
    if (options.contentType !== undefined) headers["override-content-type"] = options.contentType;
    await this.http.request({ ...this.target(zone, "PUT", path), body, headers, retry: "idempotent" });
  }

  /**
   * One file's details, from its directory's listing (Terraform sends `DESCRIBE`, a method Node's HTTP parser cannot
   * even read, so an emulator could not serve it); undefined when there is no such file.
   */
  async describeFile(zone: StorageZoneAccess, path: string): Promise<StorageObject | undefined> {
    const at = path.lastIndexOf("/");
    const [directory, name] = at < 0 ? ["", path] : [path.slice(0, at), path.slice(at + 1)];
    this.filePath(zone, path);
    return (await this.listDirectory(zone, directory)).find((o) => !o.IsDirectory && o.ObjectName === name);
  }

  /**
   * A file's content (GET of the file), refused (an InvalidRequestError, nothing kept) once it passes `maxBytes`:
   * the caller bounds what it holds in memory. A file that is not there is a NotFoundError.
   */
  async readFile(zone: StorageZoneAccess, path: string, maxBytes: number): Promise<Buffer> {
    const res = await this.http.stream({ api: "storage", storageHost: zone.hostname, auth: { accessKey: zone.password }, method: "GET", path: this.filePath(zone, path), retry: "idempotent" });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        res.body.destroy();
        throw new InvalidRequestError("GET", `/${zone.name}/${path}`, [{ field: "path", message: `is larger than ${maxBytes} bytes` }]);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /** Deletes a file (200); one that is not there is a NotFoundError. Safe to repeat. */
  async deleteFile(zone: StorageZoneAccess, path: string): Promise<void> {
    await this.http.request({ ...this.target(zone, "DELETE", path), retry: "idempotent" });
  }

  /** The objects of one directory (`""`: the zone's root); a directory that is not there lists nothing. */
  async listDirectory(zone: StorageZoneAccess, directory: string): Promise<StorageObject[]> {
    const path = directory === "" ? `${encodePath(zone.name)}/` : `${this.filePath(zone, directory)}/`;
    const res = await this.http.request({ api: "storage", storageHost: zone.hostname, auth: { accessKey: zone.password }, method: "GET", path, responseSchema: StorageObjectListSchema });
    return res.body;
  }

  /**
   * Every file below `directory`, its subdirectories walked a few at a time; paths are relative to `directory`.
   * Bounded by the transport's `maxItems` (files) and `maxPages` (directories).
   */
  async listFiles(zone: StorageZoneAccess, directory: string): Promise<StoredFile[]> {
    const { maxItems, maxPages } = this.http.limits;
    const files: StoredFile[] = [];
    let pending = [""];
    let listed = 0;
    while (pending.length > 0) {
      const batch = pending.slice(0, LISTING_CONCURRENCY);
      pending = pending.slice(LISTING_CONCURRENCY);
      listed += batch.length;
      if (listed > maxPages) throw new InvalidRequestError("GET", `/${zone.name}/${directory}`, [{ field: "directory", message: `holds more than ${maxPages} directories (maxPages)` }]);
      const listings = await Promise.all(batch.map((rel) => this.listDirectory(zone, join(directory, rel)).then((objects) => ({ rel, objects }))));
      for (const { rel, objects } of listings) {
        for (const o of objects) {
          const path = join(rel, o.ObjectName);
          if (storagePathProblem(path) !== undefined) continue; // a name this package could never address
          if (o.IsDirectory) pending.push(path);
          else files.push({ path, length: o.Length, checksum: o.Checksum });
        }
      }
      if (files.length > maxItems) throw new InvalidRequestError("GET", `/${zone.name}/${directory}`, [{ field: "directory", message: `holds more than ${maxItems} files (maxItems)` }]);
    }
    return files;
  }

  private target(zone: StorageZoneAccess, method: "PUT" | "DELETE", path: string) {
    return { api: "storage" as const, storageHost: zone.hostname, auth: { accessKey: zone.password }, method, path: this.filePath(zone, path) };
  }

  /** `/{zone}/{segments…}`, each segment encoded; a path no file can have is refused before sending. */
  private filePath(zone: StorageZoneAccess, path: string): string {
    const problem = storagePathProblem(path);
    if (problem) throw new InvalidRequestError("", "(storage path)", [{ field: "path", message: problem }]);
    return encodePath(zone.name, ...path.split("/"));
  }
}

function join(directory: string, name: string): string {
  return directory === "" || name === "" ? directory + name : `${directory}/${name}`;
}
