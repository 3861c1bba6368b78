/**
 * A virtualised table of strings: only the rows in view are in the DOM (fixed row height, one
 * scroll container), so 10,000 rows scroll as smoothly as ten. Generic: columns and rows of
 * text in, "copy this cell" out. Every value is set as textContent, never parsed as HTML.
 *
 * Keyboard: the grid is one tab stop; arrows, Page Up/Down, Home/End move the active cell;
 * Enter or Ctrl/Cmd+C copies it. A click copies the cell under the pointer (unless text was
 * being selected).
 */
import { el } from '../dom';
import type { TableColumn, TableData } from '../protocol';
import './table.css';
import { visibleRows } from './window';

export const ROW_HEIGHT = 24;

/** Tables made so far in this page: a prefix that keeps cell ids unique. */
let tables = 0;

export interface TableOptions {
  /** Copies a cell's text; the table shows "Copied" when the promise resolves. */
  copy: (text: string) => Promise<void>;
  /** Shown when there are no rows. */
  emptyText?: string;
  /** Says where the view scrolled, so the page can keep it in its saved state. */
  onScroll?: (scrollTop: number) => void;
}

export class Table {
  readonly element: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private readonly rowsBox: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly status: HTMLElement;
  private columns: TableColumn[] = [];
  private rows: string[][] = [];
  private active = { row: 0, col: 0 };
  private frame = 0;
  private statusTimer: ReturnType<typeof setTimeout> | undefined;
  /** Cell ids must be unique in the page, even with two tables on it. */
  private readonly idPrefix = `dt${++tables}`;

  constructor(private readonly options: TableOptions) {
    this.element = el('div', { className: 'dt' });
    this.element.style.setProperty('--dt-row-height', `${ROW_HEIGHT}px`);
    this.scroller = el('div', { className: 'dt-scroll' });
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('role', 'grid');
    this.scroller.setAttribute('aria-readonly', 'true');
    this.header = el('div', { className: 'dt-row dt-header' });
    this.header.setAttribute('role', 'row');
    this.body = el('div', { className: 'dt-body' });
    this.body.setAttribute('role', 'rowgroup');
    this.rowsBox = el('div', { className: 'dt-rows' });
    this.empty = el('div', { className: 'dt-empty' });
    this.status = el('div', { className: 'dt-status' });
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    this.body.append(this.rowsBox);
    this.scroller.append(this.header, this.body);
    this.element.append(this.scroller, this.empty, this.status);

    this.scroller.addEventListener('scroll', () => {
      this.schedule();
      this.options.onScroll?.(this.scroller.scrollTop);
    });
    this.scroller.addEventListener('keydown', (e) => this.onKey(e));
    this.rowsBox.addEventListener('click', (e) => this.onClick(e));
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  setData({ columns, rows }: TableData, scrollTop = 0): void {
    this.columns = columns;
    this.rows = rows;
    this.active = { row: Math.min(this.active.row, Math.max(0, rows.length - 1)), col: Math.min(this.active.col, Math.max(0, columns.length - 1)) };
    this.element.style.setProperty('--dt-columns', columns.map((c) => `${c.width}px`).join(' '));
    this.header.replaceChildren(
      ...columns.map((c) => {
        const cell = el('div', { className: 'dt-cell', textContent: c.title });
        cell.setAttribute('role', 'columnheader');
        if (c.description) cell.title = c.description;
        return cell;
      }),
    );
    this.scroller.setAttribute('aria-rowcount', String(rows.length + 1));
    this.scroller.setAttribute('aria-colcount', String(columns.length));
    this.body.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.empty.textContent = rows.length ? '' : (this.options.emptyText ?? 'No rows.');
    this.empty.hidden = rows.length > 0;
    this.rowsBox.replaceChildren();
    this.scroller.scrollTop = scrollTop;
    this.render();
  }

  focus(): void {
    this.scroller.focus();
  }

  /** Draws the rows in view; called at most once per animation frame. */
  private render(): void {
    this.frame = 0;
    const viewport = this.scroller.clientHeight - this.header.offsetHeight;
    const win = visibleRows(this.rows.length, ROW_HEIGHT, this.scroller.scrollTop, viewport);
    this.rowsBox.style.transform = `translateY(${win.offset}px)`;
    const count = win.end - win.first;
    // Row elements are reused as the window moves: only their text changes.
    while (this.rowsBox.children.length > count) this.rowsBox.lastElementChild!.remove();
    while (this.rowsBox.children.length < count) {
      const row = el('div', { className: 'dt-row' });
      row.setAttribute('role', 'row');
      this.rowsBox.append(row);
    }
    for (let i = 0; i < count; i++) this.fillRow(this.rowsBox.children[i] as HTMLElement, win.first + i);
    const activeId = this.cellId(this.active.row, this.active.col);
    if (this.rowsBox.querySelector(`#${activeId}`)) this.scroller.setAttribute('aria-activedescendant', activeId);
    else this.scroller.removeAttribute('aria-activedescendant');
  }

  private fillRow(row: HTMLElement, index: number): void {
    const values = this.rows[index];
    row.dataset.index = String(index);
    row.setAttribute('aria-rowindex', String(index + 2));
    while (row.children.length > this.columns.length) row.lastElementChild!.remove();
    while (row.children.length < this.columns.length) {
      const cell = el('div', { className: 'dt-cell' });
      cell.setAttribute('role', 'gridcell');
      row.append(cell);
    }
    for (let col = 0; col < this.columns.length; col++) {
      const cell = row.children[col] as HTMLElement;
      cell.classList.toggle('dt-clip-start', this.columns[col].truncate === 'start');
      const text = values[col] ?? '';
      if (cell.textContent !== text) {
        cell.textContent = text;
        cell.title = text;
      }
      cell.id = this.cellId(index, col);
      cell.dataset.col = String(col);
      cell.classList.toggle('dt-active', index === this.active.row && col === this.active.col);
    }
  }

  private cellId(row: number, col: number): string {
    return `${this.idPrefix}-${row}-${col}`;
  }

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  private onClick(event: MouseEvent): void {
    const cell = (event.target as HTMLElement).closest<HTMLElement>('.dt-cell');
    const row = cell?.parentElement;
    if (!cell || !row?.dataset.index) return;
    this.moveTo(Number(row.dataset.index), Number(cell.dataset.col));
    // Selecting text to copy part of a value must not be overridden by a whole-cell copy.
    if (window.getSelection()?.toString()) return;
    void this.copyActive();
  }

  private onKey(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor((this.scroller.clientHeight - this.header.offsetHeight) / ROW_HEIGHT) - 1);
    const { row, col } = this.active;
    const moves: Record<string, [number, number] | undefined> = {
      ArrowDown: [row + 1, col],
      ArrowUp: [row - 1, col],
      ArrowRight: [row, col + 1],
      ArrowLeft: [row, col - 1],
      PageDown: [row + page, col],
      PageUp: [row - page, col],
      Home: event.ctrlKey || event.metaKey ? [0, col] : [row, 0],
      End: event.ctrlKey || event.metaKey ? [this.rows.length - 1, col] : [row, this.columns.length - 1],
    };
    const target = moves[event.key];
    if (target) {
      event.preventDefault();
      this.moveTo(...target);
    } else if (event.key === 'Enter' || ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c' && !window.getSelection()?.toString())) {
      event.preventDefault();
      void this.copyActive();
    }
  }

  /** Makes a cell active and scrolls it into view. */
  private moveTo(row: number, col: number): void {
    if (!this.rows.length) return;
    this.active = { row: clamp(row, 0, this.rows.length - 1), col: clamp(col, 0, this.columns.length - 1) };
    const top = this.active.row * ROW_HEIGHT;
    const viewport = this.scroller.clientHeight - this.header.offsetHeight;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + ROW_HEIGHT > this.scroller.scrollTop + viewport) this.scroller.scrollTop = top + ROW_HEIGHT - viewport;
    this.render();
  }

  private async copyActive(): Promise<void> {
    const { row, col } = this.active;
    const text = this.rows[row]?.[col];
    if (text === undefined || text === '') return;
    const cell = this.rowsBox.querySelector<HTMLElement>(`#${this.cellId(row, col)}`);
    try {
      await this.options.copy(text);
      this.say(`Copied ${this.columns[col].title.toLowerCase()}: ${text.length > 70 ? `${text.slice(0, 67)}…` : text}`);
      cell?.classList.add('dt-copied');
      setTimeout(() => cell?.classList.remove('dt-copied'), 700);
    } catch (error) {
      this.say(`Could not copy: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private say(text: string): void {
    this.status.textContent = text;
    this.status.classList.add('dt-status-shown');
    clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => this.status.classList.remove('dt-status-shown'), 2000);
  }
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
