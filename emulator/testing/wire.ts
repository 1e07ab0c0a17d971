import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { specialAssetSig, specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { OWNER_KEY, PROVIDER_KEY } from "bunnynet-pulumi/dist/pulumi/index.js";

/**
 * Property values on their way between the program, the engine and the dynamic-provider plugin: what a secret, an
 * unknown and an asset are at each step, and the `__provider` text every resource carries.
 *
 * - The dynamic host does not accept secrets: the engine sends their plain values (and a protobuf Struct has no
 *   undefined), except in ConfigureRequest.args, where config secrets keep the secret envelope.
 * - Assets are sent with their contents elided (`{sig, hash}`) in Diff's and Update's old properties, Read and
 *   Delete (pkg/resource/plugin/provider_plugin.go, `ElideAssetContents`).
 */

/** Resource properties as plain JavaScript values (secrets unwrapped, unknowns as UNKNOWN_VALUE). */
export type Plain = Record<string, unknown>;

/** The engine's placeholder for a value unknown at preview time (the SDK's `unknownValue`, @pulumi/pulumi/runtime/rpc). */
export const UNKNOWN_VALUE = unknownValue;

/** A value the program marked secret (`pulumi.secret`). */
export class Secret<T = unknown> {
  constructor(readonly value: T) {}
}
export const secret = <T>(value: T): Secret<T> => new Secret(value);

/** What the engine sends when the provider does not accept secrets: secrets are plain values (and a Struct has no undefined). */
export function toWire(value: unknown): unknown {
  if (value instanceof Secret) return toWire(value.value);
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === "object") {
    // A loop rather than entries/filter/fromEntries: this runs over every property of every RPC the kit sends.
    const wire: Plain = {};
    for (const key of Object.keys(value)) {
      const v = (value as Plain)[key];
      if (v === undefined) continue;
      if (key === "__proto__") Object.defineProperty(wire, key, { value: toWire(v), enumerable: true, writable: true, configurable: true });
      else wire[key] = toWire(v);
    }
    return wire;
  }
  return value;
}

/** A secret as the SDK serializes it: the envelope with the secret signature. */
export function secretEnvelope(value: unknown): Plain {
  return { [specialSigKey]: specialSecretSig, value };
}

function isSecretEnvelope(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Plain)[specialSigKey] === specialSecretSig;
}

/** The `__provider` text a resource's properties carry (the program's registration may hold it as a secret). */
export function providerTextOf(props: Plain): string {
  const text = props[PROVIDER_KEY];
  return String(isSecretEnvelope(text) ? text.value : text);
}

/**
 * What a provider is configured with: the stack config (strings) for the default provider, an explicit provider's
 * inputs (any value) for its own; secrets as `Secret`.
 */
export type ConfigValues = Record<string, string | number | boolean | Secret<string>>;

/** Config values as the engine sends them in ConfigureRequest.args: secrets in the secret envelope. */
export function configToWire(config: ConfigValues): Plain {
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v instanceof Secret ? secretEnvelope(v.value) : v]));
}

export function containsSecret(value: unknown): boolean {
  if (value instanceof Secret) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsSecret);
  return false;
}

/** Where a secret is in a resource's properties: the keys from the top, as `["containers", "web", "env", "TOKEN"]`. */
export type SecretPath = string[];

const isPlainObject = (v: unknown): v is Plain => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Secret);

/**
 * The outputs' secrets as the engine marks them for a provider that does not accept secrets (as the dynamic host):
 * a key whose input contains a secret is secret at the depth where input and output stop being both objects, so
 * one secret in an object does not make the whole object secret, but one in an array makes the array secret
 * (pulumi/pulumi sdk/go/common/resource/plugin/provider_plugin.go, annotateSecrets, after Create, Update and Read:
 * against the inputs, and at Read against the old outputs). Then `additionalSecretOutputs`, whole top-level keys
 * (pkg/resource/deploy/step_executor.go, executeStep). The engine stores them there and answers the program with
 * them in place (source_eval.go, RegisterResource: MarshalProperties with KeepSecrets); the Node.js SDK then makes
 * each top-level output that holds one secret whole (@pulumi/pulumi runtime/rpc.js, deserializeProperty and
 * resolveProperties), so the program sees `app.containers` as a secret output, its value all readable in `apply`.
 */
export function secretPathsOf(outputs: Plain, inputs: Plain, additionalSecretOutputs: string[] = []): SecretPath[] {
  const paths: SecretPath[] = [];
  const annotate = (outs: Plain, ins: Plain, at: SecretPath) => {
    for (const [key, inValue] of Object.entries(ins)) {
      if (!(key in outs)) continue;
      const outValue = outs[key];
      if (isPlainObject(outValue) && isPlainObject(inValue)) annotate(outValue, inValue, [...at, key]);
      else if (containsSecret(inValue)) paths.push([...at, key]);
    }
  };
  annotate(outputs, inputs, []);
  const whole = additionalSecretOutputs.filter((k) => k in outputs);
  return [...paths.filter((p) => !whole.includes(p[0])), ...whole.map((k) => [k])];
}

/** The top-level keys that hold a secret (`StoredResource.secretKeys`). */
export function topLevelKeys(paths: SecretPath[]): string[] {
  return [...new Set(paths.map((p) => p[0]))];
}

/** The properties with the values at `paths` wrapped (in `Secret`, or the wire's envelope); the objects along a path are copied. */
export function withSecretsAt(props: Plain, paths: SecretPath[], wrap: (value: unknown) => unknown = secret): Plain {
  const result = { ...props };
  for (const path of paths) {
    let at: Plain | undefined = result;
    for (const k of path.slice(0, -1)) {
      const next: unknown = at[k];
      if (!isPlainObject(next)) {
        at = undefined;
        break;
      }
      at = at[k] = { ...next };
    }
    const last = path[path.length - 1];
    if (at && last !== undefined && last in at) at[last] = wrap(at[last]);
  }
  return result;
}

const isRecord = (v: unknown): v is Plain =>
  v !== null && typeof v === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(v) as object | null);

/**
 * Where the program's registration has its secrets, from the request as the SDK serialized it (secret envelopes at
 * their depth, @pulumi/pulumi runtime/rpc.js, serializeProperty): an array holding one counts whole. The SDK's mock
 * monitor hands the inputs on deserialized, which makes each top-level value that holds a secret secret whole.
 */
export function envelopePathsIn(value: unknown, at: SecretPath = []): SecretPath[] {
  if (isSecretEnvelope(value)) return [at];
  if (Array.isArray(value)) return value.some((v) => envelopePathsIn(v).length > 0) ? [at] : [];
  if (isRecord(value)) return Object.entries(value).flatMap(([k, v]) => envelopePathsIn(v, [...at, k]));
  return [];
}

/** Deserialized properties with their secret envelopes moved to `paths` (where the program had them). */
export function withEnvelopesAt(props: Plain, paths: SecretPath[]): Plain {
  const unwrap = (v: unknown): unknown => {
    if (isSecretEnvelope(v)) return unwrap(v.value);
    if (Array.isArray(v)) return v.map(unwrap);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
    return v;
  };
  return withSecretsAt(unwrap(props) as Plain, paths, secretEnvelope);
}

/**
 * The properties without what only the wire carries: the (long) `__provider` text and the owner's URN (`__owner`,
 * provider/pulumi/ownership.ts), which the host adds back when sending.
 */
export function withoutProvider(props: Plain): Plain {
  // Not `delete`, which turns the copy into a slow dictionary-mode object.
  const { [PROVIDER_KEY]: _text, [OWNER_KEY]: _owner, ...rest } = props;
  return rest;
}

/** The properties with a resource's `__provider` text, as every RPC about the resource carries them. */
export function withProviderText(props: Plain, text: string): Plain {
  return { ...props, [PROVIDER_KEY]: text };
}

/** The program's inputs as the engine has them: secrets as `Secret`, unknowns as the placeholder, assets in their wire form. */
export async function fromProgram(value: unknown): Promise<unknown> {
  if (pulumi.isUnknown(value)) return UNKNOWN_VALUE;
  if (isSecretEnvelope(value)) return new Secret(await fromProgram(value.value));
  if (pulumi.asset.Asset.isInstance(value) || pulumi.asset.Archive.isInstance(value)) {
    const { wire } = (await pulumi.runtime.serializeProperties("asset", { wire: value })) as { wire: Plain };
    return Object.fromEntries(Object.entries(wire).filter(([k]) => !k.startsWith("__pulumi")));
  }
  if (Array.isArray(value)) return Promise.all((value as unknown[]).map(fromProgram));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await fromProgram(v)])));
  }
  return value;
}

/** Assets as the engine sends them in old properties: the signature and the hash of the contents only. */
export function elideAssets(value: Plain): Plain {
  const elide = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(elide);
    if (v === null || typeof v !== "object") return v;
    const o = v as Plain;
    if (o[specialSigKey] === specialAssetSig) return { [specialSigKey]: specialAssetSig, hash: o.hash ?? assetHash(o) };
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, elide(x)]));
  };
  return elide(value) as Plain;
}

/** The engine's asset hash: sha256 of the contents, hex. */
function assetHash(asset: Plain): string | undefined {
  const bytes = typeof asset.text === "string" ? Buffer.from(asset.text) : typeof asset.path === "string" ? readFileSync(resolve(asset.path)) : undefined;
  return bytes && createHash("sha256").update(bytes).digest("hex");
}
