import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { resetStoreFolder, removeTemporaryFolders, storeFolder } from "../storeFolders";
import { accessKeyOf } from "../context";
import { storageError } from "../errorShapes";

/**
 * The Storage API: a zone's files, served under `/storage` (the real API is a host per region:
 * storage.bunnycdn.com, ny.storage.bunnycdn.com…; the provider's `storageApiUrl` points here). Sources:
 * docs.bunny.net "Storage API" / Edge Storage API reference (PUT `/{storageZoneName}/{path}/{fileName}` → 201 with
 * the body raw, the optional `Checksum` header (SHA-256 hex) refused when it does not match, GET of a directory with a
 * trailing `/` → the objects in it (ObjectName, Path, Length, IsDirectory, Checksum, LastChanged, DateCreated,
 * ContentType, Guid, StorageZoneName, StorageZoneId), GET of a file → its bytes, DELETE → 200 (a directory: with
 * everything in it), 404 for nothing there; `AccessKey` is the zone's password, the read-only one for reads);
 * BunnyWay/terraform-provider-bunnynet internal/api/storage_file.go (upper-case checksum, `Override-Content-Type`);
 * bunny.net's own client, `@bunny.net/storage-sdk` 0.3.1 (dist/lib.js, checked by tests/emulator/storageSdk.test.ts):
 * `DESCRIBE /{zone}/{path}` answers one object as a listing shows it (`file.get`, lines 154-190; the emulator had no
 * DESCRIBE before), a listing's entries carry `UserId`, `ServerId`, `ReplicatedZones` (null) besides the above
 * (lines 119-135), and 400/401/404 are what the client tells apart (lines 274-287).
 *
 * Where the documents are silent, the emulator decides:
 * - Errors are `{HttpCode, Message}`; an unknown zone name or a wrong password is 401.
 * - Directories exist while a file is below them (they are listed, not stored), or once made by a PUT; listing one
 *   with nothing in it answers `[]`.
 * - The checksum listed is the upper-case SHA-256 of the bytes stored; the content type is the override, else
 *   `application/octet-stream`.
 * - File bodies live on disk, one file per upload (never shared, so an overwrite or delete removes its own body with no
 *   race against a concurrent upload of the same bytes), beside the SQLite file (`<dataPath>.files/`), or in a
 *   temporary directory removed at close for an in-memory store; the metadata is a document of the store.
 * - Deleting a storage zone deletes its files.
 * - A body is at most MAX_FILE_BYTES.
 * - DESCRIBE of a directory (a path with files below it) answers its entry, `IsDirectory: true`; of the zone's root, 404.
 * - A PUT of a directory (a path ending in `/`: the SDK's `createDirectory`, dist/lib.js:227-234) makes it, empty: it
 *   is listed, described and deleted as a directory (201; again, the same). Other directories exist while a file is
 *   below them.
 */

export const STORAGE_PREFIX = "/storage";
const KIND = "storagefile";
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

interface ZoneRecord {
  Id: number;
  Name: string;
  Password: string;
  ReadOnlyPassword: string;
}

interface StoredFileRecord {
  Guid: string;
  StorageZoneId: number;
  /** The file's path inside the zone, without a leading slash: `css/site.css`. */
  FullPath: string;
  Length: number;
  Checksum: string;
  /** The body's file name in the blob directory. */
  Blob: string;
  ContentType: string;
  DateCreated: string;
  LastChanged: string;
}

/** Where the bodies of this store live (created on first use; storeFolders.ts). */
const blobDir = (ctx: EmulatorContext): string => storeFolder(ctx, "files");

const fileId = (zoneId: number, path: string) => `${zoneId}:${path}`;

function zoneByName(ctx: EmulatorContext, name: string): ZoneRecord | undefined {
  const wanted = name.toLowerCase();
  return ctx.store.list<ZoneRecord>("storagezone").find((z) => z.Name.toLowerCase() === wanted);
}

/** The zone and the path below it that the URL names, with the caller's rights; undefined after answering an error. */
function resolve(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply, write: boolean): { zone: ZoneRecord; path: string; directory: boolean } | undefined {
  const raw = req.url.split("?")[0].slice(STORAGE_PREFIX.length + 1);
  let segments: string[];
  try {
    segments = raw.split("/").map(decodeURIComponent);
  } catch {
    storageError(reply, 400, "The path is not valid.");
    return undefined;
  }
  const zone = zoneByName(ctx, segments[0] ?? "");
  const key = accessKeyOf(req);
  if (!zone || key === undefined || (key !== zone.Password && (write || key !== zone.ReadOnlyPassword))) {
    storageError(reply, 401, "Unauthorized");
    return undefined;
  }
  const rest = segments.slice(1);
  const directory = rest.length === 0 || rest[rest.length - 1] === "";
  const parts = rest.filter((s) => s !== "");
  if (parts.some((s) => s === "." || s === "..")) {
    storageError(reply, 400, "The path is not valid.");
    return undefined;
  }
  return { zone, path: parts.join("/"), directory };
}

function filesOf(ctx: EmulatorContext, zoneId: number): StoredFileRecord[] {
  return ctx.store.list<StoredFileRecord>(KIND, zoneId);
}

/** Removes a body (a file's record no longer names it). */
async function dropBlob(ctx: EmulatorContext, blob: string): Promise<void> {
  await unlink(join(blobDir(ctx), blob)).catch(() => undefined);
}

async function deleteFile(ctx: EmulatorContext, file: StoredFileRecord): Promise<void> {
  ctx.store.delete(KIND, fileId(file.StorageZoneId, file.FullPath));
  if (file.Blob !== "") await dropBlob(ctx, file.Blob);
}

/**
 * A directory made by a PUT of its path (`dir/`): a record with no body whose path ends in `/`, so it is listed as a
 * subdirectory of its parent, described and deleted as one, while nothing is below it.
 */
function directoryMarker(zoneId: number, path: string): StoredFileRecord {
  const now = new Date().toISOString();
  return { Guid: directoryGuid(zoneId, path), StorageZoneId: zoneId, FullPath: `${path}/`, Length: 0, Checksum: "", Blob: "", ContentType: "", DateCreated: now, LastChanged: now };
}

/** Deletes every file of a zone (the zone is being deleted). */
export function deleteZoneFiles(ctx: EmulatorContext, zoneId: number): void {
  const files = filesOf(ctx, zoneId);
  for (const f of files) ctx.store.delete(KIND, fileId(zoneId, f.FullPath));
  void Promise.all(files.filter((f) => f.Blob !== "").map((f) => dropBlob(ctx, f.Blob)));
}

/**
 * A directory's Guid: the same in every listing (the API's directories are objects with one identity; a listing that
 * changed each time would show every read as a change), derived from the zone and the path.
 */
function directoryGuid(zoneId: number, path: string): string {
  const h = createHash("sha256").update(`${zoneId}/${path}/`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The object `name` in the directory `prefix` (`""` or ending in `/`), as a listing and DESCRIBE show it. */
function entry(zone: ZoneRecord, prefix: string, name: string, f: StoredFileRecord, isDirectory: boolean): Record<string, unknown> {
  const base = { StorageZoneName: zone.Name, Path: `/${zone.Name}/${prefix}`, ObjectName: name, ServerId: 0, UserId: "emulator-user", ReplicatedZones: null, StorageZoneId: zone.Id, LastChanged: f.LastChanged, DateCreated: f.DateCreated };
  return isDirectory
    ? { ...base, Guid: directoryGuid(zone.Id, `${prefix}${name}`), Length: 0, IsDirectory: true, ContentType: "", Checksum: null }
    : { ...base, Guid: f.Guid, Length: f.Length, IsDirectory: false, ContentType: f.ContentType, Checksum: f.Checksum };
}

/** The listing of a directory: its files, and one entry per subdirectory that holds something. */
function listing(zone: ZoneRecord, files: StoredFileRecord[], directory: string): Record<string, unknown>[] {
  const prefix = directory === "" ? "" : `${directory}/`;
  const dirs = new Map<string, StoredFileRecord>();
  const out: Record<string, unknown>[] = [];
  for (const f of files) {
    if (!f.FullPath.startsWith(prefix)) continue;
    const rest = f.FullPath.slice(prefix.length);
    if (rest === "") continue; // the marker of the directory listed
    const slash = rest.indexOf("/");
    if (slash >= 0) {
      if (!dirs.has(rest.slice(0, slash))) dirs.set(rest.slice(0, slash), f);
      continue;
    }
    out.push(entry(zone, prefix, rest, f, false));
  }
  for (const [name, f] of dirs) out.push(entry(zone, prefix, name, f, true));
  return out.sort((a, b) => Number(b.IsDirectory) - Number(a.IsDirectory) || String(a.ObjectName).localeCompare(String(b.ObjectName)));
}

/** DESCRIBE: the one object at `path` (a file, or a directory with something below it), as its directory lists it. */
function described(zone: ZoneRecord, files: StoredFileRecord[], path: string): Record<string, unknown> | undefined {
  if (path === "") return undefined;
  const slash = path.lastIndexOf("/");
  const [prefix, name] = [path.slice(0, slash + 1), path.slice(slash + 1)];
  const file = files.find((f) => f.FullPath === path);
  if (file) return entry(zone, prefix, name, file, false);
  const below = files.find((f) => f.FullPath.startsWith(`${path}/`));
  return below ? entry(zone, prefix, name, below, true) : undefined;
}

/** Streams the body to a temporary file while hashing it; the body's checksum and length. */
async function receive(ctx: EmulatorContext, body: Readable | undefined): Promise<{ temp: string; checksum: string; length: number } | { tooLarge: true }> {
  const temp = join(blobDir(ctx), `.upload-${randomUUID()}`);
  const hash = createHash("sha256");
  let length = 0;
  let tooLarge = false;
  const source = body ?? (await import("node:stream")).Readable.from([]);
  try {
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          length += chunk.length;
          if (length > MAX_FILE_BYTES) {
            tooLarge = true;
            throw new Error("too large");
          }
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(temp),
    );
  } catch (e) {
    await rm(temp, { force: true });
    if (tooLarge) return { tooLarge: true };
    throw e;
  }
  return { temp, checksum: hash.digest("hex").toUpperCase(), length };
}

/**
 * `DESCRIBE`, the Storage API's method for one object's metadata, cannot reach a Node server as sent: Node's HTTP
 * parser (llhttp) knows it as an RTSP method and drops an HTTP/1.1 request with it ("Invalid method for HTTP/x.x
 * request"), and Fastify routes only `http.METHODS`. So a request line that starts a chunk with `DESCRIBE ` is
 * rewritten in place, before the parser reads it, to a method of the same length Node accepts, and the socket is
 * marked: the stand-in's route answers it as DESCRIBE when the mark is there, and refuses it otherwise. Clients send a
 * request's head in one write and the next request only after the answer (no pipelining), so the head starts a chunk.
 */
const DESCRIBE = Buffer.from("DESCRIBE ");
const DESCRIBE_STAND_IN = "PROPFIND";
const describing = new WeakSet<object>();

export function acceptDescribe(server: Server, event: "connection" | "secureConnection" = "connection"): void {
  const standIn = Buffer.from(`${DESCRIBE_STAND_IN} `);
  // Over TLS the bytes to rewrite are the decrypted ones: those of the TLS socket, which "secureConnection" hands over.
  server.on(event, (socket: Socket) =>
    // A "data" listener added after the server's own turns off its native read path, so the listener first sees every chunk.
    socket.prependListener("data", (chunk: Buffer) => {
      if (chunk.length < DESCRIBE.length || !chunk.subarray(0, DESCRIBE.length).equals(DESCRIBE)) return;
      standIn.copy(chunk);
      describing.add(socket);
    }),
  );
}

export const storageSurface: EmulatorSurface = {
  name: "storage",
  // A fresh store (first start, or `/_emulator/reset`) holds no files: bodies left from before go too.
  ownsKey: (ctx, key) =>
    ctx.store.derived("storagezone", "passwords", () => new Set(ctx.store.list<ZoneRecord>("storagezone").flatMap((z) => [z.Password, z.ReadOnlyPassword]))).has(key),
  seed(ctx) {
    resetStoreFolder(ctx, "files");
    return {};
  },
  routes(app, ctx) {
    acceptDescribe(app.server);
    if (!app.supportedMethods.includes(DESCRIBE_STAND_IN)) app.addHttpMethod(DESCRIBE_STAND_IN);
    app.addHook("onClose", async () => removeTemporaryFolders(ctx, "files"));
    // Bodies are streamed to disk, never parsed or buffered: every content type is handed over as the raw stream.
    app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_req, payload, done) => done(null, payload));

      scope.put(`${STORAGE_PREFIX}/:storageZoneName/*`, async (req, reply) => {
        const target = resolve(ctx, req, reply, true);
        if (!target) return reply;
        if (target.path === "") return storageError(reply, 400, "A file name is required.");
        if (target.directory) {
          const id = fileId(target.zone.Id, `${target.path}/`);
          if (!ctx.store.get<StoredFileRecord>(KIND, id)) ctx.store.put(KIND, id, directoryMarker(target.zone.Id, target.path), target.zone.Id);
          return reply.code(201).send({ HttpCode: 201, Message: "Directory created." });
        }
        const received = await receive(ctx, req.body as Readable | undefined);
        if ("tooLarge" in received) return storageError(reply, 413, "The file is too large.");
        const expected = req.headers["checksum"];
        if (typeof expected === "string" && expected !== "" && expected.toUpperCase() !== received.checksum) {
          await rm(received.temp, { force: true });
          return storageError(reply, 400, "The checksum of the uploaded file does not match the Checksum header.");
        }
        const blob = randomUUID();
        await rename(received.temp, join(blobDir(ctx), blob));
        const id = fileId(target.zone.Id, target.path);
        const previous = ctx.store.get<StoredFileRecord>(KIND, id);
        const now = new Date().toISOString();
        const override = req.headers["override-content-type"];
        const file: StoredFileRecord = {
          Guid: previous?.Guid ?? randomUUID(),
          StorageZoneId: target.zone.Id,
          FullPath: target.path,
          Length: received.length,
          Checksum: received.checksum,
          Blob: blob,
          ContentType: typeof override === "string" && override !== "" ? override : "application/octet-stream",
          DateCreated: previous?.DateCreated ?? now,
          LastChanged: now,
        };
        ctx.store.put(KIND, id, file, target.zone.Id);
        if (previous) await dropBlob(ctx, previous.Blob);
        return reply.code(201).send({ HttpCode: 201, Message: "File uploaded." });
      });

      scope.get(`${STORAGE_PREFIX}/:storageZoneName/*`, async (req, reply) => {
        const target = resolve(ctx, req, reply, false);
        if (!target) return reply;
        if (target.directory) return listing(target.zone, filesOf(ctx, target.zone.Id), target.path);
        const file = ctx.store.get<StoredFileRecord>(KIND, fileId(target.zone.Id, target.path));
        if (!file) return storageError(reply, 404, "Object Not Found");
        return reply.header("content-type", file.ContentType).header("content-length", String(file.Length)).send(createReadStream(join(blobDir(ctx), file.Blob)));
      });

      scope.route({
        method: DESCRIBE_STAND_IN,
        url: `${STORAGE_PREFIX}/:storageZoneName/*`,
        handler: async (req, reply) => {
          if (!describing.delete(req.raw.socket)) return storageError(reply, 405, "Method not allowed.");
          const target = resolve(ctx, req, reply, false);
          if (!target) return reply;
          return described(target.zone, filesOf(ctx, target.zone.Id), target.path) ?? storageError(reply, 404, "Object Not Found");
        },
      });

      scope.delete(`${STORAGE_PREFIX}/:storageZoneName/*`, async (req, reply) => {
        const target = resolve(ctx, req, reply, true);
        if (!target) return reply;
        const prefix = target.path === "" ? "" : `${target.path}/`;
        const doomed = target.directory
          ? filesOf(ctx, target.zone.Id).filter((f) => f.FullPath.startsWith(prefix))
          : [ctx.store.get<StoredFileRecord>(KIND, fileId(target.zone.Id, target.path))].filter((f) => f !== undefined);
        if (doomed.length === 0) return storageError(reply, 404, "Object Not Found");
        for (const f of doomed) await deleteFile(ctx, f);
        return reply.code(200).send({ HttpCode: 200, Message: "File deleted successfuly." });
      });
    });
  },
};
