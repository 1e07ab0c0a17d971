import { createRequire } from "node:module";
import type { Plain } from "./wire";

/**
 * The Pulumi SDK's own modules and dependencies that have no typed entry point (gRPC, protobuf, the dynamic host's
 * parts), loaded the way the SDK loads them, so that they are the same instances; typed here where they are used.
 */
export const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));

/** A google.protobuf.Struct: the form of every property bag on the wire. */
export interface StructMessage {
  toJavaScript(): Plain;
}
export const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb") as { Struct: { fromJavaScript(value: Plain): StructMessage } };
