/**
 * `chaindeck subgraph <action>`: the subgraph's actions, each a command of its own module
 * (defineCommand, named `subgraph <action>`). A new action is one line in SUBGRAPH_ACTIONS.
 */
import { renderRows } from '../help';
import { errorLine, EXIT, type CliCommand } from '../command';
import { subgraphCaptureCommand } from './capture';
import { subgraphCompareCommand } from './compare';
import { subgraphTestAction } from './test';

export const SUBGRAPH_ACTIONS: readonly CliCommand[] = [subgraphTestAction, subgraphCaptureCommand, subgraphCompareCommand];

const actionName = (action: CliCommand) => action.name.slice('subgraph '.length);

/** The list of actions, as `chaindeck subgraph --help` prints it. */
export function subgraphUsage(actions: readonly CliCommand[] = SUBGRAPH_ACTIONS): string {
  return [
    'Usage: chaindeck subgraph <action> [options]',
    '',
    'Work on a subgraph project: its tests, run by graph-node; its endpoints compared.',
    '',
    'Actions:',
    renderRows(
      actions.map((a) => [actionName(a), a.summary]),
      Math.max(14, ...actions.map((a) => actionName(a).length)),
    ),
    '',
    'Run `chaindeck subgraph <action> --help` for the options of one action.',
    '',
  ].join('\n');
}

/** The `subgraph` command over `actions`. */
export function subgraphDispatcher(actions: readonly CliCommand[]): CliCommand {
  const usage = subgraphUsage(actions);
  const find = (name: string | undefined) => actions.find((a) => actionName(a) === name);
  return {
    name: 'subgraph',
    summary: 'Work on a subgraph project: its tests, run by graph-node; its endpoints compared',
    usage,
    usageOf: (args) => find(args[0])?.usage ?? usage,
    async run([name, ...rest], io) {
      const action = find(name);
      if (!action) {
        io.err(`${errorLine('subgraph', name === undefined ? `name the action: ${actions.map(actionName).join(', ')}` : `unknown action '${name}'`)}\n${usage}`);
        return EXIT.usage;
      }
      return action.run(rest, io);
    },
  };
}

export const subgraphCommand = subgraphDispatcher(SUBGRAPH_ACTIONS);
