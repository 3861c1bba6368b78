/**
 * The typed settings table (src/editor/kit/settingsSchema.ts) against package.json's
 * contributes.configuration, both ways: every declared setting has an entry with the same type,
 * default and bounds, and the table has no setting package.json lacks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CLI_HINTS } from '../../src/cli/knobs';
import { KNOB_HINTS, SETTINGS } from '../../src/editor/kit/settingsSchema';

interface Declared {
  type: string;
  default: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
}

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Declared> } } };
const declared = manifest.contributes.configuration.properties;
const table = Object.values(SETTINGS);

test('every setting package.json declares has a typed entry with its type, default and bounds', () => {
  for (const [id, schema] of Object.entries(declared)) {
    const entry = table.find((e) => e.id === id);
    assert.ok(entry, `${id} has no entry in the settings table`);
    const { type, default: value, minimum, maximum, enum: values } = entry as Declared;
    assert.deepEqual(
      { type, default: value, minimum, maximum, enum: values },
      { type: schema.type, default: schema.default, minimum: schema.minimum, maximum: schema.maximum, enum: schema.enum },
      id,
    );
  }
});

test('the settings table holds no setting package.json lacks, and each once', () => {
  for (const entry of table) assert.ok(entry.id in declared, `${entry.id} is not in package.json`);
  assert.equal(new Set(table.map((e) => e.id)).size, table.length);
});

test("the editor's failure messages name the knobs in the CLI's words: a message reads alike wherever it is shown", () => {
  // Mapping keys are the exception: the CLI's flag, the Contract Storage view's command.
  assert.deepEqual({ ...KNOB_HINTS, mappingKeys: undefined }, { ...CLI_HINTS, mappingKeys: undefined });
  assert.equal(CLI_HINTS.mappingKeys, '--keys');
  assert.match(KNOB_HINTS.mappingKeys, /^"Add Key…"/);
  assert.equal(KNOB_HINTS.timeout, 'the setting chaindeck.requestTimeoutMs (CLI: --timeout MS)');
});
