/**
 * The tsconfig of Pulumi's own TypeScript template (`pulumi new typescript`: pulumi/templates, typescript/tsconfig.json),
 * which most users' projects start from: no `skipLibCheck`, no `esModuleInterop`, `moduleResolution: node`. Public
 * types must compile under it.
 */
export const PULUMI_TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};
