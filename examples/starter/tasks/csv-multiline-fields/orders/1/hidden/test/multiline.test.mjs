import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify, CsvError } from '../src/index.mjs';

test('a quoted field may span lines', () => {
  assert.deepEqual(parse('id,note\n1,"first line\nsecond line"\n2,short\n'), [
    ['id', 'note'],
    ['1', 'first line\nsecond line'],
    ['2', 'short'],
  ]);
});

test('CRLF inside quotes is kept, CRLF between records is not', () => {
  assert.deepEqual(parse('id,note\r\n1,"a\r\nb"\r\n2,"c"\r\n'), [
    ['id', 'note'],
    ['1', 'a\r\nb'],
    ['2', 'c'],
  ]);
});

test('an empty line inside a quoted field is part of the value', () => {
  assert.deepEqual(parse('"para one\n\npara two",x\n'), [['para one\n\npara two', 'x']]);
});

test('multi-line values work in header mode with another delimiter', () => {
  assert.deepEqual(parse('sku;description\nA-1;"Blue\nlarge; boxed"\n', { delimiter: ';', header: true }), [
    { sku: 'A-1', description: 'Blue\nlarge; boxed' },
  ]);
});

test('stringify output with line breaks parses back to the same rows', () => {
  const rows = [
    ['id', 'note'],
    ['1', 'line one\nline two'],
    ['2', 'with "quotes"\r\nand a, comma'],
  ];
  assert.deepEqual(parse(stringify(rows)), rows);
});

test('an unterminated quoted field reports the line where it started', () => {
  assert.throws(() => parse('a,b\n1,"never closed\n2,3\n'), (error) => {
    assert.ok(error instanceof CsvError);
    assert.equal(error.line, 2);
    return true;
  });
});

test('records after a multi-line field are still counted from the right line', () => {
  assert.throws(() => parse('a,b\n1,"x\ny"\n2,"oops\n'), (error) => {
    assert.ok(error instanceof CsvError);
    assert.equal(error.line, 4);
    return true;
  });
});
