/**
 * The yaml package's error codes in Chaindeck's words (yamlMessages.ts): each code's exact
 * message, the package's first line for codes without one, and the words reaching a finding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { yamlMessage } from '../../../../../src/core/subgraph/manifest/yamlMessages';

const WORDS: [string, string][] = [
  ['ALIAS_PROPS', 'An alias (*name) cannot carry an anchor or a tag.'],
  ['BAD_ALIAS', 'This alias (*name) refers to no anchor (&name) defined before it.'],
  ['BAD_DIRECTIVE', 'This % directive is not one YAML knows (%YAML or %TAG).'],
  ['BAD_DQ_ESCAPE', 'This backslash escape is not valid in a double-quoted string.'],
  ['BAD_INDENT', 'The indentation is wrong here: items of one mapping or list start in the same column, nested ones further right.'],
  ['BAD_PROP_ORDER', 'An anchor (&name) or tag (!tag) is misplaced here: it goes right before the value.'],
  ['BAD_SCALAR_START', 'A plain value cannot start with this character: put the value in quotes.'],
  ['BLOCK_AS_IMPLICIT_KEY', 'A key cannot be a whole mapping or list: is a colon missing, or is the indentation off?'],
  ['BLOCK_IN_FLOW', 'An indented (block) mapping or list cannot be inside [ ] or { }.'],
  ['DUPLICATE_KEY', 'This key appears more than once in the same mapping.'],
  ['KEY_OVER_1024_CHARS', 'A key without ? is at most 1024 characters long.'],
  ['MISSING_CHAR', 'A closing character is missing here (a quote, ] or }).'],
  ['MULTILINE_IMPLICIT_KEY', 'A key must be on one line: is a colon or a quote missing on the line before?'],
  ['MULTIPLE_ANCHORS', 'A value can carry one anchor (&name) only.'],
  ['MULTIPLE_DOCS', 'A manifest is one YAML document: remove the extra --- section.'],
  ['MULTIPLE_TAGS', 'A value can carry one tag (!tag) only.'],
  ['NON_STRING_KEY', 'Keys are plain text here, not mappings or lists.'],
  ['RESOURCE_EXHAUSTION', 'The aliases expand to too much data: this file cannot be read safely.'],
  ['TAB_AS_INDENT', 'Tabs cannot indent YAML: use spaces.'],
  ['TAG_RESOLVE_FAILED', 'This tag (!tag) is not one YAML knows.'],
  ['UNEXPECTED_TOKEN', 'This is not valid YAML here: check the indentation and the colons of the lines around it.'],
  ['BAD_COLLECTION_TYPE', 'This value is not the kind of collection its tag says.'],
];

test('each known code has its own words, whatever the package said', () => {
  for (const [code, words] of WORDS) assert.equal(yamlMessage(code, 'Parser internals\nat line 1'), words, code);
});

test('an unknown code keeps the first line of the package message', () => {
  assert.equal(yamlMessage('SOMETHING_NEW', 'First line\nsecond line\nthird'), 'First line');
  assert.equal(yamlMessage('SOMETHING_NEW', 'Only line'), 'Only line');
});

test('the words reach the findings of a manifest', () => {
  const files = { '/p/subgraph.yaml': 'specVersion: 0.0.5\n\tschema: x\n' };
  const findings = validateSubgraph('/p/subgraph.yaml', memoryFileSource(files)).findings;
  assert.ok(
    findings.some((f) => f.code === 'yaml-syntax' && f.message === 'Tabs cannot indent YAML: use spaces.'),
    JSON.stringify(findings.map((f) => [f.code, f.message])),
  );
});
