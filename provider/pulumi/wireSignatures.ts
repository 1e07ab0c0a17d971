/**
 * The engine's wire constants a provider reads: the unknown-value placeholder and the signatures that tag assets and
 * archives. They are the SDK's own values (pulumi/pulumi sdk/nodejs/runtime/rpc.ts: unknownValue, specialSigKey,
 * specialAssetSig, specialArchiveSig; the same in every SDK and in the engine's resource/sig package), written here
 * because importing them from `@pulumi/pulumi/runtime/rpc` loads the SDK's program runtime (about 0.2 s of CPU), which
 * the provider plugin never runs. tests/unit/pulumi/wireSignatures.test.ts proves them equal to the SDK's.
 */

/** The engine's placeholder for a value not known yet (preview). */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The key whose value says what a tagged object on the wire is (an asset, an archive, a secret…). */
export const specialSigKey = "4dabf18193072939515e22adb298388d";

/** The signature of an asset. */
export const specialAssetSig = "c44067f5952c0a294b673a41bacd8c17";

/** The signature of an archive. */
export const specialArchiveSig = "0def7320c3a5731c473e5ecbe6d01bc7";
