// The environment for a child install or server, without what an outer `npm run`/`npm test`
// put there: its `npm_*` variables (config such as `npm_config_user_agent` naming the outer
// Node, lifecycle, package), INIT_CWD, NODE, and the node_modules/.bin and node-gyp shims it
// prepended to PATH. A child npm reads those as its own config: code-server's postinstall then
// sees Node 20 and refuses to install under Node 24. With them gone, a script behaves the same
// whether it was started by npm or by hand.
//
//   import { cleanEnv } from './clean-env.mjs'; spawn(cmd, args, { env: cleanEnv({ PATH: … }) })
//   eval "$(node scripts/clean-env.mjs --shell)"   # in a bash script: the same, for the script itself
import { delimiter, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** npm's own variables: everything `npm run` adds to the environment of a script. */
const fromNpm = (name) => /^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE';
const npmPathEntry = (dir) => dir.endsWith(`${sep}node_modules${sep}.bin`) || dir.endsWith(`${sep}node-gyp-bin`);

/** A copy of `env` without npm's variables and PATH entries, with `extra` laid over it. */
export function cleanEnv(extra = {}, env = process.env) {
  const out = {};
  for (const [name, value] of Object.entries(env)) if (!fromNpm(name) && value !== undefined) out[name] = value;
  if (out.PATH)
    out.PATH = out.PATH.split(delimiter)
      .filter((dir) => dir && !npmPathEntry(dir))
      .join(delimiter);
  return { ...out, ...extra };
}

/** Bash commands that clean the calling shell: `eval "$(node scripts/clean-env.mjs --shell)"`. */
export function shellCommands(env = process.env) {
  const clean = cleanEnv({}, env);
  const quote = (v) => `'${v.replaceAll("'", "'\\''")}'`;
  const gone = Object.keys(env).filter((name) => !(name in clean) && /^[A-Za-z_]\w*$/.test(name));
  return [gone.length ? `unset ${gone.join(' ')}` : '', clean.PATH !== undefined ? `export PATH=${quote(clean.PATH)}` : ''].filter(Boolean).join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] !== '--shell' || process.argv.length > 3) {
    console.error('usage: eval "$(node scripts/clean-env.mjs --shell)"');
    process.exit(2);
  }
  console.log(shellCommands());
}
