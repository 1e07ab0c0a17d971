import type { EmulatorSurface } from "../context";

/**
 * Shield's default WAF engine configuration: `GET /shield/waf/engine-config` (shield-api-v1.0.0.json, "Get WAF Engine
 * Configuration": GetWafEngineConfigResponse `{data: ConfigVariableValueMinimal[]}`, each `{name, valueEncoded}`;
 * 401 without the account key, which the server checks for every Shield route). bunny.net's Terraform provider reads
 * it on every read of a `bunnynet_pullzone_shield` and fills the zone's unset engine settings from it
 * (terraform-provider-bunnynet v0.15.1 internal/api/pullzone_shield.go, GetPullzoneShieldDefaultWafEngineConfig,
 * lines 77-156: the names below, methods and HTTP versions separated by spaces, content types each between `|`).
 *
 * The values are the ones that provider writes back to reset a zone (DeletePullzoneShield, lines 671-709), and its
 * schema's default sensitivity 1 (resource_pullzone_shield.go: detection, execution and blocking sensitivity): the
 * document gives none.
 */
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"];
const HTTP_VERSIONS = ["HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/2.0"];
const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/related",
  "text/xml",
  "application/xml",
  "application/soap+xml",
  "application/x-amf",
  "application/json",
  "application/octet-stream",
  "application/csp-report",
  "application/xss-auditor-report",
  "text/plain",
];

const ENGINE_CONFIG = [
  { name: "detection_paranoia_level", valueEncoded: "1" },
  { name: "executing_paranoia_level", valueEncoded: "1" },
  { name: "blocking_paranoia_level", valueEncoded: "1" },
  { name: "allowed_methods", valueEncoded: METHODS.join(" ") },
  { name: "allowed_http_versions", valueEncoded: HTTP_VERSIONS.join(" ") },
  { name: "allowed_request_content_type", valueEncoded: CONTENT_TYPES.map((t) => `|${t}|`).join(" ") },
];

export const shieldWafEngineSurface: EmulatorSurface = {
  name: "shieldWafEngine",
  seed: () => ({}),
  routes(app) {
    app.get("/shield/waf/engine-config", async () => ({ data: ENGINE_CONFIG }));
  },
};
