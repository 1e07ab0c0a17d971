/** Every zod schema of the package, one module per API surface. */
export * from "./common";
export * from "./apiKeys";
export * from "./stream";
export * from "./containers";
export * from "./pullZones";
export * from "./edgeScripts";
export * from "./account";
export * from "./shield";
export * from "./logging";
export * from "./shieldZones";
export * from "./videoLibraries";
