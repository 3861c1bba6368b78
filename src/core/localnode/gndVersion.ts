/**
 * The gnd release installed and what users are told about it: apart from gnd.ts, so that the
 * CLI's help text does not load the installer (child_process, crypto, zlib) at every start.
 */
export const GND_VERSION = '0.45.0';

/** What the user must be told where gnd is started. */
export const GND_BINDS_ALL_INTERFACES =
  'gnd listens on every network interface (graph-node has no option to listen on 127.0.0.1 only): its GraphQL, admin, index-node and metrics ports can be reached from other machines unless a firewall blocks them. Postgres and the IPFS endpoint listen on 127.0.0.1 only.';
