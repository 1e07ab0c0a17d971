import type { TestEmulator } from "./emulator";

/**
 * A pull zone put straight into the emulator's store (as the pull zone surface stores one), for tests of what
 * hangs off a pull zone (its shield zone) without going through the pull zone API; and its removal, as a
 * pull zone deleted elsewhere.
 */
export function putPullZone(emu: TestEmulator, name: string): number {
  const store = emu.emulator.ctx.store;
  const id = store.nextId("pullzone", 1001);
  store.put("pullzone", id, { Id: id, Name: name, OriginUrl: `https://origin.${name}.example`, Enabled: true, Suspended: false, EnableLogging: true, Type: 0, Hostnames: [] });
  return id;
}

export function removePullZone(emu: TestEmulator, id: number): void {
  emu.emulator.ctx.store.delete("pullzone", id);
}
