import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "pulumi-bunnynet";

/**
 * Every resource and lookup of pulumi-bunnynet, driven by stack config. The ids come from your account
 * (or from the local emulator: `npm run demo` fills them in from its fixtures).
 *
 * Change `bunnynet-quickstart:edition` from "first" to "second" and run `pulumi up` again to see in-place
 * updates (the rule's limit, the variable's value, the thumbnail frame) next to nothing being replaced.
 */
export function quickstart() {
  const config = new pulumi.Config();
  const pullZoneId = config.requireNumber("pullZoneId");
  const scriptId = config.requireNumber("scriptId");
  const videoLibraryId = config.requireNumber("videoLibraryId");
  const videoId = config.require("videoId");
  const appId = config.require("appId");
  const second = config.get("edition") === "second";

  // A custom hostname on the pull zone. Any change replaces it.
  const www = new bunnynet.PullZoneHostname("www", {
    pullZoneId,
    hostname: config.get("hostname") ?? "www.quickstart.example",
  });

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
  const signingKey = new bunnynet.ScriptVariable("signing-key", {
    scriptId,
    name: "QUICKSTART_SIGNING_KEY",
    // Secret inputs stay encrypted in the state.
    defaultValue: pulumi.secret(config.get("signingKey") ?? "not-a-real-secret"),
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
    rateLimitRuleId: loginLimit.ruleId,
    shieldZoneId: loginLimit.shieldZoneId,
    apiBaseVariableId: apiBase.variableId,
    signingKeyVariableId: signingKey.variableId,
    thumbnailFileName: poster.thumbnailFileName,
    deletedVolumeInstance: cleanup?.deletedInstanceId,
    regionsWithCapacity: regions.ids,
    appPublicHosts: endpoints.publicHosts,
    apiKeyCount: apiKeys.apply((k) => k.keys.length),
    recentServerErrors: serverErrors.apply((l) => l.entries.map((e) => `${e.timestamp} ${e.statusCode} ${e.url}`)),
  };
}
