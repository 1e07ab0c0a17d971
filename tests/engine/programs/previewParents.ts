// tests/support/previewParents.ts as a compiled entry for the real CLI (tests/engine/previewParents.test.ts).
import { previewParents } from "../../support/previewParents";

previewParents();
