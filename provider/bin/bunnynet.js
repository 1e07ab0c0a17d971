#!/usr/bin/env node
"use strict";
// The `bunnynet` command. A file of its own, kept in the repository rather than built into dist/, so that npm links the
// command when it installs the workspace even before dist/ is built (a fresh clone: npm links no missing file).
require("../dist/cli/main.js").main();
