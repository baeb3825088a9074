import { statSync } from 'node:fs';
import type { HostFile } from './types.js';

/** A local bake's {@link HostFile}: the path itself, when it is a regular file. */
export const localFile: HostFile = (absolutePath) => (statSync(absolutePath, { throwIfNoEntry: false })?.isFile() ? absolutePath : null);
