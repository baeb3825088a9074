export { simulate } from './simulate.js';
