import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/**
 * A container app with its media, from zero in one `pulumi up`: a Magic Containers app running a public image with a
 * secret environment value and a volume, reached through a CDN endpoint on a pull zone the program declares (with
 * `app.<domain>` on it and a free certificate, the name in a DNS zone of its own) and through an Anycast endpoint;
 * beside it, a video library with a collection and a video uploaded from the file the example ships.
 *
 * Config (`bunnynet-app:`): `domain` (default `app.example`), `prefix` for the account-wide unique names (default
 * `demo`), the secret `sessionSecret` (`pulumi config set --secret sessionSecret ...`), `imageTag` (default `1.27`:
 * a new tag is one in-place update that waits until the new version runs), and `mediaFolder`, the folder of the
 * video (default `media`, beside Pulumi.yaml).
 *
 * `media/clip.mp4` is a 5-second MP4 of a few KB: an `ftyp` box and a movie header, which is all bunny.net's emulator
 * reads (it never decodes a video); no player can play it.
 */
export function app() {
  const config = new pulumi.Config();
  const domain = config.get("domain") ?? "app.example";
  const prefix = config.get("prefix") ?? "demo";
  const sessionSecret = config.getSecret("sessionSecret") ?? pulumi.secret("change-me");
  const imageTag = config.get("imageTag") ?? "1.27";
  const mediaFolder = config.get("mediaFolder") ?? "media";

  // Docker Hub's public registry, which every account has: public images need no credentials.
  const dockerHub = bunnynet.getContainerRegistryOutput({ type: "DockerHub" }).registryId;

  // The pull zone in front of the web container, declared here so its cache, hostnames and Shield are the program's
  // (the API would otherwise make one no resource manages). Its origin is the container endpoint that names it:
  // bunny.net links the two when the app is saved. Clients use the zone's hosts (`front.cdnHostname`, app.<domain>).
  const front = new bunnynet.PullZone("front", { name: `${prefix}-app`, origin: { frontsContainerEndpoint: true } });

  const app = new bunnynet.ContainerApp("app", {
    name: `${prefix}-app`,
    regions: { allowed: ["DE", "UK", "NL"], required: ["DE"] },
    autoscaling: { min: 1, max: 3 },
    containers: {
      web: {
        image: { registryId: dockerHub, namespace: "library", name: "nginx", tag: imageTag },
        // SESSION_SECRET is a secret in the stack's config, so in the state too; LOG_LEVEL stays readable.
        env: { SESSION_SECRET: sessionSecret, LOG_LEVEL: "info" },
        probes: { readiness: { type: "http", port: 80, path: "/" }, liveness: { type: "tcp", port: 80 } },
        volumeMounts: { uploads: "/usr/share/nginx/html/uploads" },
        endpoints: {
          site: { type: "cdn", ports: [{ container: 80 }], cdn: { pullZoneId: front.pullZoneId } },
          direct: { type: "anycast", ports: [{ container: 80, exposed: 80 }] },
        },
      },
    },
    volumes: { uploads: { sizeGb: 1 } },
  });

  // app.<domain> → the pull zone, with a free certificate once the name points there (bunny.net checks that first).
  const zone = new bunnynet.DnsZone("zone", { domain });
  const record = new bunnynet.DnsRecord("app-record", { dnsZoneId: zone.dnsZoneId, type: "CNAME", name: "app", value: front.cdnHostname });
  const hostname = new bunnynet.PullZoneHostname("app-hostname", { pullZoneId: front.pullZoneId, hostname: `app.${domain}`, tls: "free", forceSsl: true }, { dependsOn: [record] });

  // The media: a library, a collection, and a video streamed from the shipped file into it (`up` waits until it plays).
  const videos = new bunnynet.VideoLibrary("videos", { name: `${prefix}-app-videos` });
  const tutorials = new bunnynet.StreamCollection("tutorials", { libraryId: videos.libraryId, name: "Tutorials" });
  const clip = new bunnynet.StreamVideo("clip", {
    libraryId: videos.libraryId,
    collectionId: tutorials.collectionId,
    title: "Getting started",
    source: join(mediaFolder, "clip.mp4"),
  });

  return {
    appId: app.appId,
    appStatus: app.status,
    url: pulumi.interpolate`https://${hostname.hostname}`,
    certificateExpiresAt: hostname.certificate.apply((c) => c?.expiresAt),
    cdnEndpointPullZoneId: app.endpoints.apply((e) => e.site.pullZoneId),
    anycastHost: app.endpoints.apply((e) => e.direct.publicHost),
    nameservers: zone.nameservers,
    videoLibraryId: videos.libraryId,
    collectionId: tutorials.collectionId,
    videoId: clip.videoId,
    videoStatus: clip.status,
  };
}
