import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { type Plain, UNKNOWN, plain } from "../pulumi/wire";

/**
 * Property values on the provider gRPC wire, read and written here rather than by the SDK's `toJavaScript()` alone
 * (which keeps a secret as its wrapper object, so a definition would see `{sig, value}` where it expects a string).
 *
 * The format (pulumi/pulumi sdk/go/common/resource/plugin/rpc.go, at the snapshot read: v3.259.0-14):
 * - A secret is the object `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": v}`
 *   (MarshalPropertyValue, :232-251; read back by UnmarshalPropertyValue's `case resource.SecretSig`, :473-477). The
 *   engine sends them so only to a provider whose Configure answered acceptSecrets (provider_plugin.go: `KeepSecrets:
 *   protocol.acceptSecrets` in every Marshal of Check, Diff, Create, Read, Update, Delete); this plugin does.
 * - A value not known yet (preview) is one of seven sentinel strings, by the type of value it stands for
 *   (rpc.go:64-85, UnknownBoolValue … UnknownObjectValue; marshalUnknownProperty, :290). Each becomes the
 *   framework's UNKNOWN here (the string one, `04da6b54-80e4-46f7-96ec-b56ff0331ba9`), which goes back as itself:
 *   the engine reads any of the seven as unknown (unmarshalUnknownPropertyValue, :644).
 * - An asset or archive is an object with the same signature key and the asset's or archive's signature, with its
 *   `hash` and `path`/`text`/`uri` (or an archive's `assets`), contents elided in old state (rpc.go:721 MarshalAsset,
 *   MarshalArchive): left exactly as it comes, which is what the dynamic-provider host hands its providers
 *   (@pulumi/pulumi cmd/dynamic-provider, `toJavaScript()`), so wire.ts's asset helpers work unchanged.
 * - Resource references arrive as their id or URN string: Configure answers acceptResources false.
 *
 * Secrets are tracked per top-level property: one holding a secret anywhere is given back wholly secret. That is at
 * least as secret as it came (never less), and what the engine itself does for providers that do not accept secrets
 * (provider_plugin.go `annotateSecrets`, by key).
 */

export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** rpc.go:64-85: the unknown sentinels, one per kind of value. */
const UNKNOWN_SENTINELS = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/** A property bag read off the wire: the plain values (secrets revealed) and which top-level keys held a secret. */
export interface Received {
  values: Plain;
  secrets: Set<string>;
}

function isSecretWrapper(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as Plain)[SIG_KEY] === SECRET_SIG;
}

function reveal(value: unknown, onSecret: () => void): unknown {
  if (typeof value === "string") return UNKNOWN_SENTINELS.has(value) ? UNKNOWN : value;
  if (Array.isArray(value)) return value.map((v) => reveal(v, onSecret));
  if (value === null || typeof value !== "object") return value;
  if (isSecretWrapper(value)) {
    onSecret();
    return reveal(value.value, onSecret);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v, onSecret)]));
}

/** Reads a Struct as sent by the engine (undefined: an empty bag). */
export function receive(struct: Struct | undefined): Received {
  const secrets = new Set<string>();
  const raw = (struct?.toJavaScript() ?? {}) as Plain;
  const values = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, reveal(v, () => secrets.add(k))]));
  return { values, secrets };
}

/** The Struct of `values` with each of `secretKeys` that has a value wrapped as a secret (an unknown stays unknown). */
export function send(values: Plain, secretKeys: Iterable<string>): Struct {
  const out = plain(values);
  for (const k of secretKeys) {
    if (out[k] === undefined || out[k] === null || out[k] === UNKNOWN) continue;
    out[k] = { [SIG_KEY]: SECRET_SIG, value: out[k] };
  }
  return Struct.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}
