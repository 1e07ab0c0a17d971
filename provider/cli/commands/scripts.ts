import type { Command } from "../command";
import { ExitCode } from "../exitCodes";
import { rowWriter } from "../output";
import type { Secret } from "../../schemas/edgeScripts";
import { positiveId } from "./hostnames";

export const secretsCommand: Command = {
  name: "secrets",
  summary: "List an edge script's secrets: names and when they were last set (the API never shows values).",
  args: "<scriptId>",
  positionals: { min: 1, max: 1 },
  options: {},
  async run({ io, positionals, format, client }) {
    const out = rowWriter<Secret>(
      format,
      [
        { header: "id", value: (s) => s.Id },
        { header: "name", value: (s) => s.Name },
        { header: "lastModified", value: (s) => s.LastModified ?? "" },
      ],
      io.stdout,
    );
    for (const secret of await client().edgeScripts.listSecrets(positiveId(positionals[0], "<scriptId>"))) out.write(secret);
    out.end();
    return ExitCode.Ok;
  },
};
