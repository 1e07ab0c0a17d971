import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/**
 * Every resource and lookup of bunnynet-pulumi, driven by stack config. The ids come from your account
 * (or from the local emulator: `npm run demo` fills them in from its fixtures).
 *
 * Change `bunnynet-quickstart:edition` from "first" to "second" and run `pulumi up` again to see in-place
 * updates (the rule's limit, the variable's value, the thumbnail frame, force-SSL on the api hostname) next to
 * nothing being replaced. Set `apiCertificate` (PEM) and `apiCertificateKey` (`pulumi config set --secret`) for the
 * hostname with your own certificate.
 */
export function quickstart() {
  const config = new pulumi.Config();
  const pullZoneId = config.requireNumber("pullZoneId");
  const scriptId = config.requireNumber("scriptId");
  const videoLibraryId = config.requireNumber("videoLibraryId");
  const videoId = config.require("videoId");
  const appId = config.require("appId");
  const second = config.get("edition") === "second";

  // A custom hostname with a free certificate (its DNS must point at the pull zone) and HTTP redirected to HTTPS.
  // The certificate and force-SSL change in place; the hostname replaces.
  const www = new bunnynet.PullZoneHostname("www", {
    pullZoneId,
    hostname: config.get("hostname") ?? "www.quickstart.example",
    tls: "free",
    forceSsl: true,
  });

  // A second hostname with your own certificate (PEM text; the key is kept encrypted in the state).
  // The second edition turns force-SSL on: an update in place.
  const apiCertificate = config.get("apiCertificate");
  const api = apiCertificate
    ? new bunnynet.PullZoneHostname("api", {
        pullZoneId,
        hostname: config.get("apiHostname") ?? "api.quickstart.example",
        tls: { certificate: apiCertificate, privateKey: config.requireSecret("apiCertificateKey") },
        forceSsl: second,
      })
    : undefined;

  // Shield: at most N login attempts per IP per minute, then a five-minute block.
  const loginLimit = new bunnynet.RateLimitRule("login-limit", {
    pullZoneId,
    name: "quickstart-login",
    description: "Slow down password guessing on /login",
    configuration: {
      variableTypes: { [bunnynet.RuleVariable.REQUEST_URI]: "" },
      operatorType: "BEGINSWITH",
      value: "/login",
      chainedConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ", value: "POST" }],
      actionType: "Block",
      requestCount: second ? 5 : 10,
      counterKeyType: "IP",
      timeframe: "PerOneMinute",
      blockTime: "ForFiveMinutes",
    },
  });

  // Edge script variables: the default value and `required` change in place; the name replaces.
  const apiBase = new bunnynet.ScriptVariable("api-base", {
    scriptId,
    name: "QUICKSTART_API_BASE",
    defaultValue: second ? "https://api-v2.quickstart.example" : "https://api.quickstart.example",
    required: true,
  });
  // A secret, not a variable: the value is write-only in the API and encrypted in the state.
  const signingKey = new bunnynet.ScriptSecret("signing-key", {
    scriptId,
    name: "QUICKSTART_SIGNING_KEY",
    value: config.getSecret("signingKey") ?? pulumi.secret("not-a-real-secret"),
  });

  // A video's thumbnail from one of its generated frames (a file, an asset or a URL work too).
  const poster = new bunnynet.VideoThumbnail("poster", { libraryId: videoLibraryId, videoId, frame: second ? 4 : 2 });

  // One-shot action: delete an old volume instance, detaching its volume first. Deleting this resource does nothing.
  const volumeId = config.get("volumeId");
  const volumeInstanceId = config.get("volumeInstanceId");
  const cleanup =
    volumeId && volumeInstanceId
      ? new bunnynet.VolumeInstanceDeletion("old-cache-instance", { appId, volumeId, instanceId: volumeInstanceId, detachFirst: true })
      : undefined;

  // Lookups: plain functions, evaluated at every run.
  const regions = bunnynet.getRegionsOutput({ hasCapacity: true });
  const endpoints = bunnynet.getAppEndpointsOutput({ appId });
  const apiKeys = bunnynet.getApiKeysOutput();
  const serverErrors = bunnynet.getCdnLogsOutput({ pullZoneId, status: ["5xx"], maxEntries: 20 });

  return {
    hostnameId: www.hostnameId,
    wwwCertificateExpiresAt: www.certificate.apply((c) => c?.expiresAt),
    apiCertificateIssuer: api?.certificate.apply((c) => c?.issuer),
    rateLimitRuleId: loginLimit.ruleId,
    shieldZoneId: loginLimit.shieldZoneId,
    apiBaseVariableId: apiBase.variableId,
    signingKeySecretId: signingKey.secretId,
    thumbnailFileName: poster.thumbnailFileName,
    deletedVolumeInstance: cleanup?.deletedInstanceId,
    regionsWithCapacity: regions.ids,
    appPublicHosts: endpoints.publicHosts,
    apiKeyCount: apiKeys.apply((k) => k.keys.length),
    recentServerErrors: serverErrors.apply((l) => l.entries.map((e) => `${e.timestamp} ${e.statusCode} ${e.url}`)),
  };
}
