import { checkDelimiter } from './parse.mjs';

/**
 * Serializes rows (arrays of values) to CSV text. `null` and `undefined` become
 * empty fields; every other value goes through `String()`.
 *
 * @param {unknown[][]} rows
 * @param {{ delimiter?: string, eol?: string }} [options]
 * @returns {string}
 */
export function stringify(rows, options = {}) {
  const { delimiter = ',', eol = '\r\n' } = options;
  checkDelimiter(delimiter);
  if (!Array.isArray(rows)) {
    throw new TypeError('stringify: rows must be an array of arrays');
  }
  return rows.map((row) => row.map((value) => quote(value, delimiter)).join(delimiter) + eol).join('');
}

function quote(value, delimiter) {
  const text = value === null || value === undefined ? '' : String(value);
  const needsQuotes =
    text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r');
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}
