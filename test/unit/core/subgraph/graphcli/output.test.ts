import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { CliNoiseFilter, extractProblems, formatProblem, judgeGraphRun, parseDeployLines, type OutcomeContext } from '../../../../../src/core/subgraph/graphcli/output';
import { repoPath } from '../../../../support/paths';

const ctx: OutcomeContext = { manifest: 'subgraph.yaml', shownDeployUrl: 'http://node:8020/', shownIpfsUrl: 'http://ipfs:5001' };
const bare: OutcomeContext = { manifest: 'subgraph.yaml' };
const QM = 'QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM';
const BAFY = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';

test('deploy lines: read only as whole lines, with the check mark and spaces around them or not', () => {
  const deployed = (o: string) => parseDeployLines(o).deployedTo;
  assert.equal(deployed('  ✔  Deployed to http://x/g  \nnext'), 'http://x/g');
  assert.equal(deployed('✔ Deployed to http://x/g'), 'http://x/g');
  assert.equal(deployed('Not Deployed to http://x/g'), undefined);
  assert.equal(deployed('Deployed to http://x/g b'), undefined);

  const queries = (o: string) => parseDeployLines(o).queriesUrl;
  assert.equal(queries('  Queries (HTTP):  http://q  \nnext'), 'http://q');
  assert.equal(queries('Queries (HTTP): http://q'), 'http://q');
  assert.equal(queries('No Queries (HTTP): http://q'), undefined);
  assert.equal(queries('Queries (HTTP): http://q b'), undefined);

  const build = (o: string) => parseDeployLines(o).buildOutput;
  assert.equal(build(`  Build completed:  ${QM}  \nnext`), QM);
  assert.equal(build(`Build completed: ${QM}`), QM);
  assert.equal(build(`Not Build completed: ${QM}`), undefined);
  assert.equal(build(`Build completed: ${QM} b`), undefined);
});

test('deploy lines: the IPFS hash only when the build output is a whole CID', () => {
  const hash = (build: string) => parseDeployLines(`Build completed: ${build}\n`).ipfsHash;
  assert.equal(hash(QM), QM);
  assert.equal(hash(BAFY), BAFY);
  assert.equal(hash('build/subgraph.yaml'), undefined);
  assert.equal(hash(`x${QM}`), undefined);
  assert.equal(hash(`${QM}x`), undefined);
  assert.equal(hash('bafy'), undefined);
  assert.equal(parseDeployLines('nothing').ipfsHash, undefined);
});

test('YAML errors: whole lines only, positions of more than one digit', () => {
  assert.deepEqual(extractProblems('  YAMLException: bad indentation (18:13)  \n', 'm.yaml'), [
    { severity: 'error', code: 'YAML', message: 'bad indentation', file: 'm.yaml', line: 18, column: 13 },
  ]);
  assert.deepEqual(extractProblems('x YAMLException: bad (1:2)\n', 'm.yaml'), []);
  assert.deepEqual(extractProblems('YAMLException: bad (1:2) more\n', 'm.yaml'), []);
  // Printed twice (spinner, then thrown): reported once.
  assert.deepEqual(extractProblems('YAMLException: bad (1:2)\nYAMLException: bad (1:2)\n', 'm.yaml'), [
    { severity: 'error', code: 'YAML', message: 'bad', file: 'm.yaml', line: 1, column: 2 },
  ]);
});

test('AssemblyScript problems: severity, trimmed message, the place within the next lines only', () => {
  const out = ['WARNING AS201: Conversion loses precision.  ', '', '   x = y;', '   ~', '   in src/a.ts(12,34)  ', 'ERROR TS2305: Nope.', 'in src/b.ts(3,4)'].join('\n');
  assert.deepEqual(extractProblems(out, 'm.yaml'), [
    { severity: 'warning', code: 'AS201', message: 'Conversion loses precision.', file: 'src/a.ts', line: 12, column: 34 },
    { severity: 'error', code: 'TS2305', message: 'Nope.', file: 'src/b.ts', line: 3, column: 4 },
  ]);
  // A head that is not at the line's start, or a place with more after it or before "in", is no problem.
  assert.deepEqual(extractProblems(' ERROR TS1: m\n in a.ts(1,2)\n', 'm.yaml'), []);
  assert.deepEqual(extractProblems('ERROR TS1: m\n in a.ts(1,2) x\n', 'm.yaml'), []);
  assert.deepEqual(extractProblems('ERROR TS1: m\n seen in a.ts(1,2)\n', 'm.yaml'), []);
  // The place is looked for after the head, not before it.
  assert.deepEqual(extractProblems(' in prev.ts(1,1)\nERROR TS1: m\n in a.ts(2,3)\n', 'm.yaml'), [{ severity: 'error', code: 'TS1', message: 'm', file: 'a.ts', line: 2, column: 3 }]);
  // Up to 7 lines after the head.
  const at = (gap: number) => extractProblems(['ERROR TS1: m', ...Array<string>(gap).fill('x'), ' in a.ts(1,1)'].join('\n'), 'm.yaml').length;
  assert.equal(at(6), 1);
  assert.equal(at(7), 0);
  assert.equal(at(9), 0);
});

test('missing handlers: one problem per name, names trimmed, empty names dropped', () => {
  assert.deepEqual(
    extractProblems('Missing handlers in WASM: handleA, handleB,\n', 'subgraph.yaml').map((p) => p.value),
    ['handleA', 'handleB'],
  );
});

test('manifest blocks: key paths, severities, blank and whitespace lines, consecutive blocks', () => {
  const out = [
    'Warnings in subgraph.yaml:  ',
    '  text before any path',
    '  Path: dataSources > 0',
    '  first line Path: not a path',
    '   ',
    '    Note:',
    'Error in other.yaml:',
    '  Path: a',
    '  broken',
  ].join('\n');
  assert.deepEqual(extractProblems(out, 'subgraph.yaml'), [
    { severity: 'warning', file: 'subgraph.yaml', keyPath: ['dataSources', 0], message: 'first line Path: not a path\nNote:' },
    { severity: 'error', file: 'other.yaml', keyPath: ['a'], message: 'broken' },
  ]);
  // A head with text after the colon is no block.
  assert.deepEqual(extractProblems('Error in x.ts: boom\n  Path: a\n  msg\n', 'subgraph.yaml'), []);
});

test('schema blocks: one problem per entity, its messages without the dash', () => {
  const out = [
    '✖ Failed to load subgraph from subgraph.yaml: Error in schema.graphql:',
    '',
    '  Approval_2:  ',
    '  - Field `x`: unknown type',
    '      Inner:',
    '',
    '    Token:',
    '  - Missing id',
    '  see a - b',
    '  Other: not an entity',
    'Error: EEXIT: 1',
  ].join('\n');
  assert.deepEqual(extractProblems(out, 'subgraph.yaml'), [
    { severity: 'error', file: 'schema.graphql', value: 'Approval_2', message: 'Approval_2: Field `x`: unknown type\nInner:' },
    { severity: 'error', file: 'schema.graphql', value: 'Token', message: 'Token: Missing id\nsee a - b\nOther: not an entity' },
  ]);
  // Lines before the first entity belong to none.
  assert.deepEqual(extractProblems('Error in schema.graphql:\n  - loose\n  A:\n  - m\n', 'subgraph.yaml'), [{ severity: 'error', file: 'schema.graphql', value: 'A', message: 'A: m' }]);
});

test('deploy failures: every HTTP status and network error in words', () => {
  const summary = (line: string, c: OutcomeContext = ctx, code: number | null = 1) => judgeGraphRun('deploy', code, line, c).summary;
  assert.equal(
    summary('✖ HTTP error deploying the subgraph 403', bare),
    "graph-node at the deploy URL refused the deploy (HTTP 403): this host needs a deploy key, or the access key in the deploy URL is wrong. Set the subgraph's deploy key and deploy again.",
  );
  assert.equal(
    summary('✖ HTTP error deploying the subgraph 403', { ...ctx, sentDeployKey: true }),
    'graph-node at http://node:8020/ refused the deploy key (HTTP 403): the deploy key is wrong or belongs to another subgraph. Set it again (Set Deploy Key), or check the access key in the deploy URL.',
  );
  assert.equal(
    summary('✖ HTTP error deploying the subgraph 404', { ...ctx, subgraphName: 'my/sub' }),
    "Nothing answered at http://node:8020/ (HTTP 404): the deploy URL is wrong, or the subgraph 'my/sub' was not created on the host yet (Add subgraph in the console, or graph create --node <deploy URL> <name>).",
  );
  assert.equal(
    summary('✖ HTTP error deploying the subgraph 404'),
    'Nothing answered at http://node:8020/ (HTTP 404): the deploy URL is wrong, or the subgraph was not created on the host yet (Add subgraph in the console, or graph create --node <deploy URL> <name>).',
  );
  assert.equal(summary('✖ HTTP error deploying the subgraph 418'), 'graph-node at http://node:8020/ answered HTTP 418 to the deploy call. Check the deploy URL.');
  assert.equal(summary('✖ HTTP error deploying the subgraph: EPROTO'), 'Cannot reach graph-node at http://node:8020/: EPROTO.');
  const network: Record<string, string> = {
    ENOTFOUND: 'the host name was not found (ENOTFOUND): check the host in the deploy URL, and your network or DNS.',
    EAI_AGAIN: 'the host name could not be looked up (EAI_AGAIN): check your network or DNS.',
    ETIMEDOUT: 'connecting timed out (ETIMEDOUT): check your network, VPN or firewall.',
    ECONNRESET: 'the connection was reset (ECONNRESET): try again; a proxy or firewall may be closing it.',
    EHOSTUNREACH: 'there is no route to the host (EHOSTUNREACH): check your network, VPN or firewall.',
  };
  for (const [code, words] of Object.entries(network)) {
    assert.equal(summary(`✖ HTTP error deploying the subgraph ${code}`), `Cannot reach graph-node at http://node:8020/: ${words}`);
  }
});

test('deploy failures: refusals, IPFS, crashes and the rest', () => {
  const summary = (out: string, c: OutcomeContext = ctx, code: number | null = 1) => judgeGraphRun('deploy', code, out, c).summary;
  assert.equal(summary('✖ Failed to deploy to Graph node http://n/: no such name  \n'), 'graph-node at http://node:8020/ refused the deployment: no such name');
  assert.equal(
    summary('✖ Failed to upload file to IPFS: fetch failed', bare),
    'Cannot reach the IPFS node at the IPFS URL (fetch failed): check the IPFS URL (and the key in it) and your network.',
  );
  assert.equal(summary('✖ Failed to upload file to IPFS: 413 too large  \n'), 'Uploading the build to IPFS at http://ipfs:5001 failed: 413 too large');
  assert.equal(summary('✖ Failed to upload file to IPFS: 413 too large', bare), 'Uploading the build to IPFS at the IPFS URL failed: 413 too large');
  assert.equal(summary('No response received from pin'), 'The IPFS node at http://ipfs:5001 gave an empty answer to a pin request: check that the IPFS URL is an IPFS API endpoint.');
  assert.equal(summary('No response received from pin', bare), 'The IPFS node at the IPFS URL gave an empty answer to a pin request: check that the IPFS URL is an IPFS API endpoint.');
  assert.equal(
    summary('TypeError: x is undefined', ctx, 1),
    'graph-node at http://node:8020/ answered the deploy call without a deployment (no playground or query URL), and the graph CLI crashed: the subgraph is not deployed. Check that the deploy URL is a graph-node admin endpoint.',
  );
  assert.equal(summary('- Uploading\n✖ Something else broke  \nlater'), 'graph deploy failed: Something else broke');
  assert.equal(summary('', ctx, null), 'graph deploy did not report a deployment (exit code none): no output.');
  assert.equal(summary('one\ntwo', ctx, 2), 'graph deploy did not report a deployment (exit code 2): one | two.');
});

test('deploy: success needs both lines; compile errors stop it before uploading unless the node answered', () => {
  const ok = judgeGraphRun('deploy', 0, `Build completed: ${QM}\nDeployed to http://g\nQueries (HTTP): http://q\n`, ctx);
  assert.deepEqual(ok, { ok: true, summary: 'Deployed: queries at http://q', problems: [], deployedTo: 'http://g', queriesUrl: 'http://q', buildOutput: QM, ipfsHash: QM });
  assert.equal(judgeGraphRun('deploy', 0, 'Deployed to http://g\n', ctx).ok, false);
  assert.equal(judgeGraphRun('deploy', 0, 'Queries (HTTP): http://q\n', ctx).ok, false);

  const compile = 'ERROR TS1: bad thing\n in src/a.ts(1,2)\n';
  assert.equal(judgeGraphRun('deploy', 1, compile, ctx).summary, 'graph deploy stopped before uploading: 1 problem in the subgraph: bad thing');
  assert.equal(
    judgeGraphRun('deploy', 1, `${compile}✖ HTTP error deploying the subgraph 500\n`, ctx).summary,
    "graph-node at http://node:8020/ failed (HTTP 500). Try again later; if it persists, check the host's status.",
  );
  assert.equal(judgeGraphRun('deploy', 1, `${compile}✖ Failed to deploy to Graph node http://n/: refused\n`, ctx).summary, 'graph-node at http://node:8020/ refused the deployment: refused');
});

test('build: ok only with exit 0, the success line and no errors; warnings do not fail it', () => {
  const warning = 'WARNING AS201: lossy\n in src/a.ts(1,2)\n';
  const ok = judgeGraphRun('build', 0, `${warning}Build completed: build/subgraph.yaml\n`, ctx);
  assert.equal(ok.ok, true);
  assert.equal(ok.summary, 'Build completed: build/subgraph.yaml');
  assert.equal(ok.buildOutput, 'build/subgraph.yaml');
  assert.equal(ok.problems.length, 1);
  assert.deepEqual(judgeGraphRun('build', 1, 'Build completed: build/subgraph.yaml\n', ctx), {
    ok: false,
    summary: 'graph build failed (exit code 1): Build completed: build/subgraph.yaml',
    problems: [],
  });
  const two = 'ERROR TS1: first\n second line\n in a.ts(1,2)\nERROR TS2: other\n in a.ts(3,4)\n';
  assert.equal(judgeGraphRun('build', 0, `${two}Build completed: x\n`, ctx).summary, 'graph build failed: 2 problems in the subgraph: first (and more; see Problems)');
  assert.equal(judgeGraphRun('build', null, 'ERROR TS1: only\n in a.ts(1,2)\n', ctx).summary, 'graph build failed (exit code none): 1 problem in the subgraph: only');
  assert.equal(judgeGraphRun('build', 1, '✖ Failed to compile  \nlater\n', ctx).summary, 'graph build failed (exit code 1): Failed to compile');
  assert.equal(judgeGraphRun('build', 1, 'x ✖ not a failure line\n', ctx).summary, 'graph build failed (exit code 1): x ✖ not a failure line');
});

test('the last lines quoted: trimmed, without blanks, stack frames and spinner steps, at most three', () => {
  const out = 'zero\n  first  \n\n    at Foo (x.js:1:2)\n- Compile subgraph\nsecond - part\n  third\n\n';
  assert.equal(judgeGraphRun('build', 1, out, ctx).summary, 'graph build failed (exit code 1): first | second - part | third');
  assert.equal(judgeGraphRun('build', 1, 'a\r\nb\r\nbat x\n', ctx).summary, 'graph build failed (exit code 1): a | b | bat x');
});

test('codegen: ok only with exit 0, the success line and no errors', () => {
  const codegen = (code: number | null, out: string) => judgeGraphRun('codegen', code, out, ctx);
  assert.deepEqual(codegen(0, 'Types generated successfully'), { ok: true, summary: 'Types generated successfully.', problems: [] });
  assert.equal(codegen(0, '  Types generated successfully  \n').ok, true);
  assert.equal(codegen(0, 'No Types generated successfully\n').ok, false);
  assert.equal(codegen(0, 'Types generated successfully now\n').ok, false);
  assert.equal(codegen(1, 'Types generated successfully\n').summary, 'graph codegen failed (exit code 1): Types generated successfully');
  assert.deepEqual(codegen(0, 'ERROR TS1: bad\n in a.ts(1,2)\nTypes generated successfully\n'), {
    ok: false,
    summary: 'graph codegen failed: 1 problem in the subgraph: bad',
    problems: [{ severity: 'error', code: 'TS1', message: 'bad', file: 'a.ts', line: 1, column: 2 }],
  });
  assert.equal(codegen(1, '✖ Failed to load  \n').summary, 'graph codegen failed (exit code 1): Failed to load');
  assert.equal(codegen(1, 'one\ntwo\n').summary, 'graph codegen failed (exit code 1): one | two');
});

test('init: ok only with exit 0 and the created line', () => {
  const init = (code: number | null, out: string) => judgeGraphRun('init', code, out, ctx);
  assert.deepEqual(init(0, 'Subgraph a/b created in dir'), { ok: true, summary: 'Subgraph a/b created in dir.', problems: [] });
  assert.equal(init(0, '  Subgraph a created in my dir  \nnext').summary, 'Subgraph a created in my dir.');
  assert.deepEqual(init(1, 'Subgraph a created in dir\n'), { ok: false, summary: 'graph init failed (exit code 1): Subgraph a created in dir', problems: [] });
  assert.equal(init(0, 'x Subgraph a created in dir\n').ok, false);
  assert.equal(init(1, '✖ Directory exists  \nmore\n').summary, 'graph init failed (exit code 1): Directory exists');
});

test('create: ok only with exit 0 and the created line; failures say why', () => {
  const create = (code: number | null, out: string, c: OutcomeContext = ctx) => judgeGraphRun('create', code, out, c);
  assert.deepEqual(create(0, 'Created subgraph: my/sub'), { ok: true, summary: 'Created subgraph my/sub.', problems: [] });
  assert.equal(create(0, '  ✔  Created subgraph: my/sub  \nnext').summary, 'Created subgraph my/sub.');
  assert.equal(create(0, '✔ Created subgraph: my/sub').summary, 'Created subgraph my/sub.');
  assert.equal(create(0, 'Not Created subgraph: my/sub\n').ok, false);
  assert.equal(create(0, 'Created subgraph: my/sub b\n').ok, false);
  assert.deepEqual(create(1, 'Created subgraph: my/sub\n'), { ok: false, summary: 'graph create failed: Created subgraph: my/sub', problems: [] });
  assert.equal(create(1, '✖ Error creating the subgraph: name taken  \n').summary, 'graph create failed: graph-node refused: name taken');
  assert.equal(
    create(1, '✖ HTTP error creating the subgraph: ECONNREFUSED\n').summary,
    'graph create failed: Cannot reach graph-node at http://node:8020/: connection refused (ECONNREFUSED): is graph-node running there, and are the host and port right?',
  );
  assert.equal(create(1, '✖ Not allowed  \n').summary, 'graph create failed: Not allowed');
  assert.equal(create(1, 'one\ntwo\n').summary, 'graph create failed: one | two');
});

test('formatProblem: a problem with neither line nor key path shows its file', () => {
  assert.equal(formatProblem({ severity: 'error', file: 'schema.graphql', message: 'A: m' }), 'schema.graphql error: A: m');
  assert.equal(formatProblem({ severity: 'error', file: 'subgraph.yaml', keyPath: [], message: 'm' }), 'subgraph.yaml error: m');
});

test('noise filter: stack frames, exits and thrown copies dropped, everything else kept as given', () => {
  const f = () => new CliNoiseFilter();
  assert.equal(f().push('  indented\nError: here\nLook at this\n'), '  indented\nError: here\nLook at this\n');
  assert.equal(f().push('a\nb'), 'a\nb');
  assert.equal(f().push('    at x (y.js:1:2)\n'), '');
  assert.equal(f().push('    at  x\n'), '');
  assert.equal(f().push('Error: EEXIT: 1\r\n'), '');
  assert.equal(f().push('Error: EEXIT: 12  \n'), '');
  assert.equal(f().push('x Error: EEXIT: 1\nError: EEXIT: 1 more\n'), 'x Error: EEXIT: 1\nError: EEXIT: 1 more\n');
  // The thrown copy of a failure line goes, even with spaces after it; other lines saying Error stay.
  assert.equal(f().push('✖ Failed here\nError: Failed here  \nx Error: Failed here\n'), '✖ Failed here\nx Error: Failed here\n');
  assert.equal(f().push('x ✖ Failed\nError: Failed\n'), 'x ✖ Failed\nError: Failed\n');
  // Spinner steps repeat; other lines with a dash do not count as steps.
  assert.equal(f().push('- Step\n- Step\nx - y\nx - y\n'), '- Step\nx - y\nx - y\n');
});

test('noise filter: the "compiler crashed" block after a compile error, up to the next head line', () => {
  const crashed = "Error: The AssemblyScript compiler crashed when compiling this file: 'src/mapping.ts'";
  const filter = new CliNoiseFilter();
  assert.equal(filter.push('ERROR TS1: m\n'), 'ERROR TS1: m\n');
  assert.equal(
    filter.push(`${crashed}\n  indented text\nSuggestion: comment\nAlso, please report\n- Discord: x\n    at y (z:1:1)\nBuild failed. Also, please retry\n  indented after\n`),
    'Build failed. Also, please retry\n  indented after\n',
  );
  assert.equal(new CliNoiseFilter().push(`ERROR TS1: m\n${crashed}\n✖ Failed\n`), 'ERROR TS1: m\n✖ Failed\n');
  // Without a compile error before it, nor at the line's start, it stays.
  assert.equal(new CliNoiseFilter().push(`ERROR TS1: m\nx ${crashed}\n`), `ERROR TS1: m\nx ${crashed}\n`);
});

const BUILD = fs.readFileSync(repoPath('test', 'fixtures', 'graph-output', 'build-ts2305.txt'), 'utf8');

test('graph build output without stack frames, the thrown copy and the false "compiler crashed" text', () => {
  const filter = new CliNoiseFilter();
  // In chunks of whole lines, as runGraph hands them on.
  const lines = BUILD.split('\n');
  let shown = '';
  for (let i = 0; i < lines.length; i += 7) shown += filter.push(lines.slice(i, i + 7).join('\n') + (i + 7 < lines.length ? '\n' : ''));
  assert.doesNotMatch(shown, /^\s+at /m, 'a stack frame is shown');
  assert.doesNotMatch(shown, /EEXIT|crashed|Discord|Github issues|Suggestion/);
  assert.doesNotMatch(shown, /^Error: Failed to compile data source mapping/m, 'the thrown copy of the ✖ line is shown');
  assert.match(shown, /^ERROR TS2305: Module 'generated\/schema' has no exported member 'NoSuchEntity'\.$/m);
  assert.match(shown, /^ in src\/mapping\.ts\(4,25\)$/m);
  assert.match(shown, /^✖ Failed to compile subgraph: Failed to compile data source mapping: 1 compile error\(s\)$/m);
  assert.equal(shown.match(/^- Apply migrations$/gm)?.length, 1, 'the spinner step once');
  assert.ok(shown.split('\n').length < 25, `still ${shown.split('\n').length} lines`);

  const [problem] = extractProblems(BUILD, 'subgraph.yaml');
  assert.equal(formatProblem(problem), "src/mapping.ts:4:25 error TS2305: Module 'generated/schema' has no exported member 'NoSuchEntity'.");
  assert.equal(
    formatProblem({ severity: 'warning', file: 'subgraph.yaml', keyPath: ['dataSources', 0, 'source'], message: 'a\n  b' }),
    'subgraph.yaml (dataSources > 0 > source) warning: a b',
  );
});

test('a real compiler crash (no compile error before it) keeps its text', () => {
  const shown = new CliNoiseFilter().push(
    "Error: The AssemblyScript compiler crashed when compiling this file: 'src/mapping.ts'\nSuggestion: try to comment the whole file\n    at process.<anonymous> (file:///x/asc.js:3:11)\n",
  );
  assert.match(shown, /compiler crashed/);
  assert.match(shown, /Suggestion/);
  assert.doesNotMatch(shown, /at process/);
});
