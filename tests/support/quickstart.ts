
/** The quickstart's Pulumi project name (its stack config keys are under it). */
export const QUICKSTART_PROJECT = "bunnynet-quickstart";

/** Stack config that points the quickstart (examples/quickstart/program.ts) at an emulator's fixtures. `bunnynet:apiKey` is meant to be secret. */
export function quickstartConfig(emu: { url: string; fixtures: Record<string, string | number> }, extra: Record<string, string> = {}): Record<string, string> {
  const f = emu.fixtures;
  const p = QUICKSTART_PROJECT;
  return {
    "bunnynet:apiKey": String(f.accessKey),
    "bunnynet:apiUrl": emu.url,
    "bunnynet:streamApiUrl": emu.url,
    "bunnynet:loggingApiUrl": emu.url,
    [`${p}:pullZoneId`]: String(f.pullZoneId),
    [`${p}:scriptId`]: String(f.scriptId),
    [`${p}:videoLibraryId`]: String(f.videoLibraryId),
    [`${p}:videoId`]: String(f.videoId),
    [`${p}:appId`]: String(f.appId),
    [`${p}:volumeId`]: String(f.attachedVolumeId),
    [`${p}:volumeInstanceId`]: String(f.attachedInstanceId),
    ...extra,
  };
}
