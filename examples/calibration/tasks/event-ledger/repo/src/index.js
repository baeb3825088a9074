export { replay } from './ledger.js';
export { Reason } from './reasons.js';
