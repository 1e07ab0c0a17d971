/**
 * The tsconfig of Pulumi's own TypeScript template (`pulumi new typescript`), which most users' projects start from:
 * no `skipLibCheck`, no `esModuleInterop`, `moduleResolution: node`. Public types must compile under it; it is
 * defined once, beside the project `bunnynet export` writes with it.
 */
export { PULUMI_TEMPLATE_TSCONFIG } from "bunnynet-pulumi/dist/cli/export/program.js";
