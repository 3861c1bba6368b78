/**
 * A mapping importing generated/<data source>/<ABI> (or generated/templates/<template>/<ABI>)
 * that graph codegen never writes: the manifest has no such data source, template or ABI. graph
 * codegen passes and graph build fails (TS6054, file not found); the corpus variant of it runs
 * the real graph CLI (test/integration/subgraph.cli.test.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { replaceIn, tutorialFiles, virtualProject, VIRTUAL_MANIFEST, type Edit } from '../../../../fixtures/subgraphs/corpus';

const IMPORT = 'import { Approval } from "../generated/ERC20/ERC20";';
const mapping = (to: string) => replaceIn('src/mapping.ts', IMPORT, to);

function findings(...edits: Edit[]): string[] {
  const files = tutorialFiles();
  for (const e of edits) e(files);
  const p = virtualProject(files);
  return validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(p.files, p.mtimes))
    .findings.filter((f) => f.code === 'generated-module-unknown')
    .map((f) => `${f.severity} ${f.range.start.line + 1}:${f.range.start.character + 1}-${f.range.end.character + 1} ${f.message}`);
}

describe('imports of generated modules', () => {
  test('the tutorial imports its own data source’s ABI class: nothing', () => {
    assert.deepEqual(findings(), []);
  });

  test('a data source the manifest does not have: an error on the module, where the compiler puts TS6054', () => {
    assert.deepEqual(findings(mapping('import { Approval } from "../generated/Token/ERC20";')), [
      `error 3:26-52 '../generated/Token/ERC20' is not written by graph codegen: the manifest has no data source named 'Token' (graph build fails: TS6054, file not found)`,
    ]);
    // A near name is offered.
    assert.match(findings(mapping('import { Approval } from "../generated/ERC2O/ERC20";'))[0], /no data source named 'ERC2O'; did you mean 'ERC20'\?/);
  });

  test('an ABI the data source does not list', () => {
    assert.deepEqual(findings(mapping('import { Approval } from "../generated/ERC20/ERC721";')), [
      `error 3:26-53 '../generated/ERC20/ERC721' is not written by graph codegen: data source 'ERC20' has no ABI named 'ERC721' (its ABIs: ERC20) (graph build fails: TS6054, file not found)`,
    ]);
  });

  test('a template the manifest does not have; the templates module itself is not judged', () => {
    const withTemplates = mapping(`${IMPORT}\nimport { Pair } from "../generated/templates/Pair/ERC20";\nimport { Pair as PairTemplate } from "../generated/templates";`);
    assert.deepEqual(findings(withTemplates), [
      `error 4:22-57 '../generated/templates/Pair/ERC20' is not written by graph codegen: the manifest has no template named 'Pair' (graph build fails: TS6054, file not found)`,
    ]);
  });

  test('modules outside generated/, and packages, are not judged', () => {
    assert.deepEqual(findings(mapping(`${IMPORT}\nimport { helper } from "./utils/ERC20";\nimport { BigInt } from "@graphprotocol/graph-ts";`)), []);
  });
});
