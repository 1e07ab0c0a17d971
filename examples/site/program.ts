import { createHash } from "node:crypto";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/**
 * A whole site from zero in one `pulumi up`: its DNS zone, a storage zone for its files, a pull zone serving that
 * storage, `www` pointing at the pull zone with a free certificate and HTTP redirected to HTTPS, Shield with a
 * rate-limit rule, edge rules (the CDN hostname redirected to www, security headers), an edge script with its code,
 * a variable and a secret, a video library with a video uploaded from a file and its thumbnail, and a cache purge
 * that runs again whenever the content changes. No object has to exist beforehand; the order comes from the outputs
 * each resource takes from another.
 *
 * Config (`bunnynet-site:`): `domain` (default `site.example`), `prefix` for the account-wide unique names
 * (default `demo`), `publicFolder`, the folder of the site's files (default `public`, beside Pulumi.yaml),
 * `mediaFolder`, the folder of the video and its poster (default `media`, beside Pulumi.yaml), the secret
 * `apiToken` (`pulumi config set --secret apiToken ...`), `release` (default `1`): a new release purges the cache
 * even when the files and the code did not change, and `cacheSeconds`, how long the CDN caches a file (unset: as the
 * origin says).
 *
 * `media/intro.mp4` is a 5-second MP4 of a few KB: an `ftyp` box and a movie header, which is all bunny.net's
 * emulator reads (it never decodes a video); no player can play it. `media/poster.png` is a 32×18 image.
 */
export function site() {
  const config = new pulumi.Config();
  const domain = config.get("domain") ?? "site.example";
  const prefix = config.get("prefix") ?? "demo";
  const apiToken = config.getSecret("apiToken") ?? pulumi.secret("change-me");
  const publicFolder = config.get("publicFolder") ?? "public";
  const mediaFolder = config.get("mediaFolder") ?? "media";

  const zone = new bunnynet.DnsZone("zone", { domain });
  const storage = new bunnynet.StorageZone("files", { name: `${prefix}-files`, region: "DE", custom404FilePath: "/404.html" });
  // The site's own files: every file of the folder, at the same paths; an `up` sends only the ones that changed.
  const content = new bunnynet.StorageFolder("content", { storageZoneId: storage.storageZoneId, source: publicFolder });
  const cdn = new bunnynet.PullZone("cdn", { name: `${prefix}-cdn`, origin: { storageZoneId: storage.storageZoneId }, cacheExpirationTime: config.getNumber("cacheSeconds") });

  // www → the pull zone; the certificate is requested once the record exists (bunny.net checks where the name points).
  const www = new bunnynet.DnsRecord("www-record", { dnsZoneId: zone.dnsZoneId, type: "CNAME", name: "www", value: cdn.cdnHostname });
  const hostname = new bunnynet.PullZoneHostname(
    "www",
    { pullZoneId: cdn.pullZoneId, hostname: `www.${domain}`, tls: "free", forceSsl: true },
    { dependsOn: [www] },
  );

  // Shield on the pull zone (the Advanced plan: custom WAF rules and pages) with the site's own block page, and at most
  // 100 requests to /api per IP per minute.
  const shield = new bunnynet.ShieldZone("shield", {
    pullZoneId: cdn.pullZoneId,
    planType: "Advanced",
    customPages: { block: `<!doctype html><title>Blocked</title><p>This request was blocked. Write to security@${domain} if you think it should not be.</p>` },
  });
  new bunnynet.RateLimitRule("api-limit", {
    shieldZoneId: shield.shieldZoneId,
    name: "api limit",
    configuration: {
      variableTypes: { [bunnynet.RuleVariable.REQUEST_URI]: "" },
      operatorType: "BEGINSWITH",
      value: "/api",
      requestCount: 100,
      timeframe: "PerOneMinute",
      blockTime: "ForFiveMinutes",
    },
  });
  // The admin pages only from the office network; requests from two countries blocked outright.
  new bunnynet.WafRule("admin-only-office", {
    shieldZoneId: shield.shieldZoneId,
    name: "admin only from the office",
    conditions: [
      { variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" },
      { variableTypes: { REMOTE_ADDR: "" }, operatorType: "STREQ", value: "198.51.100.7", isNegated: true },
    ],
    action: "Block",
  });
  new bunnynet.AccessList("blocked-countries", { shieldZoneId: shield.shieldZoneId, name: "blocked countries", type: "Country", entries: ["KP", "RU"], action: "Block" });

  // At the edge: the CDN's own hostname redirects to www (its pattern is known only once the pull zone exists),
  // and every answer carries the security headers. Lower priorities run first.
  const redirect = new bunnynet.EdgeRule("redirect-to-www", {
    pullZoneId: cdn.pullZoneId,
    description: "CDN hostname to www",
    priority: 0,
    actions: [{ type: "Redirect", parameters: [`https://www.${domain}%{Url.Path}`, "301"] }],
    triggers: [{ type: "Url", patterns: [pulumi.interpolate`https://${cdn.cdnHostname}/*`] }],
  });
  const headers = new bunnynet.EdgeRule("security-headers", {
    pullZoneId: cdn.pullZoneId,
    description: "security headers",
    priority: 1,
    actions: [
      { type: "SetResponseHeader", parameters: ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] },
      { type: "SetResponseHeader", parameters: ["X-Content-Type-Options", "nosniff"] },
      { type: "SetResponseHeader", parameters: ["X-Frame-Options", "DENY"] },
      { type: "SetResponseHeader", parameters: ["Referrer-Policy", "strict-origin-when-cross-origin"] },
    ],
    triggers: [{ type: "Url", patterns: ["*"] }],
  });

  // Code at the edge, with a variable and a secret in its environment.
  const code = 'export default { fetch: () => new Response("hello from the edge") };\n';
  const script = new bunnynet.EdgeScript("edge", { name: `${prefix}-edge`, type: "Standalone", code });
  new bunnynet.ScriptVariable("greeting", { scriptId: script.scriptId, name: "GREETING", defaultValue: "hello" });
  new bunnynet.ScriptSecret("api-token", { scriptId: script.scriptId, name: "API_TOKEN", value: apiToken });

  const videos = new bunnynet.VideoLibrary("videos", { name: `${prefix}-videos` });
  // The intro video, streamed from the file; `up` waits until it plays. Then its poster as the thumbnail. Paths rather
  // than FileAssets: the engine elides an asset's contents in a refresh, so a refresh could not give an asset back.
  const intro = new bunnynet.StreamVideo("intro", { libraryId: videos.libraryId, title: "Intro", source: join(mediaFolder, "intro.mp4") });
  const poster = new bunnynet.VideoThumbnail("poster", { libraryId: videos.libraryId, videoId: intro.videoId, file: join(mediaFolder, "poster.png") });

  // Purge the pull zone's cache once the content is in place, and again exactly when it changes: the triggers are the
  // checksum of the site's files, a hash of the code and the release number.
  const purge = new bunnynet.CachePurge(
    "purge",
    {
      pullZoneId: cdn.pullZoneId,
      triggers: { files: content.checksum, code: createHash("sha256").update(code).digest("hex"), release: config.get("release") ?? "1" },
    },
    { dependsOn: [content, script, redirect, headers] },
  );

  return {
    nameservers: zone.nameservers,
    cdnHostname: cdn.cdnHostname,
    url: pulumi.interpolate`https://${hostname.hostname}`,
    certificateExpiresAt: hostname.certificate.apply((c) => c?.expiresAt),
    shieldZoneId: shield.shieldZoneId,
    scriptId: script.scriptId,
    videoLibraryId: videos.libraryId,
    siteFiles: content.fileCount,
    videoId: intro.videoId,
    videoLength: intro.length,
    thumbnailUrl: poster.thumbnailUrl,
    purgedAt: purge.purgedAt,
  };
}
