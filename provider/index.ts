/** pulumi-bunnynet: the typed client, errors, settings, resources and lookups. */
export * from "./http/errors";
export { BunnyClient } from "./client";
export { resolveSettings, type BunnySettings, type SettingsInput } from "./settings";
export * as schemas from "./schemas";
export * as framework from "./pulumi";
export { ScriptVariable, type ScriptVariableArgs } from "./resources/scriptVariable";
export { PullZoneHostname, type PullZoneHostnameArgs } from "./resources/pullZoneHostname";
export { VideoThumbnail, type VideoThumbnailArgs } from "./resources/videoThumbnail";
export { VolumeInstanceDeletion, type VolumeInstanceDeletionArgs } from "./resources/volumeInstanceDeletion";
export * from "./lookups";
