import { inOperation } from "../http/sharedReads";
import { inZones } from "../http/zoneWrites";
import type { InputShape, InputsOf, ResourceContext, ResourceDefinition } from "./definition";

/**
 * Runs one of a resource's operations with its writes serialised per zone it writes to (the definition's
 * `writeZones`, see http/zoneWrites.ts): a create (`id` unset), or an update or delete of object `id`. Nested, the
 * inner operation's zones hold (an adopted object's update inside a create). It is also one operation for the read
 * sharing (http/sharedReads.ts `inOperation`): its look-ups before its first write do not wait for other writes.
 */
export async function writingTo<Shape extends InputShape, Obj, O extends object, T>(
  def: ResourceDefinition<Shape, Obj, O>,
  ctx: ResourceContext,
  values: InputsOf<Shape>,
  id: string | undefined,
  operation: () => Promise<T>,
): Promise<T> {
  const zones = def.writeZones ? await def.writeZones(ctx, values, id) : [];
  return inOperation(() => inZones(zones, operation));
}
