/**
 * An INI file as Python's configparser reads setup.cfg and tox.ini: `[section]` headers, `key =
 * value` or `key: value` (keys lower-cased), whole-line comments starting with `#` or `;`, and a
 * value continued on the lines indented under its key (joined with a newline; blank lines
 * skipped). Hand-written: no JavaScript INI reader joins continuation lines the way configparser
 * does (docs/decisions/009). Sections repeated are merged; a later key wins.
 */
export function readIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    if (/^\s/.test(raw) && section !== null && key !== null) {
      section.set(key, `${section.get(key)!}\n${trimmed}`);
      continue;
    }
    const header = /^\[([^\]]+)\]$/.exec(trimmed);
    if (header) {
      const name = header[1]!.trim();
      section = sections.get(name) ?? new Map<string, string>();
      sections.set(name, section);
      key = null;
      continue;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(trimmed);
    key = pair && section !== null ? pair[1]!.toLowerCase() : null;
    if (pair && section !== null) section.set(key!, pair[2]!);
  }
  return sections;
}

/** The non-blank lines of a multi-line INI value. */
export function iniLines(value: string | undefined): string[] {
  return (value ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}
