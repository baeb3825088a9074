export { parse, CsvError } from './parse.mjs';
export { stringify } from './stringify.mjs';
