import assert from "node:assert/strict";
import { request } from "undici";
import { startEmulator, type TestEmulator } from "../support/emulator";

/**
 * bunny.net's own Terraform provider (BunnyWay/terraform-provider-bunnynet) runs its acceptance tests against the
 * real API, so the requests they make are accepted and the refusals they expect are real. Each scenario here replays
 * one of those tests as the HTTP requests the provider sends (its internal/api/*.go calls, with their bodies as the
 * Go structs marshal them), step by step, against the emulator: every body must be accepted, every answer must be
 * what the provider reads, every refusal the one the test expects. Each step cites the test file and step (the
 * index in `Steps`, from 1, with its line) and the calls it makes.
 */

interface Answer {
  status: number;
  json: unknown;
  text: string;
}

describe("emulator: the Terraform provider's acceptance scenarios, replayed over HTTP", function () {
  let emu: TestEmulator;

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  /** One request as the Terraform provider's client sends it (internal/api/client.go: AccessKey, JSON). */
  async function call(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<Answer> {
    const res = await request(`${emu.url}${path}`, {
      method,
      headers: { AccessKey: String(emu.fixtures.accessKey), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json, text };
  }

  /** A step's call must answer what the provider checks for (its `resp.StatusCode != …` test). */
  async function expect(status: number, method: Parameters<typeof call>[0], path: string, body?: unknown): Promise<Answer> {
    const answer = await call(method, path, body);
    assert.equal(answer.status, status, `${method} ${path} ${body === undefined ? "" : JSON.stringify(body)} answered ${answer.status} ${answer.text}`);
    return answer;
  }

  const random = () => Math.random().toString(36).slice(2, 14);

  describe("pull zone hostname (internal/provider/resource_pullzone_hostname_test.go, TestAccPullzoneHostnameResource)", () => {
    it("steps 1-5: add, import, the free certificate refused for a name not pointing here, back, destroy", async () => {
      const key = random();
      // The test's bunnynet_pullzone (made here through the emulator's own route; the pull zone scenario is not this one).
      const zone = (await expect(201, "POST", "/pullzone", { Name: `test-acceptance-${key}`, OriginUrl: "https://bunny.net" })).json as { Id: number };
      const hostname = `test-acceptance-${key}.terraform.internal`;
      const hostnamesOf = async () => ((await expect(200, "GET", `/pullzone/${zone.Id}`)).json as { Hostnames: { Value: string; HasCertificate: boolean; ForceSSL: boolean }[] }).Hostnames;

      // Step 1 (line 45): create. api/pullzone_hostname.go CreatePullzoneHostname: GET the zone, POST addHostname
      // {Hostname} expecting 204, GET the zone again and find the hostname by name; then Read: GET the zone.
      await hostnamesOf();
      await expect(204, "POST", `/pullzone/${zone.Id}/addHostname`, { Hostname: hostname });
      const added = (await hostnamesOf()).find((h) => h.Value === hostname);
      assert.ok(added, "the hostname is on the zone");
      assert.deepEqual([added.HasCertificate, added.ForceSSL], [false, false]);

      // Step 2 (line 51): import "<pullzone>|<name>": GetPullzoneHostnameByName, a GET of the zone.
      assert.ok((await hostnamesOf()).some((h) => h.Value === hostname));

      // Step 3 (line 57): force_ssl without tls_enabled is refused by the provider's validator: no request.

      // Step 4 (line 61): tls_enabled and force_ssl: UpdatePullzoneHostname loads a free certificate first
      // (GET loadFreeCertificate?hostname=, expecting 200); the test expects the API's refusal, prefixed by the
      // provider with "loadFreeCertificate failed: " (its Message, internal/utils/utils.go ExtractErrorMessage).
      const refused = await expect(400, "GET", `/pullzone/loadFreeCertificate?hostname=${hostname}`);
      const message = (refused.json as { Message: string }).Message;
      assert.match(`loadFreeCertificate failed: ${message}`, /.*loadFreeCertificate failed: The\sdomain\s.*\sis\snot\spointing\sto\sour\sservers\./);
      assert.equal((await hostnamesOf()).find((h) => h.Value === hostname)?.HasCertificate, false, "nothing was issued");

      // Step 5 (line 65): back to tls_enabled = false: the state did not change, no request. Then destroy:
      // DeletePullzoneHostname (DELETE removeHostname {Hostname}, 204) and the zone (DELETE, 204).
      await expect(204, "DELETE", `/pullzone/${zone.Id}/removeHostname`, { Hostname: hostname });
      assert.ok(!(await hostnamesOf()).some((h) => h.Value === hostname));
      await expect(204, "DELETE", `/pullzone/${zone.Id}`);
    });
  });

  /** bunnynet_compute_script "standalone" as api/compute_script.go CreateComputeScript makes it (ScriptTypeStandalone = 1). */
  async function createScript(name: string, code: string): Promise<number> {
    const created = (await expect(201, "POST", "/compute/script", { Name: name, ScriptType: 1, CreateLinkedPullZone: false })).json as { Id: number };
    await expect(204, "POST", `/compute/script/${created.Id}/code`, { Code: code });
    // Read: GetComputeScript, the script and its code.
    await expect(200, "GET", `/compute/script/${created.Id}`);
    assert.equal(((await expect(200, "GET", `/compute/script/${created.Id}/code`)).json as { Code: string }).Code, code);
    return created.Id;
  }

  describe("script variable (internal/provider/resource_compute_script_variable_test.go, TestAccComputeScriptVariableResource)", () => {
    it("step 1: create and read; step 2: import by name; then an update and destroy as the provider sends them", async () => {
      const [scriptName, variableName, value] = [random(), random(), random()];
      const scriptId = await createScript(`test-acceptance-${scriptName}`, "export default {}");
      const name = `VAR_${variableName}`;

      // Step 1 (line 48): api/compute_script_variable.go CreateComputeScriptVariable: POST variables/add with the
      // ComputeScriptVariable struct ({Name, Required, DefaultValue}; Id omitted), 200, then GET variables/{id}.
      const added = (await expect(200, "POST", `/compute/script/${scriptId}/variables/add`, { Name: name, Required: true, DefaultValue: value })).json as { Id: number };
      const read = (await expect(200, "GET", `/compute/script/${scriptId}/variables/${added.Id}`)).json;
      assert.deepEqual(read, { Id: added.Id, Name: name, Required: true, DefaultValue: value });

      // Step 2 (line 56): import "<script>|<name>": GetComputeScriptVariableByName reads EdgeScriptVariables of the script.
      const script = (await expect(200, "GET", `/compute/script/${scriptId}`)).json as { EdgeScriptVariables: { Id: number; Name: string }[] };
      assert.equal(script.EdgeScriptVariables.find((v) => v.Name === name)?.Id, added.Id);

      // UpdateComputeScriptVariable (the same file, not a test step): POST variables/{id} with the whole struct,
      // Name included (Id zeroed, so omitted), 200, then GET.
      await expect(200, "POST", `/compute/script/${scriptId}/variables/${added.Id}`, { Name: name, Required: false, DefaultValue: "changed" });
      assert.deepEqual((await expect(200, "GET", `/compute/script/${scriptId}/variables/${added.Id}`)).json, { Id: added.Id, Name: name, Required: false, DefaultValue: "changed" });

      // A different name is no update the documents offer: refused, naming the field.
      const rename = await expect(400, "POST", `/compute/script/${scriptId}/variables/${added.Id}`, { Name: `${name}_X`, Required: false });
      assert.equal((rename.json as { Field: string }).Field, "Name");

      // Destroy: DeleteComputeScriptVariable (204), then the script (204).
      await expect(204, "DELETE", `/compute/script/${scriptId}/variables/${added.Id}`);
      await expect(404, "GET", `/compute/script/${scriptId}/variables/${added.Id}`);
      await expect(204, "DELETE", `/compute/script/${scriptId}`);
    });
  });

  describe("DNS script variable (internal/provider/resource_dns_script_variable.go; the provider has no acceptance test for it)", () => {
    it("a DNS script (ScriptType 0) takes a variable at the same endpoints; a secret is refused", async () => {
      // internal/api/dns_script.go CreateDnsScript: CreateComputeScript with ScriptType 0, then publish.
      const created = (await expect(201, "POST", "/compute/script", { Name: `test-acceptance-${random()}`, ScriptType: 0, CreateLinkedPullZone: false })).json as { Id: number };
      // Create: GetComputeScript (the type must be DNS), then CreateComputeScriptVariable with the value as DefaultValue.
      assert.equal(((await expect(200, "GET", `/compute/script/${created.Id}`)).json as { ScriptType: number }).ScriptType, 0);
      const added = (await expect(200, "POST", `/compute/script/${created.Id}/variables/add`, { Name: "REGION", Required: false, DefaultValue: "eu" })).json as { Id: number };
      assert.deepEqual((await expect(200, "GET", `/compute/script/${created.Id}/variables/${added.Id}`)).json, { Id: added.Id, Name: "REGION", Required: false, DefaultValue: "eu" });
      const secret = await expect(400, "POST", `/compute/script/${created.Id}/secrets`, { Name: "TOKEN", Secret: "x" });
      assert.equal((secret.json as { ErrorKey: string }).ErrorKey, "edgescript.unsupported_script_type");
      await expect(204, "DELETE", `/compute/script/${created.Id}/variables/${added.Id}`);
      await expect(204, "DELETE", `/compute/script/${created.Id}`);
    });
  });

  describe("image registry (internal/api/compute_container_imageregistry.go; the provider has no acceptance test for it)", () => {
    it("create answers 201 with the id, the list shows it, an update with the id in the body, delete, and the public registry found as the data source finds it", async () => {
      const user = `tf-${random()}`;
      // CreateComputeContainerImageregistry: type is the display name ("DockerHub"), 201 required.
      const created = (await expect(201, "POST", "/mc/registries", { displayName: "DockerHub", type: "DockerHub", passwordCredentials: { userName: user, password: "tf-token" } })).json as { id: number };
      // GetComputeContainerImageregistry: the whole list, found by id.
      const listed = (await expect(200, "GET", "/mc/registries")).json as { items: { id: number; displayName: string; userName: string; hostName: string }[] };
      assert.deepEqual(listed.items.filter((r) => r.id === created.id).map((r) => [r.displayName, r.userName, r.hostName]), [["DockerHub", user, "docker.io"]]);
      // UpdateComputeContainerImageregistry: PUT with the id in the body, 200.
      await expect(200, "PUT", `/mc/registries/${created.id}`, { id: created.id, displayName: "DockerHub", type: "DockerHub", passwordCredentials: { userName: user, password: "tf-token-2" } });
      await expect(400, "PUT", `/mc/registries/${created.id}`, { id: created.id + 1, displayName: "DockerHub", type: "DockerHub", passwordCredentials: { userName: user, password: "x" } });
      // DeleteComputeContainerImageregistry: 200 (404 would be "already gone").
      await expect(200, "DELETE", `/mc/registries/${created.id}`);
      // FindComputeContainerImageregistry without a user name: "<registry> Public".
      assert.ok(((await expect(200, "GET", "/mc/registries")).json as { items: { displayName: string; userName: string | null }[] }).items.some((r) => r.displayName === "GitHub Public" && r.userName === null));
    });
  });

  describe("script secret (internal/provider/resource_compute_script_secret_test.go, TestAccComputeScriptSecretResource)", () => {
    it("step 1: create and read by name; step 2: import; then the provider's update (a PUT upsert answering 204) and destroy", async () => {
      const [scriptName, secretName, value] = [random(), random().slice(0, 4), random()];
      const name = `SECRET_${secretName}`;
      const scriptId = await createScript(`test-acceptance-${scriptName}`, `export default () => process.env.${name}`);

      // Step 1 (line 48): api/compute_script_secret.go CreateComputeScriptSecret: POST secrets {Name, Secret}, 200,
      // then GetComputeScriptSecretByName: GET secrets, found by name (never a value).
      await expect(200, "POST", `/compute/script/${scriptId}/secrets`, { Name: name, Secret: value });
      const listed = (await expect(200, "GET", `/compute/script/${scriptId}/secrets`)).json as { Secrets: { Id: number; Name: string }[] };
      const secret = listed.Secrets.find((s) => s.Name === name);
      assert.ok(secret);
      assert.ok(!JSON.stringify(listed).includes(value), "no value in the listing");

      // Step 2 (line 56): import "<script>|<name>": the same listing (the value is ignored in the comparison).
      assert.ok(((await expect(200, "GET", `/compute/script/${scriptId}/secrets`)).json as typeof listed).Secrets.some((s) => s.Name === name));

      // UpdateComputeScriptSecret (the same file): PUT secrets {Name, Secret} (Id zeroed, omitted), expecting 204.
      const upsert = await expect(204, "PUT", `/compute/script/${scriptId}/secrets`, { Name: name, Secret: "rotated" });
      assert.equal(upsert.text, "");

      // Destroy: DELETE secrets/{id} (204), then the script.
      await expect(204, "DELETE", `/compute/script/${scriptId}/secrets/${secret.Id}`);
      await expect(204, "DELETE", `/compute/script/${scriptId}`);
    });
  });

  describe("container app with a CDN endpoint (internal/provider/resource_compute_container_app_test.go)", () => {
    /** The test's region (TESTACC_MC_REGION): any region of the account. */
    const region = "DE";

    /** The body api/compute_container_app.go UpdateComputeContainerApp sends for the test's config (POST when new). */
    const appBody = (name: string, registryId: string, volume: boolean) => ({
      name,
      runtimeType: "Shared",
      autoScaling: { min: 1, max: 1 },
      regionSettings: { allowedRegionIds: [region], requiredRegionIds: [region], maxAllowedRegions: null },
      containerTemplates: [
        {
          // resource_compute_container_app.go convertModelToApi: a fixed packageId, the pull policy's default "Always".
          packageId: "d2c1b95e-65e7-42a3-adb3-d27d9d1a4f72",
          name: "echo",
          imageNamespace: "hashicorp",
          imageName: "http-echo",
          imageTag: "latest",
          imageRegistryId: registryId,
          imagePullPolicy: "Always",
          entryPoint: { command: "", arguments: "", workingDirectory: "" },
          probes: { startup: null, readiness: null, liveness: null },
          endpoints: [{ displayName: "cdn", cdn: { isSslEnabled: false, stickySessions: null, portMappings: [{ containerPort: 5678 }] } }],
          environmentVariables: [],
          ...(volume ? { volumeMounts: [{ name: "data", mountPath: "/data" }] } : {}),
        },
      ],
      ...(volume ? { volumes: [{ name: "data", size: 1 }] } : {}),
    });

    for (const [test, volume] of [["TestAccComputeContainerAppResource", false], ["TestAccComputeContainerAppWithPersistentVolumeResource", true]] as const) {
      it(`${test}: step 1 creates the app and reads it back with its endpoint; step 2 imports it; destroy deletes it`, async () => {
        // The config's data source bunnynet_compute_container_imageregistry {registry = "DockerHub", username = ""}:
        // api/compute_container_imageregistry.go FindComputeContainerImageregistry lists the registries and takes
        // "DockerHub Public" with no user name.
        const registries = (await expect(200, "GET", "/mc/registries")).json as { items: { id: number; displayName: string; userName: string | null }[] };
        const dockerHub = registries.items.find((r) => r.displayName === "DockerHub Public" && (r.userName ?? "") === "");
        assert.ok(dockerHub, "the public DockerHub registry");

        // Step 1: POST /mc/apps (201 or 200 with {id}), then GetComputeContainerApp: GET /mc/apps/{id}.
        const name = `test-acceptance-${random()}`;
        const created = (await expect(201, "POST", "/mc/apps", appBody(name, String(dockerHub.id), volume))).json as { id: string };
        type App = { name: string; containerTemplates: { name: string; image: string; endpoints: { displayName: string; type: string; publicHost: string; portMappings: { containerPort: number }[] }[]; volumeMounts: { name: string }[] }[]; volumes: { name: string }[] };
        const read = (await expect(200, "GET", `/mc/apps/${created.id}`)).json as App;
        assert.equal(read.name, name);
        const [echo] = read.containerTemplates;
        assert.equal(echo.name, "echo");
        assert.deepEqual(echo.endpoints.map((e) => [e.displayName, e.type, e.portMappings[0].containerPort]), [["cdn", "cdn", 5678]]);
        assert.ok(echo.endpoints[0].publicHost.endsWith(".b-cdn.net"), "a CDN endpoint has a b-cdn.net host");
        if (volume) assert.deepEqual([read.volumes.map((v) => v.name), echo.volumeMounts.map((m) => m.name)], [["data"], ["data"]]);
        // The endpoint is the app's: the endpoint listing (the provider's own client) shows it too.
        const listed = (await expect(200, "GET", `/mc/apps/${created.id}/endpoints`)).json as { items: { displayName: string; containerName: string }[] };
        assert.deepEqual(listed.items.map((e) => [e.displayName, e.containerName]), [["cdn", "echo"]]);

        // Step 2: import by id: GET /mc/apps/{id}, the same answer.
        assert.deepEqual((await expect(200, "GET", `/mc/apps/${created.id}`)).json, read);

        // An update as the same function sends it (not a test step): PUT /mc/apps/{id} with the app's id and each
        // container's id (200 with {id}), then GET. The container, its endpoint and its host stay; the tag changes.
        type Ids = { id: string; containerTemplates: { id: string; imageTag: string; endpoints: { id: string; publicHost: string }[] }[] };
        const ids = read as unknown as Ids;
        const body = appBody(name, String(dockerHub.id), volume);
        const update = { id: created.id, ...body, containerTemplates: [{ ...body.containerTemplates[0], id: ids.containerTemplates[0].id, imageTag: "1.0" }] };
        assert.equal(((await expect(200, "PUT", `/mc/apps/${created.id}`, update)).json as { id: string }).id, created.id);
        const updated = (await expect(200, "GET", `/mc/apps/${created.id}`)).json as Ids;
        assert.deepEqual(
          [updated.containerTemplates[0].id, updated.containerTemplates[0].imageTag, updated.containerTemplates[0].endpoints[0].id, updated.containerTemplates[0].endpoints[0].publicHost],
          [ids.containerTemplates[0].id, "1.0", ids.containerTemplates[0].endpoints[0].id, ids.containerTemplates[0].endpoints[0].publicHost],
        );

        // Destroy: DeleteComputeContainerApp, DELETE (200); then it is gone (404 reads as gone).
        await expect(200, "DELETE", `/mc/apps/${created.id}`);
        await expect(404, "GET", `/mc/apps/${created.id}`);
        await expect(404, "GET", `/mc/apps/${created.id}/endpoints`);
      });
    }

    it("a CDN endpoint naming no pull zone gets a real one (issue #53): listed, read, kept by a PUT, gone with the endpoint or the app; a declared zone is fronted, not copied, and takes the endpoint as its origin until the endpoint leaves it", async () => {
      type Endpoint = { id: string; displayName: string; type: string; publicHost: string; pullZoneId: string };
      type Zone = { Id: number; Name: string; OriginType: number; OriginUrl: string; MagicContainersAppId: string; MagicContainersEndpointId: string; Hostnames: { Value: string; IsSystemHostname: boolean }[] };
      const zones = async () => (await expect(200, "GET", "/pullzone")).json as Zone[];
      const declared = (await expect(201, "POST", "/pullzone", { Name: `declared-front-${random()}`, OriginUrl: "https://origin.example" })).json as Zone;
      const base = appBody(`issue-53-${random()}`, String(emu.fixtures.dockerHubRegistryId), false);
      const withEndpoints = (...endpoints: unknown[]) => ({ ...base, containerTemplates: [{ ...base.containerTemplates[0], endpoints }] });
      const own = { displayName: "My Site", cdn: { portMappings: [{ containerPort: 5678 }] } };
      const fronting = { displayName: "front", cdn: { pullZoneId: declared.Id, portMappings: [{ containerPort: 5678 }] } };
      const endpointsOf = async (appId: string) => ((await expect(200, "GET", `/mc/apps/${appId}`)).json as { containerTemplates: { endpoints: Endpoint[] }[] }).containerTemplates[0].endpoints;
      const linkedTo = async (appId: string) => (await zones()).filter((z) => z.MagicContainersAppId === appId);
      const originOf = async (id: number) => {
        const z = (await expect(200, "GET", `/pullzone/${id}`)).json as Zone;
        return [z.OriginType, z.OriginUrl, z.MagicContainersAppId, z.MagicContainersEndpointId];
      };

      const before = (await zones()).length;
      const { id: appId } = (await expect(201, "POST", "/mc/apps", withEndpoints(own, fronting))).json as { id: string };
      const [site, front] = await endpointsOf(appId);
      assert.equal(front.pullZoneId, String(declared.Id), "the endpoint with pullZoneId fronts that zone");
      const zone = (await expect(200, "GET", `/pullzone/${site.pullZoneId}`)).json as Zone;
      assert.deepEqual(
        [zone.OriginType, zone.OriginUrl, zone.MagicContainersAppId, zone.MagicContainersEndpointId],
        [5, "", appId, site.id],
        "its origin is the endpoint (PullZoneOriginType MagicContainers)",
      );
      assert.equal(zone.Name, `mc-${appId.toLowerCase()}-my-site`);
      assert.deepEqual(zone.Hostnames.filter((h) => h.IsSystemHostname).map((h) => h.Value), [site.publicHost], "its system hostname is the endpoint's public host");
      assert.equal((await zones()).length, before + 1, "one zone made: none for the endpoint fronting a declared zone");
      assert.deepEqual((await linkedTo(appId)).map((z) => z.Id).sort(), [declared.Id, zone.Id].sort());
      assert.deepEqual(await originOf(declared.Id), [5, "", appId, front.id], "the declared zone's placeholder origin became the fronting endpoint");

      // A PUT keeping the endpoint keeps its zone; one making it front the declared zone deletes it; back, a new one.
      await expect(200, "PUT", `/mc/apps/${appId}`, withEndpoints(own, fronting));
      assert.equal((await endpointsOf(appId))[0].pullZoneId, String(zone.Id));
      await expect(200, "PUT", `/mc/apps/${appId}`, withEndpoints({ ...own, cdn: fronting.cdn }, { ...fronting, displayName: "front" }));
      assert.deepEqual((await endpointsOf(appId)).map((e) => e.pullZoneId), [String(declared.Id), String(declared.Id)]);
      await expect(404, "GET", `/pullzone/${zone.Id}`);
      await expect(200, "PUT", `/mc/apps/${appId}`, withEndpoints(own, fronting));
      const again = (await endpointsOf(appId))[0].pullZoneId;
      assert.notEqual(again, String(zone.Id));
      await expect(200, "GET", `/pullzone/${again}`);
      // Dropping the endpoint drops its zone; deleting the app leaves the declared zone alone.
      await expect(200, "PUT", `/mc/apps/${appId}`, withEndpoints(fronting));
      await expect(404, "GET", `/pullzone/${again}`);
      // An endpoint that stops fronting the zone leaves it on bunny.net's landing page.
      await expect(200, "PUT", `/mc/apps/${appId}`, withEndpoints(own));
      assert.deepEqual(await originOf(declared.Id), [0, "https://bunny.net", null, null]);
      await expect(200, "PUT", `/mc/apps/${appId}`, withEndpoints(own, fronting));
      const last = (await endpointsOf(appId))[0].pullZoneId;
      assert.equal((await originOf(declared.Id))[0], 5);
      await expect(200, "DELETE", `/mc/apps/${appId}`);
      await expect(404, "GET", `/pullzone/${last}`);
      assert.deepEqual(await linkedTo(appId), []);
      assert.deepEqual(await originOf(declared.Id), [0, "https://bunny.net", null, null], "deleting the app unlinks the declared zone, which stays");
      assert.equal((await zones()).length, before);

      // The seeded app's CDN endpoints are on zones of their own too.
      const seeded = (await expect(200, "GET", `/mc/apps/${emu.fixtures.appId}/endpoints`)).json as { items: Endpoint[] };
      const cdn = seeded.items.filter((e) => e.type === "cdn");
      assert.ok(cdn.length > 0);
      for (const e of cdn) assert.equal(((await expect(200, "GET", `/pullzone/${e.pullZoneId}`)).json as Zone).MagicContainersEndpointId, e.id);
    });

    it("what the document and the account refuse is refused, naming the field", async () => {
      const body = appBody("refused", "1", false);
      const cases: [unknown, string][] = [
        [{ ...body, regionSettings: { ...body.regionSettings, allowedRegionIds: ["XX"] } }, "regionSettings.allowedRegionIds.0"],
        [{ ...body, runtimeType: "dedicated" }, "runtimeType"],
        [{ ...body, containerTemplates: [{ ...body.containerTemplates[0], imageRegistryId: "999" }] }, "containerTemplates.0.imageRegistryId"],
        [{ ...body, containerTemplates: [{ ...body.containerTemplates[0], volumeMounts: [{ name: "nowhere", mountPath: "/x" }] }] }, "containerTemplates.0.volumeMounts.0.name"],
        [{ ...body, owner: "me" }, "owner"],
      ];
      for (const [sent, field] of cases) {
        const answer = await expect(400, "POST", "/mc/apps", sent);
        assert.deepEqual((answer.json as { errors: { field: string }[] }).errors.map((e) => e.field), [field]);
      }
    });
  });

  describe("rate-limit rule (internal/api/pullzone_ratelimit_rule.go and resource_pullzone_ratelimit_rule.go; the provider has no acceptance test for it)", () => {
    /** convertModelToApi's rule: one condition at the top level, transformations as a list, ActionType 1; no severity or counter key. */
    const configuration = (requests: number) => ({
      actionType: 1,
      variableTypes: { REQUEST_URI: "" },
      operatorType: 0,
      transformationTypes: [8],
      value: "/login",
      requestCount: requests,
      blockTime: 300,
      timeframe: 60,
      chainedRuleConditions: null,
    });

    it("create with ruleJson \"\", read, update with id, shieldZoneId 0 and ruleJson, read, delete", async () => {
      const pullZoneId = Number(emu.fixtures.pullZoneId);
      // CreatePullzoneRatelimitRule: GetPullzoneShieldIdByPullzone (pullzone_shield.go), then POST the whole struct.
      const shieldZoneId = ((await expect(200, "GET", `/shield/shield-zone/get-by-pullzone/${pullZoneId}`)).json as { data: { shieldZoneId: number } }).data.shieldZoneId;
      const created = (await expect(200, "POST", "/shield/rate-limit", { shieldZoneId, ruleName: "Login limit", ruleDescription: "", ruleJson: "", ruleConfiguration: configuration(10) })).json as { id: number };
      // ... and reads it back with GET /shield/rate-limit/{id} (200).
      const read = (await expect(200, "GET", `/shield/rate-limit/${created.id}`)).json as { shieldZoneId: number; ruleName: string; ruleConfiguration: { requestCount: number } };
      assert.deepEqual([read.shieldZoneId, read.ruleName, read.ruleConfiguration.requestCount], [shieldZoneId, "Login limit", 10]);

      // UpdatePullzoneRatelimitRule: PATCH with the struct as the resource builds it: id set, shieldZoneId 0 (the
      // model has no shield zone), ruleJson "" (never read into the model); 200, then GET.
      await expect(200, "PATCH", `/shield/rate-limit/${created.id}`, { id: created.id, shieldZoneId: 0, ruleName: "Login limit", ruleDescription: "tighter", ruleJson: "", ruleConfiguration: configuration(5) });
      const updated = (await expect(200, "GET", `/shield/rate-limit/${created.id}`)).json as typeof read & { ruleDescription: string };
      assert.deepEqual([updated.shieldZoneId, updated.ruleDescription, updated.ruleConfiguration.requestCount], [shieldZoneId, "tighter", 5], "the rule stays in its zone");

      // DeletePullzoneRatelimitRule: DELETE, 200 (404 reads as gone).
      await expect(200, "DELETE", `/shield/rate-limit/${created.id}`);
      assert.notEqual((await call("GET", `/shield/rate-limit/${created.id}`)).status, 200);
    });

    it("a Basic zone past its plan's rules answers plan_limit_restriction.rate_limit (BUNNY-API.md), which the provider reports through the error's message", async () => {
      const shieldZoneId = Number(emu.fixtures.provisioningShieldZoneId);
      const bodies = [0, 1, 2].map((i) => ({ shieldZoneId, ruleName: `Basic ${i}`, ruleDescription: "", ruleJson: "", ruleConfiguration: configuration(10) }));
      for (const body of bodies.slice(0, 2)) assert.equal((await call("POST", "/shield/rate-limit", body)).status < 300, true);
      const third = await call("POST", "/shield/rate-limit", bodies[2]);
      assert.equal((third.json as { error: { errorKey: string } }).error.errorKey, "plan_limit_restriction.rate_limit");
    });
  });
});
