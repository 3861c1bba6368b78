/**
 * The id table (src/editor/ids.ts) against package.json, both ways: every command and view
 * package.json names is in the table, and every command of the table is contributed unless it
 * is marked internal. A typo on either side fails here instead of as a dead menu entry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { COMMANDS, CONTEXT_KEYS, focusCommand, INTERNAL_COMMANDS, MANIFEST_GLOB, MANIFEST_SEARCH_EXCLUDE, PANEL_TYPES, VIEWS, WALKTHROUGH } from '../../../src/editor/ids';
import { repoPath } from '../../support/paths';

interface Contributes {
  commands: { command: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
  keybindings?: { command: string; when?: string }[];
  views: Record<string, { id: string }[]>;
  viewsWelcome: { view: string; contents: string; when?: string }[];
  walkthroughs: { id: string; steps: { id: string; description: string; completionEvents?: string[] }[] }[];
}
const pkg = JSON.parse(fs.readFileSync(repoPath('package.json'), 'utf8')) as { activationEvents?: string[]; contributes: Contributes };
const c = pkg.contributes;

/** [key path, id] of every command in the table. */
function entries(table: object, prefix: string[] = []): [string[], string][] {
  return Object.entries(table).flatMap(([key, value]) => (typeof value === 'string' ? [[[...prefix, key], value] as [string[], string]] : entries(value as object, [...prefix, key])));
}
const tableCommands = entries(COMMANDS).map(([, id]) => id);
const tableViews: string[] = Object.values(VIEWS);

const links = (markdown: string) => [...markdown.matchAll(/\(command:([\w.-]+)/g)].map((m) => m[1]);
const events = (list: readonly string[] | undefined, kind: string) => (list ?? []).filter((e) => e.startsWith(`${kind}:`)).map((e) => e.slice(kind.length + 1));
const viewsInWhen = (when: string | undefined) => [...(when ?? '').matchAll(/\bview == ([\w.-]+)/g)].map((m) => m[1]);

const contributed = c.commands.map((x) => x.command);
const usedCommands = [
  ...Object.values(c.menus).flatMap((items) => items.map((i) => i.command)),
  ...(c.keybindings ?? []).map((k) => k.command),
  ...c.viewsWelcome.flatMap((w) => links(w.contents)),
  ...c.walkthroughs.flatMap((w) => w.steps.flatMap((s) => [...links(s.description), ...events(s.completionEvents, 'onCommand')])),
  ...events(pkg.activationEvents, 'onCommand'),
];
const usedViews = [
  ...Object.values(c.views).flatMap((views) => views.map((v) => v.id)),
  ...c.viewsWelcome.map((w) => w.view),
  ...Object.values(c.menus).flatMap((items) => items.flatMap((i) => viewsInWhen(i.when))),
  ...c.walkthroughs.flatMap((w) => w.steps.flatMap((s) => events(s.completionEvents, 'onView'))),
  ...events(pkg.activationEvents, 'onView'),
];

test('each command id is chaindeck. and its key path in the table, and no two keys share an id', () => {
  for (const [keys, id] of entries(COMMANDS)) assert.equal(id, `chaindeck.${keys.join('.')}`);
  assert.equal(new Set(tableCommands).size, tableCommands.length);
});

test('every command package.json contributes or uses is in the table', () => {
  for (const id of [...contributed, ...usedCommands]) assert.ok(tableCommands.includes(id), `${id} is not in src/editor/ids.ts`);
  assert.ok(usedCommands.length > 40, 'menus, welcome links and walkthrough steps were all read');
});

test('every command of the table is contributed, except the internal ones, which are not', () => {
  for (const id of tableCommands) {
    if (INTERNAL_COMMANDS.includes(id)) assert.ok(!contributed.includes(id), `${id} is internal but contributed`);
    else assert.ok(contributed.includes(id), `${id} is not contributed in package.json`);
  }
  for (const id of INTERNAL_COMMANDS) assert.ok(tableCommands.includes(id), `${id} is internal but not in COMMANDS`);
  assert.equal(new Set(contributed).size, contributed.length, 'a command contributed twice');
});

test('views: package.json contributes exactly the table views, and names no other', () => {
  assert.deepEqual(
    Object.values(c.views)
      .flatMap((views) => views.map((v) => v.id))
      .sort(),
    [...tableViews].sort(),
  );
  for (const id of usedViews) assert.ok(tableViews.includes(id), `view ${id} is not in src/editor/ids.ts`);
  assert.equal(focusCommand(VIEWS.nodes), 'chaindeck.nodes.focus');
});

/** Every `when` clause anywhere in contributes. */
function whens(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(whens);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => (key === 'when' && typeof v === 'string' ? [v] : whens(v)));
}

test('every chaindeck.* context key in a when clause or a walkthrough completion event is in the table, and every table key is used', () => {
  const completions = c.walkthroughs.flatMap((w) => w.steps.flatMap((s) => events(s.completionEvents, 'onContext')));
  const names = [...whens(c), ...completions].flatMap((when) => [...when.matchAll(/(?<![\w.])chaindeck\.[\w.]+/g)].map((m) => m[0]));
  const contextKeys = names.filter((name) => !tableViews.includes(name));
  const tableKeys: string[] = Object.values(CONTEXT_KEYS);
  assert.ok(contextKeys.length > 0, 'the when clauses were read');
  for (const key of contextKeys) assert.ok(tableKeys.includes(key), `context key ${key} is not in src/editor/ids.ts`);
  for (const key of tableKeys) assert.ok(contextKeys.includes(key), `context key ${key} is in no when clause`);
});

test('each walkthrough step the extension completes from state is there and completes on its context key', () => {
  const walkthrough = c.walkthroughs.find((w) => w.id === WALKTHROUGH.id);
  assert.ok(walkthrough, `no walkthrough ${WALKTHROUGH.id} in package.json`);
  for (const [key, stepId] of Object.entries(WALKTHROUGH.stepOf)) {
    const step = walkthrough.steps.find((s) => s.id === stepId);
    assert.ok(step, `no step ${stepId} in the walkthrough`);
    assert.ok(step.completionEvents?.includes(`onContext:${key}`), `step ${stepId} does not complete on ${key}`);
  }
});

test('panel view types are chaindeck. ids, none shared with a view', () => {
  const types: string[] = Object.values(PANEL_TYPES);
  for (const type of types) assert.match(type, /^chaindeck\.\w+$/);
  assert.equal(new Set(types).size, types.length);
  for (const type of types) assert.ok(!tableViews.includes(type), type);
});

test('the extension activates on the manifests the glob finds; the search skips dependencies only', () => {
  const alternatives = MANIFEST_GLOB.replace(/^\{|\}$/g, '').split(',');
  assert.deepEqual(events(pkg.activationEvents, 'workspaceContains').sort(), alternatives.sort());
  assert.equal(MANIFEST_SEARCH_EXCLUDE, '**/node_modules/**');
});

test('the table loads without vscode', () => {
  const source = fs.readFileSync(repoPath('src', 'editor', 'ids.ts'), 'utf8');
  assert.doesNotMatch(source, /from 'vscode'|require\('vscode'\)/);
});
