import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.demo/**', 'test-results/**', 'reports/**', '.stryker-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly', fetch: 'readonly', AbortSignal: 'readonly', AbortController: 'readonly', Buffer: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', performance: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-imports': 'off',
    },
  },
  {
    // The core runs in plain Node (CLI, tests, benchmarks): it must never reach for the editor.
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core must not import vscode' }] }] },
  },
  {
    files: ['src/webview/**/*.ts'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', acquireVsCodeApi: 'readonly', requestAnimationFrame: 'readonly' } },
  },
);
