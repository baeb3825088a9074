export { evaluate } from './evaluate.js';
export { matchResource } from './patterns.js';
