import { type Hash, createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createReadStream, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorSurface } from "../context";
import { streamError } from "../errorShapes";
import { resetStoreFolder, removeTemporaryFolders, storeFolder } from "../storeFolders";
import { LIBRARY, VIDEO, type VideoLibraryRecord, type VideoRecord } from "./stream";
import { UploadProbe, markUploaded } from "./streamVideos";

/**
 * Stream's resumable uploads (tus), at `/tusupload` of the Stream API's origin (bunny.net serves it at
 * `https://video.bunnycdn.com/tusupload`). Sources: docs.bunny.net "TUS Resumable Uploads"
 * (https://docs.bunny.net/reference/tus-resumable-uploads: create the video first with `POST /library/{id}/videos`,
 * then a tus creation request to `/tusupload` with `AuthorizationSignature` = SHA-256 hex of
 * library id + library API key + expiration time + video id, `AuthorizationExpire` (Unix seconds), `VideoId`,
 * `LibraryId`, and Upload-Metadata `filetype`, `title`, optional `collection`), and the tus resumable upload protocol
 * 1.0.0 (https://tus.io/protocols/resumable-upload: core protocol, the creation extension and the checksum extension (460 Checksum Mismatch); `Tus-Resumable: 1.0.0`,
 * HEAD answering `Upload-Offset` and `Upload-Length`, PATCH with `Content-Type: application/offset+octet-stream` and
 * `Upload-Offset`; 409 on an offset that is not the upload's, 404 for an unknown upload, 412 for another protocol
 * version, 415 for another media type). This route is in no OpenAPI document.
 *
 * Where those sources are silent, decided here (and listed in emulator/README.md):
 * - **The signature** is checked on every request (creation, HEAD, PATCH), as tus clients send their extra headers on
 *   each; a missing, wrong or expired one is 401 with Stream's StatusModel, before anything else is looked at. The
 *   upload must be the signed video's (404 otherwise, as for an unknown upload).
 * - **Creation** needs `Upload-Length` (no deferred length) of 1 byte to TUS_MAX_SIZE (413 above, announced as
 *   `Tus-Max-Size`), Upload-Metadata with `filetype` and `title` (400 otherwise; `collection`, when given, must be a
 *   collection of the library), and a video nothing was uploaded into yet (400 "already uploaded", as the PUT
 *   upload). The answer is 201 with an absolute `Location` on the request's own host.
 * - **The bytes** go to a file on disk beside the store (`<dataPath>.tus/`, or for an in-memory store a temporary
 *   folder removed when the emulator closes), never held in memory; the upload's length and offset are in the store, so an upload survives a
 *   restart of an emulator with a data file. A PATCH whose connection drops keeps the bytes that arrived (the offset a
 *   HEAD then answers). A HEAD or PATCH that arrives while a PATCH of the same upload is still being written waits
 *   for it (HEAD) or is refused with 409 (PATCH), so no offset is ever read half-written. A body that would go past
 *   `Upload-Length` is 413, and nothing past the length is kept.
 * - **Completion**: once the offset reaches the length, the file is read back through the same probe as the direct
 *   `PUT` upload (streamVideos.ts `UploadProbe`: length, SHA-256, whether it is a video, MP4 duration), the video is
 *   marked Uploaded exactly as that upload marks it, and the file is deleted. OPTIONS discovery is not served.
 * - **Checksums** (the tus checksum extension, `Upload-Checksum: sha1 <Base64 digest>`; other algorithms 400): a
 *   PATCH that carries one keeps its bytes only when the whole body arrived and matches (460 Checksum Mismatch
 *   otherwise, the offset unchanged); a body cut short keeps nothing, since it cannot be verified. Without one, what
 *   arrived is kept.
 * - **Accounts**: a tus request carries no AccessKey; with several accounts it runs in the one whose library its
 *   `LibraryId` names (`ownsSignedRequest`).
 */

const TUS_VERSION = "1.0.0";
/** The largest upload accepted (announced as `Tus-Max-Size`). */
const TUS_MAX_SIZE = 256 * 1024 ** 3;
const TUS_UPLOAD = "tusupload";

interface TusUploadRecord {
  uploadId: string;
  libraryId: number;
  videoId: string;
  length: number;
  offset: number;
  metadata: Record<string, string>;
}

/** Upload-Metadata: comma-separated `key base64value` pairs (the value may be absent); undefined when malformed. */
function parseMetadata(header: string | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  if (header === undefined || header.trim() === "") return out;
  for (const pair of header.split(",")) {
    const [key, value, ...rest] = pair.trim().split(" ");
    if (!key || rest.length > 0 || (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value))) return undefined;
    out[key] = value === undefined ? "" : Buffer.from(value, "base64").toString("utf8");
  }
  return out;
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The tus checksum extension's `Upload-Checksum: sha1 <Base64 digest>`; a string says why it is refused. */
function checksumOf(value: string | undefined): { hash: Hash; expected: Buffer } | string | undefined {
  if (value === undefined) return undefined;
  const m = /^(\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(value.trim());
  if (!m) return "Upload-Checksum must be an algorithm and a Base64 digest";
  if (m[1].toLowerCase() !== "sha1") return "Upload-Checksum: the only algorithm supported is sha1";
  return { hash: createHash("sha1"), expected: Buffer.from(m[2], "base64") };
}

export const streamTusSurface: EmulatorSurface = {
  name: "streamTus",
  // A fresh store (first start, or `/_emulator/reset`) has no uploads: bytes left from before go too.
  seed(ctx) {
    resetStoreFolder(ctx, "tus");
    return {};
  },
  // A tus request carries no AccessKey: it runs in the account whose library its `LibraryId` names (ids are unique
  // across accounts), and the route checks its signature there.
  ownsSignedRequest(ctx, headers) {
    const libraryId = Array.isArray(headers.libraryid) ? headers.libraryid[0] : headers.libraryid;
    return libraryId !== undefined && /^\d+$/.test(libraryId) && ctx.store.get(LIBRARY, libraryId) !== undefined;
  },
  routes(app, ctx) {
    /** PATCHes being written, by upload: a HEAD waits for one, another PATCH is refused. */
    const writing = new Map<string, Promise<void>>();
    // Beside the store's data file, or in a temporary folder removed at close (storeFolders.ts).
    app.addHook("onClose", async () => removeTemporaryFolders(ctx, "tus"));
    const fileOf = (id: string) => join(storeFolder(ctx, "tus"), id);

    const tusHeaders = (reply: FastifyReply) => reply.header("tus-resumable", TUS_VERSION);
    const refuse = (reply: FastifyReply, status: number, message: string) => streamError(tusHeaders(reply), status, message);

    /** The library and video the request's signature is valid for; undefined when refused (already answered). */
    const signed = (req: FastifyRequest, reply: FastifyReply): { library: VideoLibraryRecord; video: VideoRecord } | undefined => {
      const denied = (why: string) => void refuse(reply, 401, `Authorization has been denied for this request: ${why}.`);
      const [libraryId, videoId, expire, signature] = ["libraryid", "videoid", "authorizationexpire", "authorizationsignature"].map((h) => header(req, h));
      if (!libraryId || !videoId || !expire || !signature) return denied("send AuthorizationSignature, AuthorizationExpire, VideoId and LibraryId");
      const library = /^\d+$/.test(libraryId) ? ctx.store.get<VideoLibraryRecord>(LIBRARY, libraryId) : undefined;
      if (!library || !/^\d+$/.test(expire)) return denied("the signature is not valid");
      const expected = createHash("sha256").update(`${library.Id}${library.ApiKey}${expire}${videoId}`).digest();
      const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return denied("the signature is not valid");
      if (Number(expire) * 1000 < Date.now()) return denied("the signature has expired");
      const video = ctx.store.get<VideoRecord>(VIDEO, videoId);
      if (!video || video.videoLibraryId !== library.Id) return void refuse(reply, 404, "The requested video was not found");
      return { library, video };
    };
    /** Refuses another protocol version (412, with the version served). */
    const versionRefused = (req: FastifyRequest, reply: FastifyReply): boolean => {
      if (header(req, "tus-resumable") === TUS_VERSION) return false;
      reply.header("tus-version", TUS_VERSION);
      refuse(reply, 412, `Send Tus-Resumable: ${TUS_VERSION}`);
      return true;
    };
    /** The signed request's upload; undefined when refused (already answered). */
    const uploadOf = (req: FastifyRequest, reply: FastifyReply): TusUploadRecord | undefined => {
      const found = signed(req, reply);
      if (!found || versionRefused(req, reply)) return undefined;
      const { uploadId } = req.params as { uploadId: string };
      const upload = ctx.store.get<TusUploadRecord>(TUS_UPLOAD, uploadId);
      if (!upload || upload.videoId !== found.video.guid) return void refuse(reply, 404, "The upload was not found");
      return upload;
    };

    /** The whole file has arrived: probed as the direct upload's body is, the video marked Uploaded, the file deleted. */
    const complete = async (upload: TusUploadRecord): Promise<string | undefined> => {
      const probe = new UploadProbe();
      // Up to the length: bytes of a refused body (a checksum mismatch) may lie past the offset they were written at.
      for await (const chunk of createReadStream(fileOf(upload.uploadId), { end: upload.length - 1 })) probe.update(chunk as Buffer);
      rmSync(fileOf(upload.uploadId), { force: true });
      return markUploaded(ctx, upload.videoId, probe)?.message;
    };

    app.post("/tusupload", async (req, reply) => {
      const found = signed(req, reply);
      if (!found || versionRefused(req, reply)) return reply;
      const lengthHeader = header(req, "upload-length");
      if (lengthHeader === undefined || !/^\d+$/.test(lengthHeader)) return refuse(reply, 400, "Send Upload-Length: the file's size in bytes (deferred lengths are not supported)");
      const length = Number(lengthHeader);
      if (length === 0) return refuse(reply, 400, "The video file is empty");
      if (length > TUS_MAX_SIZE) return refuse(reply.header("tus-max-size", String(TUS_MAX_SIZE)), 413, `The upload is larger than ${TUS_MAX_SIZE} bytes`);
      const metadata = parseMetadata(header(req, "upload-metadata"));
      if (!metadata) return refuse(reply, 400, "Upload-Metadata must be comma-separated pairs of a key and a Base64 value");
      if (!metadata.filetype || !metadata.title) return refuse(reply, 400, "Upload-Metadata must carry filetype and title");
      if (metadata.collection) {
        const collection = ctx.store.get<{ videoLibraryId: number }>("videocollection", metadata.collection);
        if (!collection || collection.videoLibraryId !== found.library.Id) return refuse(reply, 400, "collection: the collection was not found in this library");
      }
      if (found.video.status !== 0) return refuse(reply, 400, "The requested video was already uploaded");
      const upload: TusUploadRecord = { uploadId: randomUUID(), libraryId: found.library.Id, videoId: found.video.guid, length, offset: 0, metadata };
      (await open(fileOf(upload.uploadId), "w")).close();
      ctx.store.put(TUS_UPLOAD, upload.uploadId, upload, found.library.Id);
      const host = header(req, "host") ?? "127.0.0.1";
      return tusHeaders(reply).code(201).header("location", `${req.protocol}://${host}/tusupload/${upload.uploadId}`).send();
    });

    app.head("/tusupload/:uploadId", async (req, reply) => {
      if (!uploadOf(req, reply)) return reply;
      const { uploadId } = req.params as { uploadId: string };
      await writing.get(uploadId);
      const upload = ctx.store.get<TusUploadRecord>(TUS_UPLOAD, uploadId);
      if (!upload) return refuse(reply, 404, "The upload was not found");
      return tusHeaders(reply).code(200).header("upload-offset", String(upload.offset)).header("upload-length", String(upload.length)).header("cache-control", "no-store").send();
    });

    // The body is read as it streams in and written to disk: an upload of any size costs no memory.
    app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_req, payload, done) => done(null, payload));
      scope.patch("/tusupload/:uploadId", async (req, reply) => {
        const upload = uploadOf(req, reply);
        if (!upload) return reply;
        const mediaType = String(header(req, "content-type") ?? "").split(";")[0].trim().toLowerCase();
        if (mediaType !== "application/offset+octet-stream") return refuse(reply, 415, "Send the bytes with Content-Type application/offset+octet-stream");
        const offsetHeader = header(req, "upload-offset");
        if (offsetHeader === undefined || !/^\d+$/.test(offsetHeader)) return refuse(reply, 400, "Send Upload-Offset: where these bytes start");
        if (writing.has(upload.uploadId)) return refuse(reply, 409, "Another PATCH of this upload is being written");
        if (Number(offsetHeader) !== upload.offset) return refuse(reply.header("upload-offset", String(upload.offset)), 409, `Upload-Offset ${offsetHeader} is not the upload's offset (${upload.offset}): ask with HEAD`);
        const declared = header(req, "content-length");
        if (declared !== undefined && upload.offset + Number(declared) > upload.length) return refuse(reply, 413, `The body goes past Upload-Length (${upload.length} bytes)`);
        const checksum = checksumOf(header(req, "upload-checksum"));
        if (typeof checksum === "string") return refuse(reply, 400, checksum);
        let release!: () => void;
        writing.set(upload.uploadId, new Promise<void>((r) => (release = r)));
        let written = 0;
        let tooLong = false;
        let dropped = false;
        try {
          const file = await open(fileOf(upload.uploadId), "r+");
          try {
            for await (const chunk of (req.body as Readable | undefined) ?? []) {
              const bytes = chunk as Buffer;
              const room = upload.length - upload.offset - written;
              const kept = bytes.length > room ? bytes.subarray(0, room) : bytes;
              if (kept.length > 0) await file.write(kept, 0, kept.length, upload.offset + written);
              checksum?.hash.update(kept);
              written += kept.length;
              if (kept.length < bytes.length) {
                tooLong = true;
                break;
              }
            }
          } catch {
            // The connection dropped mid-body: what arrived is kept, and a HEAD tells the client where to resume.
            dropped = true;
          } finally {
            await file.close();
          }
          if (checksum) {
            // Bytes that cannot be verified are not kept: a body cut short, one past the length, one that does not match.
            const cut = dropped || tooLong || (declared !== undefined && written < Number(declared));
            if (cut) return refuse(reply.header("upload-offset", String(upload.offset)), tooLong ? 413 : 400, "The body did not arrive whole, so its checksum cannot be verified: nothing of it was kept");
            if (!checksum.hash.digest().equals(checksum.expected)) return refuse(reply.header("upload-offset", String(upload.offset)), 460, "Checksum Mismatch: nothing of this body was kept");
          }
          const offset = upload.offset + written;
          ctx.store.put(TUS_UPLOAD, upload.uploadId, { ...upload, offset }, upload.libraryId);
          if (tooLong) return refuse(reply.header("upload-offset", String(offset)), 413, `The body goes past Upload-Length (${upload.length} bytes)`);
          if (offset === upload.length) {
            const problem = await complete(upload);
            if (problem) return refuse(reply, 400, problem);
          }
          return tusHeaders(reply).code(204).header("upload-offset", String(offset)).send();
        } finally {
          writing.delete(upload.uploadId);
          release();
        }
      });
    });
  },
};
