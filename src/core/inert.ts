/**
 * Text from nodes and APIs made inert before it reaches a terminal, an output channel or a table:
 * a hostile node could otherwise move the cursor, rewrite what was printed, set the window title,
 * plant a hyperlink, ring the bell or reorder text with bidi overrides. One linear pass, no
 * nested quantifiers, so any length of input is safe.
 */

// ESC sequences: CSI (ESC [ params final), strings (OSC, DCS, SOS, PM, APC) up to BEL or ST or
// the end of the line, and every other two-part escape (ESC, intermediates, final).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPES = /\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;

// C0 except tab and line feed (CR is handled apart), DEL, C1, and the bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) that make text read other than it runs.
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The text without terminal control sequences. CRLF becomes LF; a lone CR is dropped, since it
 * returns the cursor to overwrite what the line already shows. Tabs and line feeds stay.
 */
export function inertText(text: string): string {
  return text.replace(ESCAPES, '').replace(/\r\n/g, '\n').replace(/\r/g, '').replace(CONTROLS, '');
}

// What JSON.stringify leaves raw but a terminal may act on: C1 (U+009B is a one-byte CSI) and
// bidi controls, plus the line separators JavaScript source treats as line breaks.
const JSON_UNSAFE = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON for a terminal: JSON.stringify already escapes C0 controls (ESC becomes \u001b); this
 * escapes the rest too, so the output is inert and still parses to the very same value.
 */
export function inertJson(value: unknown, indent = 2): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** How much outside text a message quotes by default: enough for any real error, not a 5 MiB line. */
export const QUOTE_MAX_CHARS = 1000;

/**
 * Outside text fit for a one-line message: line breaks (CR, LF, VT, FF, NEL, U+2028, U+2029)
 * escaped as `\n`, `\r` or `\uXXXX`, so one finding stays one line; cut after `max` characters,
 * saying how many more there were. Only the kept part is escaped, so any length costs the same.
 */
export function oneLine(text: string, max = QUOTE_MAX_CHARS): string {
  let end = Math.min(text.length, max);
  // Never between the halves of a surrogate pair.
  if (end < text.length && end > 0 && /[\ud800-\udbff]/.test(text[end - 1])) end--;
  const kept = text
    .slice(0, end)
    .replace(/\r\n|[\n\r\v\f\x85\u2028\u2029]/g, (c) => (c === '\r\n' || c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const cut = text.length - end;
  return cut ? `${kept}… (${cut.toLocaleString('en-US')} more characters cut)` : kept;
}

/**
 * One line of inert text, for anything printed as one record of a line-based format (a finding,
 * a log line): outside text could otherwise start a line of its own, such as a forged
 * `::error …::` workflow command or a fake finding. Line breaks escaped as by oneLine, every
 * other control stripped as by inertText; never cut (callers map over lists with it).
 */
export function inertLine(text: string): string {
  // Escape sequences first: an unterminated one then ends at its own line break, not the message's end.
  return oneLine(text.replace(ESCAPES, ''), Infinity).replace(CONTROLS, '');
}
