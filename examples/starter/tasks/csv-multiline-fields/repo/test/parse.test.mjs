import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, CsvError } from '../src/index.mjs';

test('parses simple records', () => {
  assert.deepEqual(parse('a,b,c\n1,2,3\n'), [
    ['a', 'b', 'c'],
    ['1', '2', '3'],
  ]);
});

test('accepts CRLF line endings and a missing final newline', () => {
  assert.deepEqual(parse('a,b\r\n1,2'), [
    ['a', 'b'],
    ['1', '2'],
  ]);
});

test('quoted fields may contain the delimiter and escaped quotes', () => {
  assert.deepEqual(parse('name,note\nwidget,"says ""hi"", twice"\n'), [
    ['name', 'note'],
    ['widget', 'says "hi", twice'],
  ]);
});

test('keeps empty fields', () => {
  assert.deepEqual(parse(',x,\n"",,\n'), [
    ['', 'x', ''],
    ['', '', ''],
  ]);
});

test('skips empty lines unless told not to', () => {
  assert.deepEqual(parse('a\n\nb\n'), [['a'], ['b']]);
  assert.deepEqual(parse('a\n\nb\n', { skipEmptyLines: false }), [['a'], [''], ['b']]);
});

test('supports another delimiter', () => {
  assert.deepEqual(parse('a;b\n"1;5";2\n', { delimiter: ';' }), [
    ['a', 'b'],
    ['1;5', '2'],
  ]);
});

test('strips a byte order mark', () => {
  assert.deepEqual(parse('\uFEFFid\n7\n'), [['id'], ['7']]);
});

test('header mode returns objects', () => {
  assert.deepEqual(parse('sku,qty\nA-1,4\nB-2\n', { header: true }), [
    { sku: 'A-1', qty: '4' },
    { sku: 'B-2', qty: '' },
  ]);
});

test('an unterminated quoted field is an error with its line number', () => {
  assert.throws(() => parse('a,b\n1,"2\n'), (error) => {
    assert.ok(error instanceof CsvError);
    assert.equal(error.line, 2);
    return true;
  });
});

test('rejects a bad delimiter', () => {
  assert.throws(() => parse('a', { delimiter: '"' }), TypeError);
  assert.throws(() => parse('a', { delimiter: ';;' }), TypeError);
});
