/**
 * CSV parsing (RFC 4180): fields separated by a delimiter, records separated by
 * line breaks, fields optionally enclosed in double quotes, `""` inside a quoted
 * field stands for one `"`.
 */

export class CsvError extends Error {
  /**
   * @param {string} message
   * @param {number} line 1-based line number where the problem starts
   */
  constructor(message, line) {
    super(`${message} (line ${line})`);
    this.name = 'CsvError';
    this.line = line;
  }
}

/**
 * Parses CSV text.
 *
 * @param {string} text
 * @param {{ delimiter?: string, header?: boolean, skipEmptyLines?: boolean }} [options]
 * @returns {string[][] | Record<string, string>[]}
 */
export function parse(text, options = {}) {
  const { delimiter = ',', header = false, skipEmptyLines = true } = options;
  if (typeof text !== 'string') {
    throw new TypeError('parse: text must be a string');
  }
  checkDelimiter(delimiter);

  // Drop a UTF-8 byte order mark (Excel likes to add one).
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;

  const rows = [];
  const lines = input.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const isLast = i === lines.length - 1;
    if (line === '' && (skipEmptyLines || isLast)) continue;
    rows.push(parseLine(line, delimiter, i + 1));
  }

  return header ? toObjects(rows) : rows;
}

function parseLine(line, delimiter, lineNumber) {
  const fields = [];
  let field = '';
  let inQuotes = false;
  let i = 0;

  while (i < line.length) {
    const ch = line[i];
    if (inQuotes) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i += 1;
        continue;
      }
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') {
      inQuotes = true;
    } else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else {
      field += ch;
    }
    i += 1;
  }

  if (inQuotes) {
    throw new CsvError('Unterminated quoted field', lineNumber);
  }
  fields.push(field);
  return fields;
}

function toObjects(rows) {
  if (rows.length === 0) return [];
  const [keys, ...records] = rows;
  return records.map((record) => {
    const object = {};
    keys.forEach((key, index) => {
      object[key] = record[index] ?? '';
    });
    return object;
  });
}

export function checkDelimiter(delimiter) {
  if (typeof delimiter !== 'string' || delimiter.length !== 1) {
    throw new TypeError('delimiter must be a single character');
  }
  if (delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new TypeError(`delimiter cannot be ${JSON.stringify(delimiter)}`);
  }
}
