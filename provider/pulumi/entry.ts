/**
 * The stable entry point that every serialized provider shim requires (by package name, from the
 * Pulumi project's directory): `bunnynet-pulumi/dist/pulumi/entry.js`. Keep its path and
 * `providerFor` signature: state written by every earlier version of the package points here.
 */
import "../index"; // every resource module registers its type when loaded
import { packageInfo } from "../packageInfo";
import { implementationOf } from "./registry";
import type { ResourceImplementation } from "./types";

export function providerFor(type: string): ResourceImplementation {
  const implementation = implementationOf(type);
  if (!implementation) {
    throw new Error(`${packageInfo.name} ${packageInfo.version} (installed in this project) has no resource type ${type}: install the version that created it`);
  }
  return implementation;
}
