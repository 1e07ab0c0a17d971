import { jsonCopy } from "../http/dataCopies";
import { specialArchiveSig, specialAssetSig, specialSigKey, unknownValue } from "./wireSignatures";

/**
 * How property values travel between the engine and a dynamic provider, as far as the framework reads them:
 * the unknown-value placeholder, the serialized provider, assets with their contents elided, and the protobuf
 * Struct's lack of `undefined`.
 */

/** A property bag as the engine sends it. */
export type Plain = Record<string, unknown>;

/** The engine's placeholder for a value not known yet (preview): the SDK's own constant. */
export const UNKNOWN: typeof unknownValue = unknownValue;

/** The property of every dynamic resource that holds the serialized provider. */
export const PROVIDER_KEY = "__provider";


/** The property of a dynamic resource that carries its URN (ownership.ts). */
export const OWNER_KEY = "__owner";

/** The properties without what only the engine's wire carries: the serialized provider and the owner's URN. */
export function withoutProvider(props: Plain): Plain {
  const rest = { ...props };
  delete rest[PROVIDER_KEY];
  delete rest[OWNER_KEY];
  return rest;
}

export function pickInputs(state: Plain, keys: readonly string[]): Plain {
  return Object.fromEntries(keys.filter((k) => k in state).map((k) => [k, state[k]]));
}

/** Drops undefined values: the engine's wire format (protobuf Struct) cannot carry them. A JSON round trip's result. */
export function plain(value: Plain): Plain {
  return jsonCopy(value);
}

/** Value equality for properties: `undefined` and `null` mean the same (unset). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  if (b === undefined || b === null) return false;
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as Plain).filter((k) => (a as Plain)[k] !== undefined && (a as Plain)[k] !== null);
  const kb = Object.keys(b as Plain).filter((k) => (b as Plain)[k] !== undefined && (b as Plain)[k] !== null);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Plain)[k], (b as Plain)[k]));
}

/** An asset or an archive (both are elided alike). */
export function isAsset(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const sig = (value as Plain)[specialSigKey];
  return sig === specialAssetSig || sig === specialArchiveSig;
}

/**
 * The engine sends old assets with their contents elided, `{sig, hash}` (pkg/resource/plugin/provider_plugin.go,
 * ElideAssetContents in Diff, Update, Read and Delete; archives alike, `{sig, hash}` without `path`/`assets`/`uri`),
 * so an old asset cannot be compared with a new one, and
 * refresh cannot give it back (the program cannot read an asset without contents: it is left out). A resource that
 * takes an asset records its content in another input (VideoThumbnail's fingerprint, computed by check), and that
 * input shows a change of content.
 */
export function isElidedAsset(value: unknown): boolean {
  return isAsset(value) && !["path", "text", "uri", "assets"].some((k) => k in (value as Plain));
}

/** The properties without elided assets, at any depth of nested objects (a StreamVideo's captions by language). */
export function withoutElidedAssets(props: Plain): Plain {
  const keep = (v: unknown): unknown => (typeof v === "object" && v !== null && !Array.isArray(v) && !isAsset(v) ? withoutElidedAssets(v as Plain) : v);
  return Object.fromEntries(Object.entries(props).filter(([, v]) => !isElidedAsset(v)).map(([k, v]) => [k, keep(v)]));
}

/**
 * Whether an old property is the new one as far as can be told: equal, or equal besides assets that the old side has
 * elided or left out (at any depth of nested objects) where the new side has an asset. The contents are compared
 * through another input (a fingerprint) instead.
 */
export function sameBesidesAssets(old: unknown, next: unknown): boolean {
  if (isAsset(next) && (old === undefined || old === null || isElidedAsset(old))) return true;
  if (sameValue(old, next)) return true;
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v) && !isAsset(v);
  if (!isObject(old) || !isObject(next)) return false;
  const keys = new Set([...Object.keys(old as Plain), ...Object.keys(next as Plain)]);
  return [...keys].every((k) => sameBesidesAssets((old as Plain)[k], (next as Plain)[k]));
}
