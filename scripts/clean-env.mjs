// The environment for a child install or server, without what an outer `npm run`/`npm test`
// put there: its `npm_*` variables (config such as `npm_config_user_agent` naming the outer
// Node, lifecycle, package), INIT_CWD, NODE, and the node_modules/.bin and node-gyp shims it
// prepended to PATH. A child npm reads those as its own config: code-server's postinstall then
// sees Node 20 and refuses to install under Node 24. With them gone, a script behaves the same
// whether it was started by npm or by hand.
//
//   import { cleanEnv } from './clean-env.mjs'; spawn(cmd, args, { env: cleanEnv({ PATH: … }) })
//   node scripts/clean-env.mjs CMD [ARG…]     # runs CMD in the clean environment, exits with its code
import { spawn } from 'node:child_process';
import { delimiter, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** npm's own variables: everything `npm run` adds to the environment of a script. */
const fromNpm = (name) => /^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE';
const npmPathEntry = (dir) => dir.endsWith(`${sep}node_modules${sep}.bin`) || dir.endsWith(`${sep}node-gyp-bin`);

/** A copy of `env` without npm's variables and PATH entries, with `extra` laid over it. */
export function cleanEnv(extra = {}, env = process.env) {
  const out = {};
  for (const [name, value] of Object.entries(env)) if (!fromNpm(name) && value !== undefined) out[name] = value;
  if (out.PATH) out.PATH = out.PATH.split(delimiter).filter((dir) => dir && !npmPathEntry(dir)).join(delimiter);
  return { ...out, ...extra };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [cmd, ...args] = process.argv.slice(2);
  if (!cmd) {
    console.error('usage: node scripts/clean-env.mjs CMD [ARG…]');
    process.exit(2);
  }
  const child = spawn(cmd, args, { stdio: 'inherit', env: cleanEnv() });
  // Ctrl+C reaches the child through the terminal's process group; a TERM sent to us is passed on.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('error', (err) => {
    console.error(`${cmd}: ${err.message}`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 1)));
}
