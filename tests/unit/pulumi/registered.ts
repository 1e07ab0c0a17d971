/** The resource types as the plugin process serves them: every type registered, looked up by name. */
import "bunnynet-pulumi/dist/index.js"; // every resource module registers its type when loaded
import type * as pulumi from "@pulumi/pulumi";
import { type ResourceImplementation, implementationOf } from "bunnynet-pulumi/dist/pulumi/index.js";

export function implementation(type: string): ResourceImplementation {
  const found = implementationOf(type);
  if (!found) throw new Error(`no resource type ${type} is registered`);
  return found;
}

/** `check` of a new resource (no old inputs), as at the first preview or up. */
export function check(type: string, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  return implementation(type).check({}, news);
}

/** The inputs `check` accepted: what the engine stores, and later hands to diff as the old inputs. */
export async function checked(type: string, news: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await check(type, news);
  if ((result.failures ?? []).length > 0) throw new Error(`${type} refused ${JSON.stringify(news)}: ${JSON.stringify(result.failures)}`);
  return result.inputs as Record<string, unknown>;
}
