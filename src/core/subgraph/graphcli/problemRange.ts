/**
 * Where in a file one of the graph CLI's problems is: compiler and YAML errors where the CLI
 * printed them, manifest errors through the key-path resolver (the CLI prints
 * `Path: dataSources > 0 > …`, never a line), and problems that name only a value (a handler
 * missing from the WASM) where that value is written.
 */
import { parseManifest, rangeOfKeyPath } from '../manifest/manifestDoc';
import type { Range } from '../types';
import type { GraphProblem } from './output';

const span = (line: number, character: number, length: number): Range => ({ start: { line, character }, end: { line, character: character + length } });

/** The range of `problem` in `text` (the file it names, as the CLI read it); the file's start when nothing places it. */
export function problemRange(problem: GraphProblem, text: string): Range {
  const lines = text.split('\n');
  if (problem.line !== undefined) {
    const line = Math.min(Math.max(problem.line - 1, 0), Math.max(lines.length - 1, 0));
    const column = Math.max((problem.column ?? 1) - 1, 0);
    // Cover the word the compiler points at, so the squiggle is visible.
    const word = /^[\w$]+/.exec((lines[line] ?? '').slice(column))?.[0].length ?? 1;
    return span(line, column, Math.max(word, 1));
  }
  if (problem.keyPath) return rangeOfKeyPath(parseManifest(text), problem.keyPath);
  if (problem.value) {
    const escaped = problem.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // A handler's name is written after `handler:`; anything else at its first whole-word use.
    // Word boundaries only where the value starts or ends with a word character (`./abis/X.json`, `E(uint256)`).
    const before = /^\w/.test(problem.value) ? '\\b' : '';
    const after = /\w$/.test(problem.value) ? '\\b' : '';
    const match = new RegExp(`handler:\\s*["']?(${escaped})\\b`).exec(text) ?? new RegExp(`${before}(${escaped})${after}`).exec(text);
    if (match) {
      const offset = match.index + match[0].indexOf(match[1]);
      const upTo = text.slice(0, offset).split('\n');
      const line = upTo.length - 1;
      return span(line, upTo[line].length, problem.value.length);
    }
  }
  return span(0, 0, 0);
}
