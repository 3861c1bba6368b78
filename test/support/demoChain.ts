/**
 * The demo's contracts (`npm run demo`'s own code in scripts/demo) for the workbench tests, which
 * check what a newcomer sees in the demo: bundled by esbuild.js into out/test/support with the
 * scripts it re-exports; solc and ethers load from node_modules at run time.
 */
export { demoBuildInfo, writeBuildInfo } from '../../scripts/demo/build';
export { setUpDemoChain } from '../../scripts/demo/chain';
export { deployPoints } from '../../scripts/demo/points';
