/**
 * Shared by the extension-host suites (compiled beside them; index.ts loads only *.test.js, so
 * this file is never run as a suite).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';

export const EXTENSION_ID = 'chaindeck.chaindeck';

export { until } from '../../support/until';

/** One JSON-RPC call to the runner's anvil; its result, or an error naming the method. */
export async function anvil(method: string, params: unknown[]): Promise<unknown> {
  const url = process.env.CHAINDECK_TEST_ANVIL_URL;
  assert.ok(url, 'CHAINDECK_TEST_ANVIL_URL is not set');
  const reply = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await reply.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * Activates the extension and returns it with its test API, failing with `message` unless
 * `present` (by default: the API itself) is truthy.
 */
export async function activateTestApi(message: string, present: (api: TestApi) => unknown = (api) => api): Promise<{ ext: vscode.Extension<TestApi | undefined>; api: TestApi }> {
  const ext = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed`);
  const exported = await ext.activate();
  assert.ok(exported && present(exported), message);
  return { ext, api: exported };
}
