/** The commands of `chaindeck`, in the order `chaindeck --help` lists them: a new command is one line here. */
import type { CliCommand } from './command';
import { graphNodeCommand } from './graphNode';
import { platformCommand } from './platform';
import { proxyHistoryCommand } from './proxyHistory';
import { rpcCommand } from './rpc';
import { subgraphCommand } from './subgraph/subgraph';
import { storageCompatCommand } from './storageCompat';
import { storageDecodeCommand } from './storageDecode';
import { storageDiffCommand } from './storageDiff';
import { storageRangeCommand } from './storageRange';
import { validateCommand } from './validate';

export const commands: readonly CliCommand[] = [
  rpcCommand,
  platformCommand,
  storageRangeCommand,
  storageDecodeCommand,
  storageDiffCommand,
  storageCompatCommand,
  proxyHistoryCommand,
  validateCommand,
  graphNodeCommand,
  subgraphCommand,
];
