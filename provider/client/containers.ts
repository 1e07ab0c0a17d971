import type { Transport } from "../http/transport";

/** TODO(stub): filled in by the containers surface work. */
export class ContainersClient {
  constructor(readonly http: Transport) {}
}
