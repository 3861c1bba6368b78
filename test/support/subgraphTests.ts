/**
 * A subgraph with gnd test files, for the Test Explorer's tests (extension host and UI): the
 * tutorial subgraph (one Approval handler writing ApprovalQuery) whose mapping refuses one value
 * (a handler error), with three test files: one that passes, one whose second assertion expects a
 * wrong value (its diff names the value), one whose event the handler refuses.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The value the mapping aborts on. */
export const REFUSED_VALUE = '666';
export const TX = `0x${'ab'.repeat(32)}`;
const OWNER = `0x${'11'.repeat(20)}`;
const SPENDER = `0x${'22'.repeat(20)}`;
/** The tutorial's data source address and start block (gnd 0.45.0 takes the first block of a test as the start: it holds no event). */
const ADDRESS = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const START = 6082465;

/** A test of one Approval of `value`, asserting the record in full and then only its value as `expected`. */
export function approvalTest(name: string, value: string, expected = value): object {
  return {
    name,
    blocks: [
      { number: START },
      {
        number: START + 1,
        events: [{ address: ADDRESS, event: 'Approval(address indexed owner, address indexed spender, uint256 value)', params: { owner: OWNER, spender: SPENDER, value }, txHash: TX }],
      },
    ],
    assertions: [
      { query: '{ approvalQueries { id owner spender } }', expected: { approvalQueries: [{ id: `${TX}-0`, owner: OWNER, spender: SPENDER }] } },
      { query: '{\n  approvalQueries {\n    value\n  }\n}', expected: { approvalQueries: [{ value: expected }] } },
    ],
  };
}

export const TEST_FILES = {
  passing: { file: 'approval.json', name: 'an approval is recorded', test: () => approvalTest('an approval is recorded', '5') },
  failing: { file: 'wrong.json', name: 'the value is recorded as sent', test: () => approvalTest('the value is recorded as sent', '5', '6') },
  refused: { file: 'refused.json', name: 'the refused value', test: () => approvalTest('the refused value', REFUSED_VALUE) },
} as const;

/** Copies the tutorial subgraph into `folder` (its mapping refusing REFUSED_VALUE) with the three test files; links `nodeModules` beside it. */
export function writeTestedSubgraph(root: string, folder: string, nodeModules = path.join(root, 'node_modules')): void {
  fs.cpSync(path.join(root, 'test', 'fixtures', 'subgraphs', 'tutorial'), folder, { recursive: true });
  fs.symlinkSync(nodeModules, path.join(folder, 'node_modules'), 'dir');
  const mapping = path.join(folder, 'src', 'mapping.ts');
  const refusal = `if (event.params.value.toString() == "${REFUSED_VALUE}") assert(false, "refusing the value ${REFUSED_VALUE}");\n  `;
  fs.writeFileSync(mapping, fs.readFileSync(mapping, 'utf8').replace('const id =', `${refusal}const id =`));
  fs.mkdirSync(path.join(folder, 'tests'));
  for (const t of Object.values(TEST_FILES)) fs.writeFileSync(path.join(folder, 'tests', t.file), `${JSON.stringify(t.test(), null, 2)}\n`);
}
