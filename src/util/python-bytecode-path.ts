/**
 * Where every bubblewrap sandbox shows the machine's Python bytecode, read-only: the compiled
 * standard library and kept site-packages of each toolchain, laid out as PYTHONPYCACHEPREFIX
 * wants it (`<prefix>/<source folder>/<module>.cpython-3X.pyc`; `sandbox/python-bytecode.ts`
 * builds it once per machine). The Python runners point PYTHONPYCACHEPREFIX here: a module
 * of the toolchain then loads its bytecode instead of compiling on every grading, and nothing
 * of the repo has bytecode here, so its modules — hidden tests included — are compiled from
 * source as before. Where nothing is mounted (another backend) the folder does not exist and
 * everything is compiled.
 */
export const PYTHON_BYTECODE_INSIDE = '/bakeoff-python-bytecode';
