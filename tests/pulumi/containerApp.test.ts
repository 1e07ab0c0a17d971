import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { ProgramHarness } from "../support/programHarness";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProviderHost, UNKNOWN_VALUE, named, secret } from "../support/providerHost";

import { refusal, takeOverValue } from "../support/takeOver";

const TYPE = "ContainerApp";
const SECRET_ENV = "app-token-0f9e8d7c6b5a";
const SECRET_DB_PASSWORD = "db-password-5e4d3c2b1a09";
const IN_PLACE = { changes: "some", replaces: [], deleteBeforeReplace: false };

/**
 * ContainerApp (issue 27's done-when) through the kit's real provider host against a fresh emulator: an app with
 * two containers (a secret env value, probes, a volume), a CDN endpoint on a PullZone the program declares and an
 * Anycast endpoint deploys and reaches `active`; a new image tag is one in-place update that waits for the new
 * version; reordering containers plans nothing; an unchanged `up` makes no call; refresh finds no drift; destroy
 * leaves nothing; the env value is never in plain state. Then the provider's rules one by one: check, the deployment
 * that fails or outlasts its timeout, a volume's removal, adoption, drift, and "already gone".
 */
describe("pulumi: ContainerApp through the kit's provider host", function () {
  this.timeout(60_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  let registryId: number;
  let counter = 0;

  before(async () => {
    emu = await startEmulator();
    registryId = Number(emu.fixtures.dockerHubRegistryId);
    host = await ProviderHost.start();
    await host.configure(config());
  });
  const config = () => ({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "1" });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });
  afterEach(() => emu.clearFaults());

  const apps = () => emu.client().containers;
  const routes = async () => (await emu.requests()).map((r) => `${r.method} ${r.route}`);
  const harnessFor = () =>
    new ProgramHarness({ project: "container-app", config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });

  describe("a program: two containers, a CDN endpoint on a declared pull zone, an Anycast endpoint, a volume", () => {
    let harness: ProgramHarness;
    const suffix = `p${Date.now() % 100000}`;
    const program = (options: { webTag?: string; reversed?: boolean; cacheExpirationTime?: number } = {}) => () => {
      const zone = new bunnynet.PullZone("front", { name: `app-front-${suffix}`, origin: { frontsContainerEndpoint: true }, ...(options.cacheExpirationTime ? { cacheExpirationTime: options.cacheExpirationTime } : {}) });
      const web = {
        image: { registryId, namespace: "library", name: "nginx", tag: options.webTag ?? "1.27" },
        env: { API_TOKEN: pulumi.secret(SECRET_ENV), MODE: "production" },
        // Given plain, kept secret all the same.
        secretEnv: { DB_PASSWORD: SECRET_DB_PASSWORD },
        probes: { readiness: { type: "http" as const, port: 80, path: "/healthz" }, liveness: { type: "tcp" as const, port: 80 } },
        volumeMounts: { data: "/var/data" },
        endpoints: { site: { type: "cdn" as const, ports: [{ container: 80 }], cdn: { pullZoneId: zone.pullZoneId } } },
      };
      const worker = {
        image: { registryId, namespace: "library", name: "redis", tag: "7" },
        // Terraform's spelling of the type, stored in the API's.
        endpoints: { cache: { type: "Anycast" as const, ports: [{ container: 6379, exposed: 6379 }] } },
      };
      const app = new bunnynet.ContainerApp("shop", {
        name: `shop ${suffix}`,
        regions: { allowed: ["DE", "UK"], required: ["DE"] },
        autoscaling: { min: 1, max: 3 },
        containers: options.reversed ? { worker, web } : { web, worker },
        volumes: { data: { sizeGb: 2 } },
      });
      return {
        appId: app.appId, status: app.status, endpoints: app.endpoints, zoneId: zone.pullZoneId, zoneOrigin: zone.origin, cdnHostname: zone.cdnHostname,
        containersSecret: pulumi.output(pulumi.isSecret(app.containers)), webEnv: app.containers.apply((c) => c.web.env), webSecretEnv: app.containers.apply((c) => c.web.secretEnv),
      };
    };

    before(() => {
      harness = harnessFor();
    });

    it("deploys: the app reaches active, the CDN endpoint fronts the declared zone, the Anycast one has its host", async () => {
      const run = await harness.up(program());
      assert.deepEqual(run.steps.map((s) => s.op), ["create", "create"]);
      assert.equal(run.outputs.status, "active");
      const endpoints = run.outputs.endpoints as Record<string, { pullZoneId?: number; publicHost?: string; type: string; container: string }>;
      assert.equal(endpoints.site.pullZoneId, run.outputs.zoneId, "the CDN endpoint is on the program's pull zone");
      assert.equal(endpoints.site.container, "web");
      assert.match(String(endpoints.cache.publicHost), /\.bunny\.run$/);
      const app = await apps().getApp(String(run.outputs.appId));
      assert.equal(app.status, "active");
      assert.deepEqual(app.containerTemplates.map((c) => c.name), ["web", "worker"]);
      assert.deepEqual(app.containerTemplates[0].environmentVariables, [
        { name: "API_TOKEN", value: SECRET_ENV },
        { name: "DB_PASSWORD", value: SECRET_DB_PASSWORD },
        { name: "MODE", value: "production" },
      ]);
      assert.deepEqual(app.volumes, [{ name: "data", size: 2 }]);
    });

    it("the declared zone's origin is the endpoint that fronts it (bunny.net links them), shown as frontsContainerEndpoint", async () => {
      const stored = harness.resource(TYPE, "shop")!.outputs;
      const siteId = (stored.endpoints as Record<string, { id: string }>).site.id;
      const front = harness.resource("PullZone", "front")!;
      const zone = await emu.client().pullZones.getPullZone(Number(front.outputs.pullZoneId));
      assert.deepEqual([zone.OriginType, zone.MagicContainersAppId, zone.MagicContainersEndpointId], [5, stored.appId, siteId]);
      assert.equal((front.outputs.origin as { frontsContainerEndpoint?: boolean }).frontsContainerEndpoint, true);
      assert.equal(front.outputs.cdnHostname, `app-front-${suffix}.b-cdn.net`, "clients use the zone's own host");
    });

    it("a change of the zone's settings keeps the endpoint as its origin", async () => {
      await emu.markRequests();
      const run = await harness.up(program({ cacheExpirationTime: 600 }));
      assert.deepEqual(run.steps.map((s) => s.op), ["update", "same"]);
      const zoneId = Number(harness.resource("PullZone", "front")!.outputs.pullZoneId);
      assert.equal((await emu.client().pullZones.getPullZone(zoneId)).OriginType, 5);
      assert.deepEqual((await harness.up(program({ cacheExpirationTime: 600 }))).steps.map((s) => s.op), ["same", "same"]);
      assert.deepEqual((await harness.refresh()).map((s) => s.op).filter((op) => op !== "refresh"), []);
      await harness.up(program());
    });

    it("a secret env value is never in plain state, and only secret values are secrets (a plain MODE stays readable: issue 37)", async () => {
      const stored = harness.resource(TYPE, "shop")!;
      assert.ok(stored.secretKeys.includes("containers"));
      // The engine keeps each env value secret at its own depth, not the whole `containers` output (annotateSecrets).
      const secretPaths = [["containers", "web", "env", "API_TOKEN"], ["containers", "web", "secretEnv", "DB_PASSWORD"]];
      assert.deepEqual(stored.secretPaths, secretPaths);
      assert.deepEqual(stored.inputSecretPaths, secretPaths);
      assert.equal(((stored.outputs.containers as Record<string, { env: Record<string, string> }>).web.env).MODE, "production");
      const withoutSecrets = structuredClone(stored.outputs);
      for (const path of stored.secretPaths) delete (path.slice(0, -1).reduce((o, k) => o[k] as Record<string, unknown>, withoutSecrets) as Record<string, unknown>)[path[path.length - 1]];
      for (const value of [SECRET_ENV, SECRET_DB_PASSWORD]) {
        assert.ok(!JSON.stringify(withoutSecrets).includes(value) && JSON.stringify(withoutSecrets).includes("nginx"), "the rest of containers is plain");
        for (const r of harness.resources()) {
          const plainOutputs = Object.fromEntries(Object.entries(r.outputs).filter(([k]) => !r.secretKeys.includes(k)));
          assert.ok(!JSON.stringify(plainOutputs).includes(value), `${r.name}: the env value in plain outputs`);
        }
        assert.ok(!host.logs().includes(value), "the env value in the provider's output");
        assert.ok(!JSON.stringify(harness.messages()).includes(value), "the env value in the engine's messages");
      }
    });

    it("the program reads the containers output whole: secret, as the SDK makes an output holding a secret", async () => {
      const run = await harness.up(program());
      assert.deepEqual(run.steps.map((s) => s.op), ["same", "same"]);
      assert.equal(run.outputs.containersSecret, true);
      assert.deepEqual(run.outputs.webEnv, { API_TOKEN: SECRET_ENV, MODE: "production" });
      assert.deepEqual(run.outputs.webSecretEnv, { DB_PASSWORD: SECRET_DB_PASSWORD }, "read back into secretEnv, not env: no drift");
    });

    it("an unchanged up makes no call; reordering the containers plans nothing", async () => {
      await emu.markRequests();
      const same = await harness.up(program());
      assert.deepEqual(same.steps.map((s) => s.op), ["same", "same"]);
      assert.deepEqual(await routes(), []);
      const reordered = await harness.up(program({ reversed: true }));
      assert.deepEqual(reordered.steps.map((s) => s.op), ["same", "same"]);
      assert.deepEqual(await routes(), []);
    });

    it("refresh finds no drift", async () => {
      const before = JSON.stringify(harness.resources());
      const steps = await harness.refresh();
      assert.ok(steps.every((s) => s.op !== "gone"));
      assert.equal(JSON.stringify(harness.resources()), before);
    });

    it("a new image tag is one in-place update that waits until the new version runs", async () => {
      const appId = String(harness.resource(TYPE, "shop")!.outputs.appId);
      const containerIds = harness.resource(TYPE, "shop")!.outputs.containerIds;
      await emu.faults({ appDeployMs: 400 });
      await emu.markRequests();
      const run = await harness.up(program({ webTag: "1.28" }));
      assert.deepEqual(run.steps.map((s) => s.op), ["same", "update"]);
      assert.equal(run.outputs.appId, appId, "the same app");
      assert.equal(run.outputs.status, "active");
      const calls = await routes();
      assert.equal(calls.filter((c) => c === "PUT /mc/apps/:appId").length, 1);
      assert.ok(calls.filter((c) => c === "GET /mc/apps/:appId").length >= 2, "the update polled the deployment");
      assert.ok(!calls.some((c) => c.startsWith("POST") || c.startsWith("DELETE")), "nothing replaced");
      const app = await apps().getApp(appId);
      assert.equal(app.containerTemplates.find((c) => c.name === "web")!.imageTag, "1.28");
      assert.deepEqual(harness.resource(TYPE, "shop")!.outputs.containerIds, containerIds, "the containers keep their ids");
    });

    it("the app deleted outside the program: the declared zone stays, on the landing page, without drift; refresh and up make the app again, fronting it again", async () => {
      const appId = String(harness.resource(TYPE, "shop")!.outputs.appId);
      const zoneId = Number(harness.resource("PullZone", "front")!.outputs.pullZoneId);
      await apps().deleteApp(appId);
      const zone = await emu.client().pullZones.getPullZone(zoneId);
      assert.deepEqual([zone.OriginType, zone.OriginUrl, zone.MagicContainersAppId || null], [0, "https://bunny.net", null], "unlinked, on bunny.net's landing page");
      const refreshed = await harness.refresh();
      assert.deepEqual(refreshed.filter((s) => s.op !== "refresh").map((s) => `${s.op} ${s.urn.split("::").pop()}`), ["gone shop"], "the zone reads without drift");
      const run = await harness.up(program());
      assert.deepEqual(run.steps.map((s) => s.op), ["same", "create"]);
      const newAppId = String(run.outputs.appId);
      assert.notEqual(newAppId, appId);
      const siteId = (harness.resource(TYPE, "shop")!.outputs.endpoints as Record<string, { id: string }>).site.id;
      const linked = await emu.client().pullZones.getPullZone(zoneId);
      assert.deepEqual([linked.OriginType, linked.MagicContainersAppId, linked.MagicContainersEndpointId], [5, newAppId, siteId], "the new app's endpoint fronts the zone");
    });

    it("destroy leaves nothing", async () => {
      const appId = String(harness.resource(TYPE, "shop")!.outputs.appId);
      await harness.destroy();
      assert.equal(harness.resources().length, 0);
      await assert.rejects(apps().getApp(appId), NotFoundError);
    });
  });

  describe("the provider's rules", () => {
    const base = (extra: Record<string, unknown> = {}) => ({
      name: `rules-app-${++counter}`,
      regions: { allowed: ["DE"] },
      autoscaling: { min: 1, max: 1 },
      containers: { web: { image: { registryId, namespace: "library", name: "nginx", tag: "1.27" }, env: { KEY: secret("value") }, volumeMounts: { data: "/data" } } },
      volumes: { data: { sizeGb: 1 } },
      ...extra,
    });
    async function checked(props: Record<string, unknown>, olds: Record<string, unknown> = {}) {
      const res = await host.check(TYPE, olds, props);
      assert.deepEqual(res.failures, []);
      return res.inputs;
    }

    it("check refuses bad input naming the nested property, without a call, also with values not known yet", async () => {
      await emu.markRequests();
      const bad = base({
        autoscaling: { min: 3, max: 2 },
        containers: {
          web: {
            image: { registryId, namespace: "library", name: "nginx", tag: "bad tag!" },
            volumeMounts: { missing: "/x" },
            endpoints: { site: { type: "anycast", ports: [{ container: 70000 }], cdn: { originSsl: true } } },
            probes: { readiness: { type: "tcp", port: 80, path: "/" } },
          },
        },
      });
      const res = await host.check(TYPE, {}, bad);
      const properties = res.failures.map(named).map((f) => f.property).sort();
      assert.deepEqual(properties, [
        "autoscaling.max",
        "containers.web.endpoints.site.cdn",
        "containers.web.endpoints.site.ports.0.container",
        "containers.web.image.tag",
        "containers.web.probes.readiness.path",
      ]);
      const unknownTag = await host.check(TYPE, {}, base({ containers: { web: { image: { registryId, namespace: "library", name: "nginx!", tag: UNKNOWN_VALUE } } } }));
      assert.deepEqual(unknownTag.failures.map(named).map((f) => f.property), ["containers.web.image.name"]);
      const mounts = await host.check(TYPE, {}, base({ volumes: { other: { sizeGb: 1 } } }));
      assert.deepEqual(mounts.failures.map(named).map((f) => f.property), ["containers.web.volumeMounts.data"]);
      const twice = await host.check(TYPE, {}, base({ containers: { web: { image: { registryId, namespace: "library", name: "nginx", tag: "1.27" }, env: { TOKEN: "a" }, secretEnv: { TOKEN: "b" } } } }));
      assert.deepEqual(twice.failures.map(named).map((f) => [f.property, f.reason]), [["containers.web.secretEnv.TOKEN", "TOKEN is in env too: give each variable once"]]);
      assert.deepEqual(await routes(), []);
    });

    it("removing a volume is refused by check, naming it, unless allowVolumeDeletion is set", async () => {
      const olds = await checked(base());
      const dropped = base({ name: olds.name, containers: { web: { image: { registryId, namespace: "library", name: "nginx", tag: "1.27" } } }, volumes: undefined });
      const refused = await host.check(TYPE, olds, dropped);
      assert.deepEqual(refused.failures.map(named), [{ property: "volumes", reason: "removing volume data deletes the data on it: set allowVolumeDeletion: true to delete it" }]);
      await checked({ ...dropped, allowVolumeDeletion: true }, olds);
    });

    it("a deployment that fails, or outlasts deployTimeoutSeconds, fails the create naming the app and its last status", async () => {
      await emu.faults({ failAppDeploys: true, appDeployMs: 0 });
      const failing = await checked(base());
      await assert.rejects(host.create(TYPE, failing), /container app "rules-app-\d+" \(\w+\) did not deploy: its status is failing; the new app was deleted again/);
      await emu.faults({ appDeployMs: 60_000 });
      const slow = await checked(base({ deployTimeoutSeconds: 1 }));
      await assert.rejects(host.create(TYPE, slow), /was not running within deployTimeoutSeconds \(1 s; last status progressing\)/);
      for await (const app of apps().listApps()) assert.ok(app.name !== failing.name && app.name !== slow.name, "the apps that did not deploy are gone");
    });

    it("diff: a new tag or env value changes in place; refresh shows drift made outside; delete of a gone app succeeds", async () => {
      const inputs = await checked(base());
      const { id, outputs } = await host.create(TYPE, inputs);
      assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
      const retagged = await checked({ ...base(), name: inputs.name, containers: { web: { image: { registryId, namespace: "library", name: "nginx", tag: "1.29" }, env: { KEY: "value" }, volumeMounts: { data: "/data" } } } });
      assert.deepEqual(await host.diff(TYPE, id, outputs, retagged), IN_PLACE);
      const current = await apps().getApp(id);
      await apps().updateApp(id, {
        name: current.name,
        runtimeType: "shared",
        autoScaling: { min: 2, max: 4 },
        regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: [] },
        containerTemplates: [{ id: current.containerTemplates[0].id, name: "web", imageRegistryId: String(registryId), imageNamespace: "library", imageName: "nginx", imageTag: "1.27", environmentVariables: [{ name: "KEY", value: "changed" }], volumeMounts: [{ name: "data", mountPath: "/data" }] }],
        volumes: [{ name: "data", size: 1 }],
      });
      const read = await host.read(TYPE, id, outputs, inputs);
      assert.deepEqual(read.inputs!.autoscaling, { min: 2, max: 4 });
      assert.deepEqual((read.inputs!.containers as Record<string, { env: unknown }>).web.env, { KEY: "changed" });
      assert.equal((await host.diff(TYPE, id, read.outputs, inputs)).changes, "some");
      await host.delete(TYPE, id, outputs);
      await assert.rejects(apps().getApp(id), NotFoundError);
      await host.delete(TYPE, id, outputs);
      assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
    });

    it("an app with the same name and spec is not taken without proof; the refusal's command takes it once it runs; one that differs is refused", async () => {
      const spec = base();
      const inputs = await checked(spec);
      // The cut create's deployment is still progressing when the next up finds the app.
      await emu.faults({ appDeployMs: 2_000 });
      const existing = await apps().addApp({
        name: String(inputs.name),
        runtimeType: "shared",
        autoScaling: { min: 1, max: 1 },
        regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: [] },
        containerTemplates: [{ name: "web", imageRegistryId: String(registryId), imageNamespace: "library", imageName: "nginx", imageTag: "1.27", imagePullPolicy: "ifNotPresent", environmentVariables: [{ name: "KEY", value: "value" }], volumeMounts: [{ name: "data", mountPath: "/data" }] }],
        volumes: [{ name: "data", size: 1 }],
      });
      // Another image tag under the same name: not the declared app. Refused; adoptExisting names the difference.
      const other = await checked({ ...spec, containers: { web: { ...spec.containers.web, image: { ...spec.containers.web.image, tag: "1.26" } } } });
      await assert.rejects(host.create(TYPE, other), /already exists .*set adoptExisting: true/);
      await assert.rejects(host.create(TYPE, { ...other, adoptExisting: true }), /already exists .*but differs from the inputs in: containers/);
      // bunny.net keeps nothing on an app that says which stack made it: the identical app is refused too, with the command.
      const refused = await refusal(host.create(TYPE, inputs));
      assert.match(refused, /keeps nothing on a ContainerApp that shows which stack made it/);
      await emu.markRequests();
      host = await host.nextDeployment(config(), { env: { BUNNYNET_ADOPT: takeOverValue(refused) } });
      const taken = await host.create(TYPE, inputs);
      await emu.clearFaults();
      host = await host.nextDeployment(config());
      assert.equal(taken.id, existing);
      assert.equal(taken.outputs.status, "active", "waited for, as a create waits for its deployment");
      assert.ok(!(await routes()).includes("POST /mc/apps"), "no second app");
      await host.delete(TYPE, taken.id, taken.outputs);
    });

    it("adoption refuses a name two apps share, naming their ids, and creates nothing", async () => {
      const inputs = await checked(base());
      const app = () =>
        apps().addApp({
          name: String(inputs.name),
          runtimeType: "shared",
          autoScaling: { min: 1, max: 1 },
          regionSettings: { allowedRegionIds: ["DE"], requiredRegionIds: [] },
          containerTemplates: [{ name: "web", imageRegistryId: String(registryId), imageNamespace: "library", imageName: "nginx", imageTag: "1.27", imagePullPolicy: "ifNotPresent", environmentVariables: [{ name: "KEY", value: "value" }], volumeMounts: [{ name: "data", mountPath: "/data" }] }],
          volumes: [{ name: "data", size: 1 }],
        });
      const first = await app();
      const second = await app();
      await emu.markRequests();
      for (const adoptExisting of [false, true]) {
        await assert.rejects(host.create(TYPE, { ...inputs, adoptExisting }), new RegExp(`2 container apps are named "${String(inputs.name)}" \\(ids ${first}, ${second}\\)`));
      }
      assert.ok(!(await routes()).includes("POST /mc/apps"), "no third app");
      await apps().deleteApp(first);
      await apps().deleteApp(second);
    });
  });
});
