import assert from "node:assert/strict";
import { request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * Every API route of the emulator, called with no key, a wrong key, and the other kind of key
 * (a video library's key on account routes, the account key on Stream routes), must refuse with the
 * status and error shape of its own API, before any validation or lookup.
 */

/** `accountJwt`: the edge-database and team-member routes, which take only the JWT of `POST /apikey/exchange` (never a key). */
type Family = "core" | "shield" | "containers" | "stream" | "logging" | "storage" | "accountJwt";

interface RouteCase {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "PROPFIND";
  /** The method sent, when the route is registered under a stand-in for it (DESCRIBE: emulator/surfaces/storage.ts). */
  sent?: "DESCRIBE";
  /** The route pattern as registered. */
  route: string;
  url: (f: TestEmulator["fixtures"]) => string;
  family: Family;
  body?: unknown;
}

const today = () => {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}-${two(d.getUTCFullYear() % 100)}`;
};

const CASES: RouteCase[] = [
  { method: "GET", route: "/apikey", url: () => "/apikey", family: "core" },
  { method: "POST", route: "/user/closeaccount", url: () => "/user/closeaccount", family: "core", body: { Password: "x" } },
  { method: "GET", route: "/pullzone/:id", url: (f) => `/pullzone/${f.pullZoneId}`, family: "core" },
  { method: "GET", route: "/pullzone", url: () => "/pullzone", family: "core" },
  { method: "POST", route: "/pullzone", url: () => "/pullzone", family: "core", body: { Name: "auth-zone", OriginUrl: "https://a.example" } },
  { method: "POST", route: "/pullzone/:id", url: (f) => `/pullzone/${f.pullZoneId}`, family: "core", body: { EnableLogging: false } },
  { method: "DELETE", route: "/pullzone/:id", url: (f) => `/pullzone/${f.pullZoneId}`, family: "core" },
  { method: "GET", route: "/storagezone", url: () => "/storagezone", family: "core" },
  { method: "POST", route: "/storagezone", url: () => "/storagezone", family: "core", body: { Name: "auth-files", Region: "DE" } },
  { method: "GET", route: "/storagezone/:id", url: () => "/storagezone/1", family: "core" },
  { method: "POST", route: "/storagezone/:id", url: () => "/storagezone/1", family: "core", body: { Rewrite404To200: true } },
  { method: "DELETE", route: "/storagezone/:id", url: () => "/storagezone/1", family: "core" },
  { method: "POST", route: "/pullzone/:id/addHostname", url: (f) => `/pullzone/${f.pullZoneId}/addHostname`, family: "core", body: { Hostname: "auth.example.com" } },
  { method: "DELETE", route: "/pullzone/:id/removeHostname", url: (f) => `/pullzone/${f.pullZoneId}/removeHostname`, family: "core", body: { Hostname: "auth.example.com" } },
  { method: "GET", route: "/pullzone/loadFreeCertificate", url: (f) => `/pullzone/loadFreeCertificate?hostname=${f.dnsPendingHostname}`, family: "core" },
  { method: "POST", route: "/pullzone/:id/addCertificate", url: (f) => `/pullzone/${f.pullZoneId}/addCertificate`, family: "core", body: { Hostname: "auth.example.com", Certificate: "QQ==", CertificateKey: "QQ==" } },
  { method: "DELETE", route: "/pullzone/:id/removeCertificate", url: (f) => `/pullzone/${f.pullZoneId}/removeCertificate`, family: "core", body: { Hostname: "auth.example.com" } },
  { method: "POST", route: "/pullzone/:id/setForceSSL", url: (f) => `/pullzone/${f.pullZoneId}/setForceSSL`, family: "core", body: { Hostname: "auth.example.com", ForceSSL: true } },
  { method: "POST", route: "/pullzone/:id/edgerules/addOrUpdate", url: (f) => `/pullzone/${f.pullZoneId}/edgerules/addOrUpdate`, family: "core", body: { ActionType: 4, Triggers: [{ Type: 0, PatternMatches: ["*"] }] } },
  { method: "DELETE", route: "/pullzone/:id/edgerules/:guid", url: (f) => `/pullzone/${f.pullZoneId}/edgerules/unknown`, family: "core" },
  { method: "POST", route: "/pullzone/:id/edgerules/:guid/setEdgeRuleEnabled", url: (f) => `/pullzone/${f.pullZoneId}/edgerules/unknown/setEdgeRuleEnabled`, family: "core", body: { Id: 1, Value: true } },
  { method: "POST", route: "/pullzone/:id/purgeCache", url: (f) => `/pullzone/${f.pullZoneId}/purgeCache`, family: "core" },
  { method: "POST", route: "/purge", url: () => "/purge?url=https%3A%2F%2Fa.example%2Fx", family: "core" },
  { method: "GET", route: "/region", url: () => "/region", family: "core" },
  { method: "GET", route: "/dnszone", url: () => "/dnszone", family: "core" },
  { method: "POST", route: "/dnszone", url: () => "/dnszone", family: "core", body: { Domain: "auth.example.com" } },
  { method: "GET", route: "/dnszone/:id", url: (f) => `/dnszone/${f.dnsZoneId}`, family: "core" },
  { method: "POST", route: "/dnszone/:id", url: (f) => `/dnszone/${f.dnsZoneId}`, family: "core", body: { LoggingEnabled: true } },
  { method: "DELETE", route: "/dnszone/:id", url: (f) => `/dnszone/${f.dnsZoneId}`, family: "core" },
  { method: "POST", route: "/dnszone/:id/dnssec", url: (f) => `/dnszone/${f.dnsZoneId}/dnssec`, family: "core" },
  { method: "DELETE", route: "/dnszone/:id/dnssec", url: (f) => `/dnszone/${f.dnsZoneId}/dnssec`, family: "core" },
  { method: "PUT", route: "/dnszone/:zoneId/records", url: (f) => `/dnszone/${f.dnsZoneId}/records`, family: "core", body: { Type: 3, Name: "auth", Value: "x" } },
  { method: "POST", route: "/dnszone/:zoneId/records/:id", url: (f) => `/dnszone/${f.dnsZoneId}/records/1`, family: "core", body: { Value: "y" } },
  { method: "DELETE", route: "/dnszone/:zoneId/records/:id", url: (f) => `/dnszone/${f.dnsZoneId}/records/1`, family: "core" },
  { method: "GET", route: "/compute/script/:id/secrets", url: (f) => `/compute/script/${f.scriptId}/secrets`, family: "core" },
  { method: "POST", route: "/compute/script/:id/secrets", url: (f) => `/compute/script/${f.scriptId}/secrets`, family: "core", body: { Name: "AUTH", Secret: "x" } },
  { method: "PUT", route: "/compute/script/:id/secrets", url: (f) => `/compute/script/${f.scriptId}/secrets`, family: "core", body: { Name: "AUTH", Secret: "x" } },
  { method: "POST", route: "/compute/script/:id/secrets/:secretId", url: (f) => `/compute/script/${f.scriptId}/secrets/1`, family: "core", body: { Secret: "x" } },
  { method: "DELETE", route: "/compute/script/:id/secrets/:secretId", url: (f) => `/compute/script/${f.scriptId}/secrets/1`, family: "core" },
  { method: "GET", route: "/videolibrary/:id", url: (f) => `/videolibrary/${f.videoLibraryId}`, family: "core" },
  { method: "GET", route: "/videolibrary", url: () => "/videolibrary", family: "core" },
  { method: "GET", route: "/videolibrary/languages", url: () => "/videolibrary/languages", family: "core" },
  { method: "POST", route: "/videolibrary", url: () => "/videolibrary", family: "core", body: {} },
  { method: "POST", route: "/videolibrary/:id", url: (f) => `/videolibrary/${f.videoLibraryId}`, family: "core", body: {} },
  { method: "DELETE", route: "/videolibrary/:id", url: (f) => `/videolibrary/${f.videoLibraryId}`, family: "core" },
  { method: "POST", route: "/videolibrary/:id/resetApiKey", url: (f) => `/videolibrary/${f.videoLibraryId}/resetApiKey`, family: "core" },
  { method: "GET", route: "/compute/script/:id", url: (f) => `/compute/script/${f.scriptId}`, family: "core" },
  { method: "POST", route: "/compute/script/:id/variables/add", url: (f) => `/compute/script/${f.scriptId}/variables/add`, family: "core", body: { Name: "AUTH", Required: false } },
  { method: "GET", route: "/compute/script/:id/variables/:variableId", url: (f) => `/compute/script/${f.scriptId}/variables/1`, family: "core" },
  { method: "POST", route: "/compute/script/:id/variables/:variableId", url: (f) => `/compute/script/${f.scriptId}/variables/1`, family: "core", body: { Required: true } },
  { method: "DELETE", route: "/compute/script/:id/variables/:variableId", url: (f) => `/compute/script/${f.scriptId}/variables/1`, family: "core" },
  { method: "GET", route: "/compute/script", url: () => "/compute/script", family: "core" },
  { method: "POST", route: "/compute/script", url: () => "/compute/script", family: "core", body: { Name: "auth", ScriptType: 1 } },
  { method: "POST", route: "/compute/script/:id", url: (f) => `/compute/script/${f.scriptId}`, family: "core", body: { Name: "auth" } },
  { method: "DELETE", route: "/compute/script/:id", url: (f) => `/compute/script/${f.scriptId}`, family: "core" },
  { method: "GET", route: "/compute/script/:id/code", url: (f) => `/compute/script/${f.scriptId}/code`, family: "core" },
  { method: "POST", route: "/compute/script/:id/code", url: (f) => `/compute/script/${f.scriptId}/code`, family: "core", body: { Code: "x" } },
  { method: "POST", route: "/compute/script/:id/publish", url: (f) => `/compute/script/${f.scriptId}/publish`, family: "core", body: {} },
  { method: "POST", route: "/compute/script/:id/publish/:uuid", url: (f) => `/compute/script/${f.scriptId}/publish/00000000-0000-0000-0000-000000000000`, family: "core", body: {} },
  { method: "GET", route: "/compute/script/:id/releases", url: (f) => `/compute/script/${f.scriptId}/releases`, family: "core" },
  { method: "GET", route: "/compute/script/:id/releases/active", url: (f) => `/compute/script/${f.scriptId}/releases/active`, family: "core" },
  { method: "PUT", route: "/compute/script/:id/variables", url: (f) => `/compute/script/${f.scriptId}/variables`, family: "core", body: { Name: "AUTH", Required: false } },
  { method: "GET", route: "/shield/shield-zone/get-by-pullzone/:pullZoneId", url: (f) => `/shield/shield-zone/get-by-pullzone/${f.pullZoneId}`, family: "shield" },
  { method: "GET", route: "/shield/shield-zone/:shieldZoneId", url: (f) => `/shield/shield-zone/${f.shieldZoneId}`, family: "shield" },
  { method: "POST", route: "/shield/shield-zone", url: () => "/shield/shield-zone", family: "shield", body: {} },
  { method: "PATCH", route: "/shield/shield-zone", url: () => "/shield/shield-zone", family: "shield", body: {} },
  { method: "POST", route: "/shield/rate-limit", url: () => "/shield/rate-limit", family: "shield", body: {} },
  { method: "GET", route: "/shield/rate-limit/:id", url: () => "/shield/rate-limit/1", family: "shield" },
  { method: "GET", route: "/shield/rate-limits/:shieldZoneId", url: (f) => `/shield/rate-limits/${f.shieldZoneId}`, family: "shield" },
  { method: "PATCH", route: "/shield/rate-limit/:id", url: () => "/shield/rate-limit/1", family: "shield", body: {} },
  { method: "DELETE", route: "/shield/rate-limit/:id", url: () => "/shield/rate-limit/1", family: "shield" },
  { method: "GET", route: "/shield/waf/engine-config", url: () => "/shield/waf/engine-config", family: "shield" },
  { method: "POST", route: "/shield/waf/custom-rule", url: () => "/shield/waf/custom-rule", family: "shield", body: {} },
  { method: "GET", route: "/shield/waf/custom-rule/:id", url: () => "/shield/waf/custom-rule/1", family: "shield" },
  { method: "GET", route: "/shield/waf/custom-rules/:shieldZoneId", url: (f) => `/shield/waf/custom-rules/${f.shieldZoneId}`, family: "shield" },
  { method: "PATCH", route: "/shield/waf/custom-rule/:id", url: () => "/shield/waf/custom-rule/1", family: "shield", body: {} },
  { method: "PUT", route: "/shield/waf/custom-rule/:id", url: () => "/shield/waf/custom-rule/1", family: "shield", body: {} },
  { method: "DELETE", route: "/shield/waf/custom-rule/:id", url: () => "/shield/waf/custom-rule/1", family: "shield" },
  { method: "GET", route: "/shield/shield-zone/:shieldZoneId/access-lists", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/access-lists`, family: "shield" },
  { method: "POST", route: "/shield/shield-zone/:shieldZoneId/access-lists", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/access-lists`, family: "shield", body: {} },
  { method: "GET", route: "/shield/shield-zone/:shieldZoneId/access-lists/:id", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/access-lists/1`, family: "shield" },
  { method: "PATCH", route: "/shield/shield-zone/:shieldZoneId/access-lists/:id", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/access-lists/1`, family: "shield", body: {} },
  { method: "DELETE", route: "/shield/shield-zone/:shieldZoneId/access-lists/:id", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/access-lists/1`, family: "shield" },
  { method: "GET", route: "/shield/shield-zone/:shieldZoneId/bot-detection", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/bot-detection`, family: "shield" },
  { method: "PATCH", route: "/shield/shield-zone/:shieldZoneId/bot-detection", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/bot-detection`, family: "shield", body: {} },
  { method: "GET", route: "/shield/shield-zone/:shieldZoneId/upload-scanning", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/upload-scanning`, family: "shield" },
  { method: "PATCH", route: "/shield/shield-zone/:shieldZoneId/upload-scanning", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/upload-scanning`, family: "shield", body: {} },
  { method: "GET", route: "/shield/shield-zone/:shieldZoneId/custom-page/:pageType", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/custom-page/block`, family: "shield" },
  { method: "PUT", route: "/shield/shield-zone/:shieldZoneId/custom-page/:pageType", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/custom-page/block`, family: "shield", body: {} },
  { method: "DELETE", route: "/shield/shield-zone/:shieldZoneId/custom-page/:pageType", url: (f) => `/shield/shield-zone/${f.shieldZoneId}/custom-page/block`, family: "shield" },
  {
    method: "PATCH",
    route: "/shield/shield-zone/:shieldZoneId/access-lists/configurations/:id",
    url: (f) => `/shield/shield-zone/${f.shieldZoneId}/access-lists/configurations/1`,
    family: "shield",
    body: {},
  },
  { method: "GET", route: "/mc/regions", url: () => "/mc/regions", family: "containers" },
  { method: "GET", route: "/mc/registries", url: () => "/mc/registries", family: "containers" },
  { method: "POST", route: "/mc/registries", url: () => "/mc/registries", family: "containers", body: { displayName: "GitHub", type: "gitHub" } },
  { method: "GET", route: "/mc/registries/:registryId", url: (f) => `/mc/registries/${f.dockerHubRegistryId}`, family: "containers" },
  { method: "PUT", route: "/mc/registries/:registryId", url: (f) => `/mc/registries/${f.dockerHubRegistryId}`, family: "containers", body: { displayName: "GitHub" } },
  { method: "DELETE", route: "/mc/registries/:registryId", url: (f) => `/mc/registries/${f.dockerHubRegistryId}`, family: "containers" },
  { method: "GET", route: "/mc/apps", url: () => "/mc/apps", family: "containers" },
  { method: "POST", route: "/mc/apps", url: () => "/mc/apps", family: "containers", body: { name: "auth-app" } },
  { method: "GET", route: "/mc/apps/:appId", url: (f) => `/mc/apps/${f.appId}`, family: "containers" },
  { method: "PUT", route: "/mc/apps/:appId", url: (f) => `/mc/apps/${f.appId}`, family: "containers", body: { name: "auth-app" } },
  { method: "DELETE", route: "/mc/apps/:appId", url: (f) => `/mc/apps/${f.appId}`, family: "containers" },
  { method: "GET", route: "/mc/apps/:appId/endpoints", url: (f) => `/mc/apps/${f.appId}/endpoints`, family: "containers" },
  { method: "GET", route: "/mc/apps/:appId/volumes", url: (f) => `/mc/apps/${f.appId}/volumes`, family: "containers" },
  { method: "POST", route: "/mc/apps/:appId/volumes/:volumeId/detach", url: (f) => `/mc/apps/${f.appId}/volumes/${f.attachedVolumeId}/detach`, family: "containers" },
  {
    method: "DELETE",
    route: "/mc/apps/:appId/volumes/:volumeId/instances/:instanceId",
    url: (f) => `/mc/apps/${f.appId}/volumes/${f.detachedVolumeId}/instances/${f.detachedInstanceId}`,
    family: "containers",
  },
  { method: "GET", route: "/library/:libraryId/videos/:videoId", url: (f) => `/library/${f.videoLibraryId}/videos/${f.videoId}`, family: "stream" },
  {
    method: "POST",
    route: "/library/:libraryId/videos/:videoId/thumbnail",
    url: (f) => `/library/${f.videoLibraryId}/videos/${f.videoId}/thumbnail?thumbnailUrl=thumbnail_2.jpg`,
    family: "stream",
  },
  { method: "POST", route: "/library/:libraryId/videos", url: (f) => `/library/${f.videoLibraryId}/videos`, family: "stream", body: { title: "auth" } },
  { method: "GET", route: "/library/:libraryId/videos", url: (f) => `/library/${f.videoLibraryId}/videos`, family: "stream" },
  { method: "POST", route: "/library/:libraryId/videos/fetch", url: (f) => `/library/${f.videoLibraryId}/videos/fetch`, family: "stream", body: { url: "https://media.example.com/a.mp4" } },
  { method: "PUT", route: "/library/:libraryId/videos/:videoId", url: (f) => `/library/${f.videoLibraryId}/videos/${f.videoId}`, family: "stream" },
  { method: "POST", route: "/library/:libraryId/videos/:videoId", url: (f) => `/library/${f.videoLibraryId}/videos/${f.videoId}`, family: "stream", body: { title: "auth" } },
  { method: "DELETE", route: "/library/:libraryId/videos/:videoId", url: (f) => `/library/${f.videoLibraryId}/videos/${f.videoId}`, family: "stream" },
  {
    method: "POST",
    route: "/library/:libraryId/videos/:videoId/captions/:srclang",
    url: (f) => `/library/${f.videoLibraryId}/videos/${f.videoId}/captions/en`,
    family: "stream",
    body: { captionsFile: "V0VCVlRU" },
  },
  { method: "DELETE", route: "/library/:libraryId/videos/:videoId/captions/:srclang", url: (f) => `/library/${f.videoLibraryId}/videos/${f.videoId}/captions/en`, family: "stream" },
  { method: "POST", route: "/library/:libraryId/collections", url: (f) => `/library/${f.videoLibraryId}/collections`, family: "stream", body: { name: "auth" } },
  { method: "GET", route: "/library/:libraryId/collections", url: (f) => `/library/${f.videoLibraryId}/collections`, family: "stream" },
  { method: "GET", route: "/library/:libraryId/collections/:collectionId", url: (f) => `/library/${f.videoLibraryId}/collections/c`, family: "stream" },
  { method: "POST", route: "/library/:libraryId/collections/:collectionId", url: (f) => `/library/${f.videoLibraryId}/collections/c`, family: "stream", body: { name: "auth" } },
  { method: "DELETE", route: "/library/:libraryId/collections/:collectionId", url: (f) => `/library/${f.videoLibraryId}/collections/c`, family: "stream" },
  // tus uploads take a signature made from the library key (surfaces/streamTus.ts): without one, any key is refused.
  { method: "POST", route: "/tusupload", url: () => "/tusupload", family: "stream" },
  { method: "PATCH", route: "/tusupload/:uploadId", url: () => "/tusupload/u", family: "stream" },
  { method: "GET", route: "/v2/pullzones/:pullZoneId/logs", url: (f) => `/v2/pullzones/${f.pullZoneId}/logs`, family: "logging" },
  { method: "GET", route: "/:date(^\\d{2}-\\d{2}-\\d{2}$)/:pullZoneId.log", url: (f) => `/${today()}/${f.pullZoneId}.log`, family: "logging" },
  { method: "POST", route: "/apikey/exchange", url: () => "/apikey/exchange", family: "core", body: { AccessKey: "x" } },
  { method: "GET", route: "/edgedb/v2/databases", url: () => "/edgedb/v2/databases", family: "accountJwt" },
  { method: "POST", route: "/edgedb/v2/databases", url: () => "/edgedb/v2/databases", family: "accountJwt", body: { name: "auth-db", primary_regions: ["DE"], replicas_regions: [], storage_region: "us-east-1" } },
  { method: "GET", route: "/edgedb/v2/databases/:id", url: () => "/edgedb/v2/databases/db_1", family: "accountJwt" },
  { method: "PATCH", route: "/edgedb/v2/databases/:id", url: () => "/edgedb/v2/databases/db_1", family: "accountJwt", body: { primary_regions: ["DE"], replicas_regions: [] } },
  { method: "DELETE", route: "/edgedb/v2/databases/:id", url: () => "/edgedb/v2/databases/db_1", family: "accountJwt" },
  { method: "POST", route: "/edgedb/v2/databases/:id/auth/generate", url: () => "/edgedb/v2/databases/db_1/auth/generate", family: "accountJwt", body: { authorization: "read-only" } },
  { method: "GET", route: "/team/member", url: () => "/team/member", family: "accountJwt" },
  { method: "POST", route: "/team/member", url: () => "/team/member", family: "accountJwt", body: { Email: "auth@example.com", FirstName: "A", LastName: "B", Roles: ["SubuserManage"] } },
  { method: "GET", route: "/team/member/:id", url: () => "/team/member/1", family: "accountJwt" },
  { method: "POST", route: "/team/member/:id", url: () => "/team/member/1", family: "accountJwt", body: { Email: "auth@example.com", FirstName: "A", LastName: "B", Roles: ["SubuserManage"] } },
  { method: "DELETE", route: "/team/member/:id", url: () => "/team/member/1", family: "accountJwt" },
  // The Storage API takes the zone's password: an unknown zone, a wrong key and the account key are all 401.
  { method: "PUT", route: "/storage/:storageZoneName/*", url: () => "/storage/auth-files/a.txt", family: "storage", body: "x" },
  { method: "GET", route: "/storage/:storageZoneName/*", url: () => "/storage/auth-files/", family: "storage" },
  { method: "DELETE", route: "/storage/:storageZoneName/*", url: () => "/storage/auth-files/a.txt", family: "storage" },
  { method: "PROPFIND", sent: "DESCRIBE", route: "/storage/:storageZoneName/*", url: () => "/storage/auth-files/a.txt", family: "storage" },
];

type Credential = "none" | "wrong" | "other";

/** The status and body shape each API answers for each bad credential. */
function expected(family: Family, credential: Credential): { status: number; shape: (body: string) => void } {
  switch (family) {
    case "core":
      return { status: 401, shape: (b) => assert.equal(b, "", "core answers 401 with an empty body") };
    case "shield":
      return { status: 401, shape: (b) => assert.deepEqual(JSON.parse(b), { statusCode: 401 }) };
    case "containers":
      return {
        status: 401,
        shape: (b) => {
          const p = JSON.parse(b);
          assert.equal(p.status, 401);
          assert.equal(typeof p.title, "string");
        },
      };
    case "stream":
      return {
        status: 401,
        shape: (b) => {
          const p = JSON.parse(b);
          assert.equal(p.success, false);
          assert.equal(p.statusCode, 401);
        },
      };
    case "logging":
      return {
        status: credential === "none" ? 401 : 403,
        shape: (b) => assert.equal(JSON.parse(b).error.code, credential === "none" ? "unauthorized" : "forbidden"),
      };
    case "storage":
      return { status: 401, shape: (b) => assert.deepEqual(JSON.parse(b), { HttpCode: 401, Message: "Unauthorized" }) };
    case "accountJwt":
      return { status: 401, shape: (b) => assert.match(JSON.parse(b).error, /Authorization header with the token of POST \/apikey\/exchange/) };
  }
}

describe("emulator: auth matrix over every API route", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
    // A real zone for the Storage API routes: its password is the only key they take.
    await emu.client().storageZones.createStorageZone({ Name: "auth-files", Region: "DE" });
  });
  after(() => emu.stop());

  it("the matrix covers every route the emulator registers", () => {
    const registered = emu.emulator.routes.map((r) => `${r.method} ${r.url}`).sort();
    const covered = CASES.map((c) => `${c.method} ${c.route}`).sort();
    assert.deepEqual(covered, registered);
  });

  for (const c of CASES) {
    it(`${c.method} ${c.route} refuses no key, a wrong key and the other key`, async () => {
      const f = emu.fixtures;
      const keyFor: Record<Credential, string | undefined> = {
        none: undefined,
        wrong: "00000000-0000-0000-0000-000000000000",
        // A key that is valid somewhere else: the library key on account routes, the account key on Stream and on the
        // routes that take only its JWT.
        other: c.family === "stream" || c.family === "accountJwt" ? f.accessKey : String(f.videoLibraryKey),
      };
      for (const credential of ["none", "wrong", "other"] as Credential[]) {
        const key = keyFor[credential];
        const headers: Record<string, string> = {};
        if (key) headers.accesskey = key;
        if (c.body !== undefined) headers["content-type"] = "application/json";
        const res = await request(emu.url + c.url(f), { method: c.sent ?? c.method, headers, body: c.body === undefined ? undefined : JSON.stringify(c.body) });
        const text = await res.body.text();
        const want = expected(c.family, credential);
        assert.equal(res.statusCode, want.status, `${credential} key: ${text}`);
        want.shape(text);
        if (key) assert.ok(!text.includes(key), "the refused key is not echoed");
      }
    });
  }

  it("refused requests changed nothing (the seeded variable and volume are intact)", async () => {
    const client = emu.client();
    const volume = await client.containers.findVolume(String(emu.fixtures.appId), String(emu.fixtures.detachedVolumeId));
    assert.ok(volume?.volumeInstances.some((i) => i.id === emu.fixtures.detachedInstanceId));
    const script = await client.edgeScripts.getScript(Number(emu.fixtures.scriptId));
    assert.ok(!script.EdgeScriptVariables.some((v) => v.Name === "AUTH"));
  });
});
