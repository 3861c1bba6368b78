/** The graph CLI: command lines, running it with secrets kept off the command line, reading its output. */
export * from './commands';
export * from './output';
export * from './problemRange';
export {
  findGraphCli,
  graphProcess,
  runGraph,
  secretsNeeded,
  LineRedactor,
  SECRET_PRELOAD,
  type GraphProcess,
  type GraphProcessOptions,
  type GraphRun,
  type RunGraphOptions,
} from './launch';
