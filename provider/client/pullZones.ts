import type { Transport } from "../http/transport";

/** TODO(stub): filled in by the pullZones surface work. */
export class PullZonesClient {
  constructor(readonly http: Transport) {}
}
