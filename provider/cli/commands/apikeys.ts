import type { Command } from "../command";
import { ExitCode } from "../exitCodes";
import { mask, rowWriter } from "../output";
import type { ApiKey } from "../../schemas/apiKeys";

export const apikeysCommand: Command = {
  name: "apikeys",
  summary: "List the account's API keys. Key values are masked unless --show-keys is given.",
  options: { "show-keys": { type: "boolean" } },
  async run({ io, values, format, client }) {
    const show = values["show-keys"] === true;
    const out = rowWriter<ApiKey>(
      format,
      [
        { header: "id", value: (k) => k.Id },
        { header: "key", value: (k) => (k.Key === null ? "" : show ? k.Key : mask(k.Key)) },
        { header: "roles", value: (k) => k.Roles.join(" ") },
      ],
      io.stdout,
    );
    for await (const key of client().apiKeys.list()) out.write(key);
    out.end();
    return ExitCode.Ok;
  },
};
