import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/**
 * A site on a pull zone: its custom hostname with a free certificate and HTTP redirected to HTTPS, the edge
 * script's backend URL as a variable, and the script's signing key as a secret. The ids come from stack config.
 */
export function site() {
  const config = new pulumi.Config();
  const pullZoneId = config.requireNumber("pullZoneId");
  const scriptId = config.requireNumber("scriptId");

  const www = new bunnynet.PullZoneHostname("www", {
    pullZoneId,
    hostname: config.require("hostname"),
    tls: "free",
    forceSsl: true,
  });
  const backend = new bunnynet.ScriptVariable("backend", {
    scriptId,
    name: "BACKEND_URL",
    defaultValue: config.get("backendUrl") ?? "https://backend.example",
    required: true,
  });
  const signingKey = new bunnynet.ScriptSecret("signing-key", {
    scriptId,
    name: "SIGNING_KEY",
    value: config.requireSecret("signingKey"),
  });

  return {
    hostname: www.hostname,
    cdnHostname: cdnHostname(pullZoneId),
    certificateExpiresAt: www.certificate.apply((c) => c?.expiresAt),
    backendVariableId: backend.variableId,
    signingKeySecretId: signingKey.secretId,
  };
}

/** The pull zone's own CDN hostname, looked up by id (a lookup: in a unit test under mocks, their `call` answers it). */
export function cdnHostname(pullZoneId: number) {
  return bunnynet.getPullZoneOutput({ id: pullZoneId }).apply((zone) => zone.cdnHostname);
}
