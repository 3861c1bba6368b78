/**
 * The compare panel's host: a compare's result as pages of the entities that differ (core's
 * diffRows), the endpoints with their keys masked, each endpoint's failure in its one line, and
 * "Compare Again". CSV exports every row that differs; JSON the whole result. One panel, reused.
 */
import * as vscode from 'vscode';
import type { CompareResult } from '../../../core/indexing/compare/compare';
import { differs } from '../../../core/indexing/compare/diff';
import { diffPage, diffRows } from '../../../core/indexing/compare/rows';
import { redactText } from '../../../core/redact';
import { fittedTable } from '../../../core/table/table';
import type { CompareContract, ComparePage } from '../../../webview/compare/protocol';
import { PANEL_TYPES } from '../../ids';
import type { Log } from '../../log';
import { TablePanel } from '../../webview/tablePanel';

/** Rows per page of the panel. */
export const COMPARE_PAGE_ROWS = 100;

interface Shown {
  result: CompareResult;
  rows: string[][];
  index: number;
  page: ComparePage;
  title: string;
  again: () => Promise<unknown>;
}

export class ComparePanel implements vscode.Disposable {
  private readonly host: TablePanel<CompareContract>;
  private shown: Shown | undefined;

  constructor(extensionUri: vscode.Uri, log: Log) {
    this.host = new TablePanel<CompareContract>(extensionUri, {
      panel: { viewType: PANEL_TYPES.compare, entry: 'compare', column: vscode.ViewColumn.Beside, iconPath: new vscode.ThemeIcon('diff') },
      log,
      name: 'Compare panel',
      requests: {
        ready: () => ({ page: this.shown?.page, status: this.host.status }),
        next: () => this.turn(+1),
        previous: () => this.turn(-1),
        rerun: async () => void (await this.shown?.again()),
      },
      export: {
        what: 'Differing Entities',
        rows: 'differing entities',
        nothing: 'There is no compare to export yet.',
        source: (format) => {
          const shown = this.shown;
          return shown && { name: `compare-block-${shown.result.block}.${format}`, table: { columns: shown.page.table.columns, rows: shown.rows }, json: () => shown.result };
        },
      },
    });
  }

  /** The page shown (for tests). */
  get page(): ComparePage | undefined {
    return this.shown?.page;
  }

  /** Runs a compare as the panel's one read (superseding one in flight) and shows its first page. */
  async run(title: string, compare: (signal: AbortSignal) => Promise<CompareResult>): Promise<CompareResult | undefined> {
    const again = () => this.run(title, compare);
    return this.host.read(title, async (read) => {
      if (this.host.panel) this.host.setStatus({ busy: true });
      const result = await read.withProgress(title, (signal) => compare(signal));
      if (!read.isCurrent()) return undefined;
      const rows = diffRows(result);
      this.shown = { result, rows, index: 0, title, again, page: pageOf(result, rows, 0) };
      const panel = this.host.panel ?? this.host.open(title);
      panel.title = title;
      panel.reveal(undefined, true);
      this.host.show(this.shown.page);
      return result;
    });
  }

  private turn(step: number): undefined {
    const shown = this.shown;
    if (!shown) return undefined;
    shown.index = Math.max(0, shown.index + step);
    shown.page = pageOf(shown.result, shown.rows, shown.index);
    shown.index = shown.page.pageNumber - 1;
    this.host.show(shown.page);
    return undefined;
  }

  dispose(): void {
    this.host.dispose();
  }
}

/** The page `index` of a result's differing rows, with what the panel says above them. */
export function pageOf(result: CompareResult, rows: readonly string[][], index: number): ComparePage {
  const { table, ...position } = diffPage(rows, index, COMPARE_PAGE_ROWS);
  const side = (s: CompareResult['a']) => ({ label: s.shown, head: s.head, failure: s.failure && redactText(s.failure) });
  return {
    ...position,
    table: fittedTable(table),
    block: result.block,
    blockFrom: result.blockFrom,
    a: side(result.a),
    b: side(result.b),
    fields: result.fields.map((f) => ({
      name: f.field,
      countA: f.countA,
      countB: f.countB,
      differing: differs(f) ? f.onlyInA.length + f.onlyInB.length + f.changed.length : 0,
      truncated: f.truncated,
    })),
    differing: rows.length,
    pages: Math.max(1, Math.ceil(rows.length / COMPARE_PAGE_ROWS)),
    equal: result.equal,
  };
}
