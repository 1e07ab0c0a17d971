import type { Transport } from "../http/transport";

/** TODO(stub): filled in by the edgeScripts surface work. */
export class EdgeScriptsClient {
  constructor(readonly http: Transport) {}
}
