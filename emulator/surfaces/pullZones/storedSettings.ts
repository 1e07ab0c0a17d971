/**
 * The pull zone settings the emulator keeps and answers without modelling what they do: PullZoneSettingsModel's
 * properties that PullZoneModel answers too (core-api-v1.0.0.json), beyond those zones.ts checks with behaviour. The
 * real API keeps every one of them: bunny.net's Terraform provider sends them all on create and update
 * (terraform-provider-bunnynet v0.15.1 internal/api/pullzone.go, PullzoneModel lines 27-160) and its acceptance tests
 * (resource_pullzone_test.go) read each back unchanged; an emulator that dropped them answered 0/false, and Terraform
 * stopped at "Provider produced inconsistent result after apply".
 *
 * Types are the document's (enums as their value ranges). A fresh zone's values, where a create leaves them out, are
 * the defaults of the Terraform provider's `bunnynet_pullzone` schema (resource_pullzone.go: originshield_* 200, 5000
 * and 30; optimizer_* on for WebP, minifying, smart image at 1600/85 and 800/70, dynamic image API; watermark at
 * BottomLeft, offset 3, min size 300; log forwarding UDP, JSON; SafeHop retrying on connection and response timeouts;
 * routing filter "all"), which mirror the dashboard's; where it has none, off, 0 or empty (the emulator's choice).
 */

/** A setting's type: JSON's, or an enum as its lowest and highest value. */
export type StoredSettingType = "bool" | "int" | "number" | "string" | "strings" | "objects" | readonly [number, number];

/** Each stored setting: its type and a fresh zone's value. */
export const STORED_SETTINGS: Record<string, { type: StoredSettingType; fresh: unknown }> = {
  // Cache keys ("cache_vary" in Terraform). The settings model spells it EnableWebpVary, the zone model EnableWebPVary:
  // one property, since the API binds names case-insensitively (Terraform sends EnableWebPVary).
  EnableWebPVary: { type: "bool", fresh: false },
  EnableAvifVary: { type: "bool", fresh: false },
  EnableMobileVary: { type: "bool", fresh: false },
  EnableCountryCodeVary: { type: "bool", fresh: false },
  EnableCountryStateCodeVary: { type: "bool", fresh: false },
  EnableHostnameVary: { type: "bool", fresh: false },
  EnableCookieVary: { type: "bool", fresh: false },
  QueryStringVaryParameters: { type: "strings", fresh: [] },
  CookieVaryParameters: { type: "strings", fresh: [] },
  CacheKeyHeaders: { type: "string", fresh: "" },
  EnableSmartCache: { type: "bool", fresh: false },
  PermaCacheType: { type: [0, 1], fresh: 0 },
  // Origin: S3 signing, SafeHop retries, origin shield queueing.
  AWSSigningEnabled: { type: "bool", fresh: false },
  AWSSigningKey: { type: "string", fresh: "" },
  AWSSigningRegionName: { type: "string", fresh: "" },
  AWSSigningSecret: { type: "string", fresh: "" },
  EnableSafeHop: { type: "bool", fresh: false },
  OriginRetry5XXResponses: { type: "bool", fresh: false },
  OriginRetryConnectionTimeout: { type: "bool", fresh: true },
  OriginRetryResponseTimeout: { type: "bool", fresh: true },
  OriginRetryDelay: { type: "int", fresh: 0 },
  OriginShieldEnableConcurrencyLimit: { type: "bool", fresh: false },
  OriginShieldMaxConcurrentRequests: { type: "int", fresh: 200 },
  OriginShieldMaxQueuedRequests: { type: "int", fresh: 5000 },
  OriginShieldQueueMaxWaitTime: { type: "int", fresh: 30 },
  EdgeScriptExecutionPhase: { type: [0, 2], fresh: 0 },
  LoadBalancerId: { type: "int", fresh: 0 },
  StickySessionType: { type: [0, 1], fresh: 0 },
  StickySessionCookieName: { type: "string", fresh: "" },
  StickySessionClientHeaders: { type: "string", fresh: "" },
  RoutingFilters: { type: "strings", fresh: ["all"] },
  TlsSecurityLevel: { type: [0, 2], fresh: 0 },
  // Logs.
  LogFormat: { type: [0, 1], fresh: 0 },
  LogForwardingEnabled: { type: "bool", fresh: false },
  LogForwardingHostname: { type: "string", fresh: "" },
  LogForwardingPort: { type: "int", fresh: 0 },
  LogForwardingToken: { type: "string", fresh: "" },
  LogForwardingProtocol: { type: [0, 3], fresh: 0 },
  LogForwardingFormat: { type: [0, 1], fresh: 1 },
  // Error pages and the preloading screen.
  ErrorPageEnableCustomCode: { type: "bool", fresh: false },
  ErrorPageCustomCode: { type: "string", fresh: "" },
  ErrorPageEnableStatuspageWidget: { type: "bool", fresh: false },
  ErrorPageStatuspageCode: { type: "string", fresh: "" },
  PreloadingScreenEnabled: { type: "bool", fresh: false },
  PreloadingScreenCode: { type: "string", fresh: "" },
  PreloadingScreenLogoUrl: { type: "string", fresh: "" },
  PreloadingScreenShowOnFirstVisit: { type: "bool", fresh: false },
  PreloadingScreenTheme: { type: [0, 1], fresh: 0 },
  PreloadingScreenCodeEnabled: { type: "bool", fresh: false },
  PreloadingScreenDelay: { type: "int", fresh: 0 },
  // The optimizer.
  OptimizerEnabled: { type: "bool", fresh: false },
  OptimizerTunnelEnabled: { type: "bool", fresh: false },
  OptimizerDesktopMaxWidth: { type: "int", fresh: 1600 },
  OptimizerMobileMaxWidth: { type: "int", fresh: 800 },
  OptimizerImageQuality: { type: "int", fresh: 85 },
  OptimizerMobileImageQuality: { type: "int", fresh: 70 },
  OptimizerEnableWebP: { type: "bool", fresh: true },
  OptimizerPrerenderHtml: { type: "bool", fresh: false },
  OptimizerEnableManipulationEngine: { type: "bool", fresh: true },
  OptimizerMinifyCSS: { type: "bool", fresh: true },
  OptimizerMinifyJavaScript: { type: "bool", fresh: true },
  OptimizerWatermarkEnabled: { type: "bool", fresh: false },
  OptimizerWatermarkUrl: { type: "string", fresh: "" },
  OptimizerWatermarkPosition: { type: [0, 5], fresh: 0 },
  OptimizerWatermarkOffset: { type: "number", fresh: 3 },
  OptimizerWatermarkMinImageSize: { type: "int", fresh: 300 },
  OptimizerAutomaticOptimizationEnabled: { type: "bool", fresh: true },
  OptimizerForceClasses: { type: "bool", fresh: false },
  OptimizerStaticHtmlEnabled: { type: "bool", fresh: false },
  OptimizerStaticHtmlWordPressPath: { type: "string", fresh: "" },
  OptimizerStaticHtmlWordPressBypassCookie: { type: "string", fresh: "" },
  OptimizerEnableUpscaling: { type: "bool", fresh: false },
  EnableBunnyImageAi: { type: "bool", fresh: false },
  BunnyAiImageBlueprints: { type: "objects", fresh: [] },
  // Shield's DDoS protection as the pull zone carries it.
  ShieldDDosProtectionType: { type: [0, 2], fresh: 0 },
  ShieldDDosProtectionEnabled: { type: "bool", fresh: false },
};

/** A fresh zone's value of every stored setting. */
export function freshStoredSettings(): Record<string, unknown> {
  return Object.fromEntries(Object.entries(STORED_SETTINGS).map(([name, s]) => [name, structuredClone(s.fresh)]));
}
