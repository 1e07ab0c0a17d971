import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";

/**
 * Inputs that take a Pulumi asset (a thumbnail's image, a script's code). The engine sends an asset to a dynamic
 * provider as a plain object tagged with the asset signature, `{<sigKey>: <assetSig>, path | text | uri, hash?}`
 * (archives carry the archive signature); the SDK's classes are rebuilt only in the program process. Stored, an asset
 * is reduced to its path or its text, and its content is fingerprinted at check, so a changed file at the same path
 * is a change (the engine elides old assets' contents: see provider/pulumi/wire.ts).
 */

const { specialSigKey: SIG_KEY, specialAssetSig: ASSET_SIG, specialArchiveSig: ARCHIVE_SIG } = pulumi.runtime;

/** A FileAsset or StringAsset as stored: its path or its text (the engine's hash is dropped). */
export type StoredAsset = { [SIG_KEY]: string; path: string } | { [SIG_KEY]: string; text: string };

/** Whether the value is a tagged archive (never an asset input). */
export function isArchive(value: Record<string, unknown>): boolean {
  return value[SIG_KEY] === ARCHIVE_SIG;
}

/** Whether the value is tagged as an asset (of any kind: file, string or remote). */
export function isTaggedAsset(value: Record<string, unknown>): boolean {
  return value[SIG_KEY] === ASSET_SIG;
}

/** The stored form of a tagged FileAsset or StringAsset with content; undefined for anything else. */
export function storedAsset(value: Record<string, unknown>): StoredAsset | undefined {
  if (value[SIG_KEY] !== ASSET_SIG) return undefined;
  if (typeof value.path === "string" && value.path !== "") return { [SIG_KEY]: ASSET_SIG, path: value.path };
  if (typeof value.text === "string" && value.text !== "") return { [SIG_KEY]: ASSET_SIG, text: value.text };
  return undefined;
}

/** The asset's bytes: its text, or its file (a path relative to the Pulumi project's directory). */
export async function assetBytes(asset: StoredAsset | { path: string }): Promise<Buffer<ArrayBuffer>> {
  return "text" in asset ? Buffer.from(asset.text, "utf8") : readFile(resolve(asset.path));
}

/** `sha256:<hex>` of the bytes: the fingerprint of an asset's content. */
export function sha256(bytes: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}
