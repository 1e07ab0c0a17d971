import assert from "node:assert/strict";
import { z } from "zod";
import { adoptedInThisCommand, createOrAdopt, forgetAdoptions } from "bunnynet-pulumi/dist/pulumi/adoption.js";
import type { ResourceContext, ResourceDefinition } from "bunnynet-pulumi/dist/pulumi/definition.js";
import { marking, ownerMark } from "bunnynet-pulumi/dist/pulumi/ownership.js";
import { AlreadyExistsError, ServerError } from "bunnynet-pulumi/dist/http/errors.js";

/** Lets every pending promise callback run (no timers involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const inputs = z.object({ name: z.string(), adoptExisting: z.boolean().default(false) });
type Obj = { id: number; name: string };

/**
 * A definition whose look-up (`find`) and refusal reads (`beforeCreate`) stay in flight until the test settles them,
 * recording what was sent when.
 */
function heldDefinition() {
  const events: string[] = [];
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const hold = <T>(name: string) => {
    events.push(`sent ${name}`);
    return new Promise<T>((resolve, reject) => pending.set(name, { resolve: resolve as (v: unknown) => void, reject }));
  };
  const def = {
    type: "Thing",
    inputs,
    computedOutputs: [],
    replaceOnChanges: [],
    identity: ["name"],
    describe: (obj: Obj, requested: z.output<typeof inputs>) => ({ id: String(obj.id), inputs: { ...requested, name: obj.name }, outputs: {} }),
    find: () => hold<Obj | undefined>("find"),
    beforeCreate: () => hold<void>("beforeCreate"),
    create: async (_ctx: ResourceContext, i: z.output<typeof inputs>) => {
      events.push("create");
      return { id: 7, name: i.name };
    },
    get: async () => undefined,
    delete: async () => undefined,
  } as unknown as ResourceDefinition<typeof inputs.shape, Obj, object>;
  const answer = (name: string, value?: unknown) => pending.get(name)!.resolve(value);
  const fail = (name: string, message: string) => pending.get(name)!.reject(new Error(message));
  return { def, events, answer, fail };
}

const ctx = {} as ResourceContext;

describe("createOrAdopt: the reads that may refuse a create go with the look-up", () => {
  it("sends them at once with the look-up, and creates once neither found a reason not to", async () => {
    const { def, events, answer } = heldDefinition();
    const created = createOrAdopt(def, ctx, { name: "a", adoptExisting: false });
    await settle();
    assert.deepEqual(events, ["sent beforeCreate", "sent find"], "both in flight before either answered");
    answer("beforeCreate");
    await settle();
    assert.deepEqual(events, ["sent beforeCreate", "sent find"], "no create before the look-up answered");
    answer("find", undefined);
    assert.equal((await created).id, "7");
    assert.deepEqual(events, ["sent beforeCreate", "sent find", "create"]);
  });

  it("a refusal stops the create; when both fail, the look-up's failure is the one reported, and nothing goes unhandled", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const refused = heldDefinition();
      const a = createOrAdopt(refused.def, ctx, { name: "a", adoptExisting: false });
      await settle();
      refused.fail("beforeCreate", "a secret has that name");
      refused.answer("find", undefined);
      await assert.rejects(a, /a secret has that name/);
      assert.ok(!refused.events.includes("create"));

      const both = heldDefinition();
      const b = createOrAdopt(both.def, ctx, { name: "b", adoptExisting: false });
      await settle();
      both.fail("beforeCreate", "secrets: 404");
      await settle();
      both.fail("find", "script: 404");
      await assert.rejects(b, /script: 404/);
      await settle();
    } finally {
      process.off("unhandledRejection", listener);
    }
    assert.deepEqual(unhandled, []);
  });

  it("an object found is adopted whatever the refusal reads say; a program asking to adopt sends them only when nothing was found", async () => {
    const found = heldDefinition();
    const a = createOrAdopt(found.def, ctx, { name: "a", adoptExisting: true });
    await settle();
    assert.deepEqual(found.events, ["sent find"]);
    found.answer("find", { id: 3, name: "a" });
    assert.equal((await a).id, "3");

    const missing = heldDefinition();
    const b = createOrAdopt(missing.def, ctx, { name: "b", adoptExisting: true });
    await settle();
    missing.answer("find", undefined);
    await settle();
    assert.deepEqual(missing.events, ["sent find", "sent beforeCreate"]);
    missing.answer("beforeCreate");
    assert.equal((await b).id, "7");
  });
});

describe("createOrAdopt: an object found is taken without adoptExisting only when proven this resource's own (issue 42)", () => {
  const ruleInputs = z.object({ zone: z.number(), label: z.string(), colour: z.string(), note: z.string().optional(), adoptExisting: z.boolean().default(false) });
  type Rule = z.output<typeof ruleInputs>;
  type RuleObj = Rule & { id: number };
  const URN = "urn:pulumi:staging::site::pulumi-nodejs:dynamic/bunnynet:Rule::headers";
  const OTHER = "urn:pulumi:production::site::pulumi-nodejs:dynamic/bunnynet:Rule::headers";
  const owned = { owner: URN } as ResourceContext;
  let types = 0;

  /**
   * A kind as the package registers its own (`marking`: the mark is written and read as in a deployment), whose
   * look-up finds `existing` (or whose create the API refuses as a duplicate, then finds it). `marked`: the rule's
   * note keeps the owner's mark.
   */
  function kind(existing: RuleObj | undefined, options: { marked?: boolean; refusesDuplicates?: boolean } = {}) {
    const calls: string[] = [];
    const type = `Rule${++types}`;
    const { marked = true, refusesDuplicates } = options;
    const def = marking({
      type,
      inputs: ruleInputs,
      computedOutputs: [],
      replaceOnChanges: ["zone"],
      identity: ["zone", "label"],
      ...(marked ? { ownerMark: { input: "note" as const } } : {}),
      ...(refusesDuplicates ? { refusesDuplicates } : {}),
      describe: (obj: RuleObj, requested: Rule) => ({ id: String(obj.id), inputs: { ...requested, zone: obj.zone, label: obj.label, colour: obj.colour, note: obj.note }, outputs: {} }),
      find: async () => {
        calls.push("find");
        return existing;
      },
      create: async (_ctx: ResourceContext, i: Rule) => {
        calls.push(`create ${i.note}`);
        if (refusesDuplicates && existing) throw new AlreadyExistsError({ method: "POST", path: "/rules", status: 409, serverMessage: "exists" });
        return { ...i, id: 9 };
      },
      update: async (_ctx: ResourceContext, id: string, _state: unknown, i: Rule) => {
        calls.push(`update ${i.colour} ${i.note}`);
        return { ...i, id: Number(id) };
      },
      get: async () => undefined,
      delete: async () => undefined,
    } as unknown as ResourceDefinition<typeof ruleInputs.shape, RuleObj, object>);
    return { def, calls };
  }
  const declared: Rule = { zone: 1, label: "headers", colour: "blue", adoptExisting: false };
  const withAdopt = async <T>(value: string, run: () => Promise<T>): Promise<T> => {
    process.env.BUNNYNET_ADOPT = value;
    try {
      return await run();
    } finally {
      delete process.env.BUNNYNET_ADOPT;
    }
  };

  it("the create writes this resource's mark after the user's text, and what is described never shows it", async () => {
    const fresh = kind(undefined);
    const made = await createOrAdopt(fresh.def, owned, { ...declared, note: "set by CI" });
    assert.deepEqual(fresh.calls, ["find", `create set by CI ${ownerMark(URN)}`]);
    assert.equal(made.inputs.note, "set by CI");
    assert.equal(made.mark, ownerMark(URN));
    const bare = kind(undefined);
    await createOrAdopt(bare.def, owned, declared);
    assert.deepEqual(bare.calls, ["find", `create ${ownerMark(URN)}`], "the mark alone where the user wrote none");
  });

  it("an object carrying this resource's mark is taken back, nothing created; what differs since is set by update", async () => {
    const same = kind({ ...declared, note: ownerMark(URN), id: 4 });
    assert.equal((await createOrAdopt(same.def, owned, declared)).id, "4");
    assert.deepEqual(same.calls, ["find"]);
    const changed = kind({ ...declared, colour: "red", note: ownerMark(URN), id: 4 });
    assert.equal((await createOrAdopt(changed.def, owned, declared)).id, "4");
    assert.deepEqual(changed.calls, ["find", `update blue ${ownerMark(URN)}`]);
  });

  it("another stack's identical object (its mark) is never taken: refused, naming both marks; nothing created or changed", async () => {
    const theirs = kind({ ...declared, note: `shared ${ownerMark(OTHER)}`, id: 4 });
    await assert.rejects(
      createOrAdopt(theirs.def, owned, declared),
      new RegExp(`already exists \\(id 4\\) and was made by another stack or resource \\(its note carries the mark \\${ownerMark(OTHER).slice(0, -1)}\\]; this resource's is \\${ownerMark(URN).slice(0, -1)}\\]\\).*set adoptExisting: true`),
    );
    assert.deepEqual(theirs.calls, ["find"]);
  });

  it("an object without a mark is refused with the one command that takes it over, id filled in; that command takes it", async () => {
    const unmarkedRule = kind({ ...declared, id: 4 });
    const refusal = await createOrAdopt(unmarkedRule.def, owned, declared).then(
      () => assert.fail("taken"),
      (e: Error) => e.message,
    );
    assert.match(refusal, /carries no mark of this resource's/);
    const command = /BUNNYNET_ADOPT='([^']*)' pulumi up/.exec(refusal);
    assert.ok(command, refusal);
    assert.equal(command[1], `${URN}=4`);
    assert.equal((await withAdopt(command[1], () => createOrAdopt(unmarkedRule.def, owned, declared))).id, "4");
    // Naming another object, or another resource, takes nothing.
    await assert.rejects(withAdopt(`${URN}=5`, () => createOrAdopt(unmarkedRule.def, owned, declared)), /carries no mark/);
    await assert.rejects(withAdopt(`${OTHER}=4`, () => createOrAdopt(unmarkedRule.def, owned, declared)), /carries no mark/);
  });

  it("a kind with no place for a mark takes nothing, not even an identical object, and prints the command; the command takes it and sets what differs", async () => {
    const identical = kind({ ...declared, id: 4 }, { marked: false });
    await assert.rejects(createOrAdopt(identical.def, owned, declared), /keeps nothing on a Rule\d+ that shows which stack made it, so it is not taken\. If an interrupted `pulumi up` of this stack made it for this resource, take it over without editing the program: BUNNYNET_ADOPT='urn:pulumi:staging::site::pulumi-nodejs:dynamic\/bunnynet:Rule::headers=4' pulumi up/);
    const differing = kind({ ...declared, colour: "red", id: 4 }, { marked: false });
    assert.equal((await withAdopt(`${URN}=4`, () => createOrAdopt(differing.def, owned, declared))).id, "4");
    assert.deepEqual(differing.calls, ["find", "update blue undefined"]);
  });

  it("the identity in the refusal leaves out inputs the program did not set (no `pullZoneId=undefined`)", async () => {
    const found = kind({ ...declared, id: 4 }, { marked: false });
    const def = { ...found.def, identity: ["zone", "label", "note"] } as typeof found.def;
    await assert.rejects(createOrAdopt(def, owned, declared), /^Error: Rule\d+ zone=1, label="headers" already exists \(id 4\)/);
  });

  it("a taken-back object is remembered as adopted by this command, so the delete of a replaced original leaves it (pulumi up --replace)", async () => {
    forgetAdoptions();
    const own = kind({ ...declared, note: ownerMark(URN), id: 6 });
    await createOrAdopt(own.def, owned, declared);
    assert.equal(adoptedInThisCommand(own.def.type, "6"), true);
    forgetAdoptions();
    assert.equal(adoptedInThisCommand(own.def.type, "6"), false);
  });

  it("an object a create made before its answer was lost is kept but not remembered as adopted; another's found then is not kept", async () => {
    forgetAdoptions();
    let made: RuleObj | undefined;
    const lost = kind(undefined);
    const losing = (note: (written: string | undefined) => string | undefined) =>
      ({
        ...lost.def,
        find: async () => made,
        create: async (_ctx: ResourceContext, i: Rule) => {
          made = { ...i, note: note(i.note), id: 8 };
          throw new ServerError({ method: "POST", path: "/rules", status: 502, serverMessage: "bad gateway" });
        },
      }) as typeof lost.def;
    // Registered definitions mark in their create; these stand-ins write the mark as that create would.
    assert.equal((await createOrAdopt(losing(() => ownerMark(URN)), owned, declared)).id, "8");
    assert.equal(adoptedInThisCommand(lost.def.type, "8"), false);
    made = undefined;
    await assert.rejects(createOrAdopt(losing(() => ownerMark(OTHER)), owned, declared), /made by another stack or resource/);
  });

  it("where the API refuses the duplicate, the refusal's look-up takes back this resource's own and refuses another's", async () => {
    const same = kind({ ...declared, note: ownerMark(URN), id: 5 }, { refusesDuplicates: true });
    assert.equal((await createOrAdopt(same.def, owned, declared)).id, "5");
    const other = kind({ ...declared, note: ownerMark(OTHER), id: 5 }, { refusesDuplicates: true });
    await assert.rejects(createOrAdopt(other.def, owned, declared), /already exists \(id 5\) and was made by another stack/);
  });

  it("without a URN (a caller that names no resource) nothing is proven: refused with the adoptExisting advice alone", async () => {
    const own = kind({ ...declared, note: ownerMark(URN), id: 4 });
    await assert.rejects(createOrAdopt(own.def, ctx, declared), (e: Error) => /set adoptExisting: true/.test(e.message) && !/BUNNYNET_ADOPT/.test(e.message));
  });
});

describe("createOrAdopt: two deployments racing past the look-up (findAll) never take back each other's object", () => {
  it("the yielding creator deletes its own and is refused with the adoptExisting advice, even for an identical object", async () => {
    const calls: string[] = [];
    const def = {
      type: "Raced",
      inputs,
      computedOutputs: [],
      replaceOnChanges: [],
      identity: ["name"],
      describe: (obj: Obj, requested: z.output<typeof inputs>) => ({ id: String(obj.id), inputs: { ...requested, name: obj.name }, outputs: {} }),
      find: async () => undefined,
      findAll: async () => [
        { id: 4, name: "a" },
        { id: 9, name: "a" },
      ],
      create: async () => ({ id: 9, name: "a" }),
      get: async () => undefined,
      delete: async (_ctx: ResourceContext, id: string) => void calls.push(`delete ${id}`),
    } as unknown as ResourceDefinition<typeof inputs.shape, Obj, object>;
    await assert.rejects(createOrAdopt(def, ctx, { name: "a", adoptExisting: false }), /already exists \(id 4\), and bunny\.net keeps nothing on a Raced that shows which stack made it, so it is not taken\. To manage it with this resource, set adoptExisting: true.*another deployment created it at the same time/s);
    assert.deepEqual(calls, ["delete 9"]);
  });
});

describe("createOrAdopt: an object taken over is brought to where a create leaves it (whenFound)", () => {
  it("whenFound runs on the object found, and the object it gives is the one described; nothing is created", async () => {
    const calls: string[] = [];
    const def = {
      type: "Deploying",
      inputs,
      computedOutputs: [],
      replaceOnChanges: [],
      identity: ["name"],
      describe: (obj: Obj & { status: string }, requested: z.output<typeof inputs>) => ({ id: String(obj.id), inputs: { ...requested, name: obj.name }, outputs: { status: obj.status } }),
      find: async () => ({ id: 4, name: "a", status: "progressing" }),
      whenFound: async (_ctx: ResourceContext, obj: Obj) => {
        calls.push(`whenFound ${obj.id}`);
        return { ...obj, status: "active" };
      },
      create: async () => void calls.push("create"),
      get: async () => undefined,
      delete: async () => undefined,
    } as unknown as ResourceDefinition<typeof inputs.shape, Obj, object>;
    const taken = await createOrAdopt(def, ctx, { name: "a", adoptExisting: true });
    assert.deepEqual([taken.id, (taken.outputs as { status: string }).status], ["4", "active"]);
    assert.deepEqual(calls, ["whenFound 4"]);
  });
});
