import type { Command } from "../command";
import { ExitCode } from "../exitCodes";
import { rowWriter } from "../output";
import { regionMatches } from "../../client/containers";
import type { Endpoint, Region } from "../../schemas/containers";

export const regionsCommand: Command = {
  name: "regions",
  summary: "List Magic Containers deployment regions (all pages).",
  options: { "has-capacity": { type: "boolean" }, anycast: { type: "boolean" } },
  details: "--has-capacity keeps regions that can take new deployments; --anycast keeps regions with anycast support.",
  async run({ io, values, format, client }) {
    const out = rowWriter<Region>(
      format,
      [
        { header: "id", value: (r) => r.id },
        { header: "name", value: (r) => r.name },
        { header: "group", value: (r) => r.group },
        { header: "hasCapacity", value: (r) => r.hasCapacity },
        { header: "anycast", value: (r) => r.hasAnycastSupport },
      ],
      io.stdout,
    );
    const filters = { hasCapacity: values["has-capacity"] === true, anycast: values.anycast === true };
    for await (const region of client().containers.listRegions()) if (regionMatches(region, filters)) out.write(region);
    out.end();
    return ExitCode.Ok;
  },
};

export const endpointsCommand: Command = {
  name: "endpoints",
  summary: "List the endpoints of a Magic Containers app.",
  args: "<appId>",
  positionals: { min: 1, max: 1 },
  options: {},
  async run({ io, positionals, format, client }) {
    const out = rowWriter<Endpoint>(
      format,
      [
        { header: "id", value: (e) => e.id },
        { header: "name", value: (e) => e.displayName },
        { header: "type", value: (e) => e.type },
        { header: "publicHost", value: (e) => e.publicHost },
        { header: "container", value: (e) => e.containerName },
        { header: "ports", value: (e) => e.portMappings.map((p) => `${p.exposedPort}->${p.containerPort}/${p.protocols.join("+")}`).join(" ") },
      ],
      io.stdout,
    );
    for await (const endpoint of client().containers.listEndpoints(positionals[0])) out.write(endpoint);
    out.end();
    return ExitCode.Ok;
  },
};
