/**
 * The objects this deployment replaces, by type and id: a diff that answered "replace" names them. The engine sends
 * a replacement's Diff and the original's Delete to the same plugin process (one per provider for the whole
 * command), so a delete can tell an original being replaced (the program's dependents then move to the new object)
 * from an object removed from the program (its dependents outside would be left pointing at nothing).
 */
const replacing = new Set<string>();
const key = (type: string, id: string) => `${type}\0${id}`;

export function markReplacing(type: string, id: string): void {
  replacing.add(key(type, id));
}

export function isReplacing(type: string, id: string): boolean {
  return replacing.has(key(type, id));
}

/** A new deployment (the provider's Configure, see session.ts). */
export function forgetReplacements(): void {
  replacing.clear();
}
