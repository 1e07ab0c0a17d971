/** Every zod schema of the package, one module per API surface. */
export * from "./common";
export * from "./apiKeys";
export * from "./stream";
export * from "./containers";
export * from "./pullZones";
export * from "./pullZoneEdge";
export * from "./edgeRuleEnums";
export * from "./edgeScripts";
export * from "./edgeScriptCode";
export * from "./account";
export * from "./shield";
export * from "./logging";
export * from "./dns";
export * from "./dnsEnums";
export * from "./storageZones";
export * from "./shieldZones";
export * from "./videoLibraries";
