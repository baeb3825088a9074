import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { TestResult, TestStatus } from './types.js';
import { firstLine } from './first-line.js';
import { toRepoRelativePath } from './repo-root.js';

/** What one JUnit XML file held: its tests, and what was wrong with it. */
export interface JunitFile {
  readonly tests: readonly TestResult[];
  readonly problems: readonly string[];
}

/** Elements that may repeat; fast-xml-parser gives a lone one as an object otherwise. */
const ARRAYS = new Set(['testsuites', 'testsuite', 'testcase', 'failure', 'error', 'skipped']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // names, class names and messages are text: never numbers or booleans
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  textNodeName: '#text',
  isArray: (name) => ARRAYS.has(name),
  // XML's five entities and character references (`&#10;` in pytest's messages; fast-xml-parser
  // decodes those only with htmlEntities); a DOCTYPE with entities of its own is refused before this
  processEntities: true,
  htmlEntities: true,
});

type Node = Record<string, unknown>;

/**
 * Reads one JUnit XML document (`<testsuites>` or a lone `<testsuite>`, suites nested in
 * suites): every `<testcase>` is one test with id `<classname>::<name>` (`<file>::<classname>::<name>`
 * when the test case or its suite names its file, made relative to the repo root; `<name>`
 * alone without a class name). A `<failure>` is a
 * fail, an `<error>` an error, `<skipped>` a skip, none of them a pass; the message is the
 * element's `message` attribute, else its text's first line. A document that is not well-formed
 * XML, has a DOCTYPE (entity definitions are refused outright) or has no test suite is a
 * problem, never an empty pass.
 */
export function parseJunitXml(text: string, name: string, roots: readonly string[]): JunitFile {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { tests: [], problems: [`JUnit report ${name} has a DOCTYPE or entity declarations (not read)`] };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { tests: [], problems: [`JUnit report ${name} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`] };
  const doc = parser.parse(text) as Node;
  const suites = [...asNodes(doc.testsuites).flatMap((s) => asNodes(s.testsuite)), ...asNodes(doc.testsuite)];
  if (suites.length === 0) return { tests: [], problems: [`JUnit report ${name} holds no <testsuite>`] };
  const tests: TestResult[] = [];
  const walk = (suite: Node, file: string | undefined): void => {
    const suiteFile = attr(suite, 'file') ?? file;
    for (const testcase of asNodes(suite.testcase)) tests.push(toResult(testcase, suiteFile, roots));
    for (const inner of asNodes(suite.testsuite)) walk(inner, suiteFile);
  };
  for (const suite of suites) walk(suite, undefined);
  return { tests, problems: [] };
}

function asNodes(value: unknown): Node[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  // an element with text only (`<failure>why</failure>`, or empty) parses as its text
  return list.map((v) => (v !== null && typeof v === 'object' ? (v as Node) : { '#text': String(v ?? '') }));
}

function attr(node: Node, key: string): string | undefined {
  const value = node[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function toResult(testcase: Node, suiteFile: string | undefined, roots: readonly string[]): TestResult {
  const name = attr(testcase, 'name') ?? '';
  const classname = attr(testcase, 'classname');
  const named = attr(testcase, 'file') ?? suiteFile;
  const file = named === undefined ? undefined : toRepoRelativePath(named, roots);
  const id = [file, classname, name].filter((part) => part !== undefined).join('::');
  const outcome = (['error', 'failure', 'skipped'] as const).find((key) => testcase[key] !== undefined);
  const status: TestStatus = outcome === 'error' ? 'error' : outcome === 'failure' ? 'fail' : outcome === 'skipped' ? 'skip' : 'pass';
  if (outcome === undefined || outcome === 'skipped') return { id, status };
  const element = asNodes(testcase[outcome])[0] ?? {};
  const message = firstLine(attr(element, 'message')) ?? firstLine(typeof element['#text'] === 'string' ? element['#text'] : undefined);
  return { id, status, ...(message === undefined ? {} : { message }) };
}
