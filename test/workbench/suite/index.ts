/**
 * Extension-host test entry (extensionTestsPath): runs every *.test.js beside this file with
 * mocha inside the real extension host. Prints one machine-readable line with the counts,
 * `CHAINDECK_MOCHA {"passed":N,"failed":M}`, which scripts/workbench/run.mjs parses from the
 * browser console (the only channel out of code-server's extension host).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

// The extension host forwards console.log's arguments unformatted; format each reporter line
// here and tag it so the runner can pick the suite's output out of the workbench's noise.
Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(`[suite] ${format(...args)}`);

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 20_000 });
  // CHAINDECK_WORKBENCH_SUITES=nodes,storage runs only those suites (see scripts/workbench/run.mjs).
  const wanted = process.env.CHAINDECK_WORKBENCH_SUITES?.split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && (!wanted?.length || wanted.includes(f.replace(/\.test\.js$/, ''))));
  if (!files.length) throw new Error(`no extension-host suite matches CHAINDECK_WORKBENCH_SUITES=${process.env.CHAINDECK_WORKBENCH_SUITES ?? ''}`);
  for (const f of files.sort()) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const passed = runner.stats?.passes ?? 0;
        console.log(`CHAINDECK_MOCHA ${JSON.stringify({ passed, failed: failures })}`);
        if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
        else resolve();
      });
    } catch (err) {
      // A test file that throws while loading never reaches the callback above.
      console.log(`CHAINDECK_MOCHA ${JSON.stringify({ passed: 0, failed: 1 })}`);
      reject(err);
    }
  });
}
