import assert from "node:assert/strict";
import { z } from "zod";
import { createOrAdopt } from "bunnynet-pulumi/dist/pulumi/adoption.js";
import type { ResourceContext, ResourceDefinition } from "bunnynet-pulumi/dist/pulumi/definition.js";
import { NetworkError, ServerError } from "bunnynet-pulumi/dist/http/errors.js";

/** What createOrAdopt says of the object it found: the identity as set, and what became of a create that made it. */

const inputs = z.object({ zone: z.number(), kind: z.string(), pullZone: z.number().optional(), page: z.string().optional(), adoptExisting: z.boolean().default(false) });
type Inputs = z.output<typeof inputs>;
type Obj = Inputs & { id: number };

const ctx = { client: { settings: { maxRetries: 0 } } } as unknown as ResourceContext;
const declared: Inputs = { zone: 1, kind: "TXT", adoptExisting: false };

/** A kind identified by zone, kind and an input only some objects have (as a DnsRecord's pullZoneId). */
function definition(overrides: Record<string, unknown>) {
  return {
    type: "Record",
    inputs,
    computedOutputs: [],
    replaceOnChanges: [],
    identity: ["zone", "kind", "pullZone"],
    setOnAdoption: ["page"],
    describe: (obj: Obj, requested: Inputs) => ({ id: String(obj.id), inputs: { ...requested, zone: obj.zone, kind: obj.kind, pullZone: obj.pullZone, page: obj.page }, outputs: {} }),
    get: async () => undefined,
    delete: async () => undefined,
    ...overrides,
  } as unknown as ResourceDefinition<typeof inputs.shape, Obj, object>;
}

describe("unit: what createOrAdopt says of the object it found", () => {
  it("names the identity's inputs that are set, never one as undefined", async () => {
    const def = definition({ find: async () => ({ ...declared, id: 4 }) });
    await assert.rejects(createOrAdopt(def, ctx, declared), (e: unknown) => {
      assert.match((e as Error).message, /^Record zone=1, kind="TXT" already exists \(id 4\), /);
      assert.doesNotMatch((e as Error).message, /undefined/);
      return true;
    });
    const withPullZone = definition({ find: async () => ({ ...declared, pullZone: 7, id: 5 }) });
    await assert.rejects(createOrAdopt(withPullZone, ctx, { ...declared, pullZone: 7 }), /^Error: Record zone=1, kind="TXT", pullZone=7 already exists \(id 5\)/);
  });

  /** A create the server acted on though it failed (`failure`), whose object then cannot be brought to the inputs. */
  function madeThenUnsettled(failure: Error) {
    let made: Obj | undefined;
    const deleted: string[] = [];
    const def = definition({
      find: async () => made,
      create: async (_ctx: ResourceContext, i: Inputs) => {
        made = { ...i, page: undefined, id: 8 };
        throw failure;
      },
      update: async () => {
        throw new ServerError({ method: "POST", path: "/records/8/publish", status: 500 });
      },
      delete: async (_ctx: ResourceContext, id: string) => void deleted.push(id),
    });
    return { def, deleted };
  }

  it("a create answered with a 5xx that had made the object: the clean-up says it was answered, not that its answer was lost", async () => {
    const { def, deleted } = madeThenUnsettled(new ServerError({ method: "POST", path: "/records", status: 500 }));
    await assert.rejects(createOrAdopt(def, ctx, { ...declared, page: "p" }), (e: unknown) => {
      const message = (e as Error).message;
      assert.equal(message, "POST /records/8/publish answered 500. The Record this create made (id 8; the create was answered 500, yet had made it) was deleted again, so nothing is left behind and the next run starts over.");
      return true;
    });
    assert.deepEqual(deleted, ["8"]);
  });

  it("a create whose connection was cut after it was sent: the clean-up says its answer was lost", async () => {
    const { def } = madeThenUnsettled(new NetworkError({ method: "POST", path: "/records" }, "ECONNRESET", false));
    await assert.rejects(createOrAdopt(def, ctx, { ...declared, page: "p" }), /The Record this create made \(id 8; the create's answer was lost, yet it had made it\) was deleted again/);
  });
});
