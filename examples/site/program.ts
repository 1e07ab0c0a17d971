import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/**
 * A whole site from zero in one `pulumi up`: its DNS zone, a storage zone for its files, a pull zone serving that
 * storage, `www` pointing at the pull zone with a free certificate and HTTP redirected to HTTPS, Shield with a
 * rate-limit rule, an edge script with its code, a variable and a secret, and a video library with a video uploaded
 * from a file and its thumbnail. No object has to exist beforehand; the order comes from the outputs each resource
 * takes from another.
 *
 * Config (`bunnynet-site:`): `domain` (default `site.example`), `prefix` for the account-wide unique names
 * (default `demo`), `publicFolder`, the folder of the site's files (default `public`, beside Pulumi.yaml),
 * `mediaFolder`, the folder of the video and its poster (default `media`, beside Pulumi.yaml), and the secret
 * `apiToken` (`pulumi config set --secret apiToken ...`).
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
  const cdn = new bunnynet.PullZone("cdn", { name: `${prefix}-cdn`, origin: { storageZoneId: storage.storageZoneId } });

  // www → the pull zone; the certificate is requested once the record exists (bunny.net checks where the name points).
  const www = new bunnynet.DnsRecord("www-record", { dnsZoneId: zone.dnsZoneId, type: "CNAME", name: "www", value: cdn.cdnHostname });
  const hostname = new bunnynet.PullZoneHostname(
    "www",
    { pullZoneId: cdn.pullZoneId, hostname: `www.${domain}`, tls: "free", forceSsl: true },
    { dependsOn: [www] },
  );

  // Shield on the pull zone, and at most 100 requests to /api per IP per minute.
  const shield = new bunnynet.ShieldZone("shield", { pullZoneId: cdn.pullZoneId });
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

  // Code at the edge, with a variable and a secret in its environment.
  const script = new bunnynet.EdgeScript("edge", {
    name: `${prefix}-edge`,
    type: "Standalone",
    code: 'export default { fetch: () => new Response("hello from the edge") };\n',
  });
  new bunnynet.ScriptVariable("greeting", { scriptId: script.scriptId, name: "GREETING", defaultValue: "hello" });
  new bunnynet.ScriptSecret("api-token", { scriptId: script.scriptId, name: "API_TOKEN", value: apiToken });

  const videos = new bunnynet.VideoLibrary("videos", { name: `${prefix}-videos` });
  // The intro video, streamed from the file; `up` waits until it plays. Then its poster as the thumbnail. Paths rather
  // than FileAssets: the engine elides an asset's contents in a refresh, so a refresh could not give an asset back.
  const intro = new bunnynet.StreamVideo("intro", { libraryId: videos.libraryId, title: "Intro", source: join(mediaFolder, "intro.mp4") });
  const poster = new bunnynet.VideoThumbnail("poster", { libraryId: videos.libraryId, videoId: intro.videoId, file: join(mediaFolder, "poster.png") });

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
  };
}
