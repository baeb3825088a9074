import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify } from '../src/index.mjs';

test('writes CRLF-terminated records', () => {
  assert.equal(stringify([['a', 'b'], [1, 2]]), 'a,b\r\n1,2\r\n');
});

test('quotes fields that need it', () => {
  assert.equal(stringify([['x,y', 'say "hi"', 'plain']]), '"x,y","say ""hi""",plain\r\n');
  assert.equal(stringify([['two\nlines']]), '"two\nlines"\r\n');
});

test('null and undefined become empty fields', () => {
  assert.equal(stringify([[null, undefined, 0]]), ',,0\r\n');
});

test('honours delimiter and eol options', () => {
  assert.equal(stringify([['a;b', 'c']], { delimiter: ';', eol: '\n' }), '"a;b";c\n');
});

test('round-trips single-line values', () => {
  const rows = [
    ['id', 'name', 'note'],
    ['1', 'Widget', 'contains, a comma'],
    ['2', 'Gadget', 'a "quoted" word'],
  ];
  assert.deepEqual(parse(stringify(rows)), rows);
});
