/**
 * The rule tests' harness: the tutorial subgraph (test/fixtures/subgraphs) with a few edits,
 * validated in memory, and the one finding of a code among what came back.
 */
import assert from 'node:assert/strict';
import { memoryFileSource } from '../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../src/core/subgraph/rules/validate';
import type { Finding } from '../../src/core/subgraph/types';
import { tutorialFiles, virtualProject, VIRTUAL_MANIFEST, type Edit } from '../fixtures/subgraphs/corpus';

/** The findings of the tutorial subgraph after `edits`, its files modified at `mtimes`. */
export function validateTutorial(edits: readonly Edit[] = [], mtimes: Record<string, number> = {}): Finding[] {
  const files = tutorialFiles();
  for (const e of edits) e(files);
  const p = virtualProject(files, mtimes);
  return validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(p.files, p.mtimes)).findings;
}

/** The one finding with `code`; with none or several, fails listing every finding. */
export function only(findings: Finding[], code: string): Finding {
  const hits = findings.filter((f) => f.code === code);
  assert.equal(
    hits.length,
    1,
    `expected one ${code}, got: ${JSON.stringify(
      findings.map((f) => `${f.code}: ${f.message}`),
      null,
      1,
    )}`,
  );
  return hits[0];
}
