import { describe, expect, it } from 'vitest';
import { inferPython } from './infer-python.js';
import { readIni } from './read-ini.js';

const facts = (files: Record<string, string | undefined>, more: string[] = []) => ({
  paths: new Set([...Object.keys(files), ...more]),
  texts: new Map(Object.entries(files).filter((e): e is [string, string] => e[1] !== undefined)),
});

describe('readIni', () => {
  it('reads sections, lower-cases keys, joins the lines indented under a key and skips comments', () => {
    const ini = readIni('# top\n[options]\nInstall_Requires =\n    attrs>=22\n\n    ; a comment\n    six\nzip_safe: false\n[options]\nextra = 1\n');
    expect(ini.get('options')).toEqual(new Map([['install_requires', '\nattrs>=22\nsix'], ['zip_safe', 'false'], ['extra', '1']]));
  });
});

describe('inferPython', () => {
  const PYPROJECT = '[project]\nname = "Calc_Kit"\ndependencies = ["attrs>=22"]\n\n[project.optional-dependencies]\ndocs = ["sphinx"]\ntest = ["pytest>=8", "hypothesis[numpy]; python_version>\'3.9\'", "calc-kit[docs]"]\n';
  const SETUP_CFG = '[metadata]\nname = calc\n\n[options]\ninstall_requires =\n    six\n\n[options.extras_require]\ntesting =\n    pytest\n    freezegun>=1\n';

  it.each([
    {
      name: 'pyproject test extra and runtime dependencies, without pytest or the project itself',
      files: { 'pyproject.toml': PYPROJECT },
      setup: "python -m pip install -q --target .deps 'attrs>=22' 'hypothesis[numpy]; python_version>'\\''3.9'\\'''",
      why: /pyproject.toml \[project\] dependencies, pyproject.toml \[project.optional-dependencies\] test/,
    },
    {
      name: 'a PEP 735 dependency group',
      files: { 'pyproject.toml': '[project]\nname = "x"\n\n[dependency-groups]\ndev = ["pytest", "responses", {include-group = "lint"}]\n' },
      setup: "python -m pip install -q --target .deps 'responses'",
      why: /\[dependency-groups\] dev/,
    },
    {
      name: 'setup.cfg install_requires and a testing extra',
      files: { 'setup.cfg': SETUP_CFG },
      setup: "python -m pip install -q --target .deps 'six' 'freezegun>=1'",
      why: /setup.cfg \[options\] install_requires, setup.cfg \[options.extras_require\] testing/,
    },
    {
      name: 'a requirements file for tests',
      files: { 'requirements-test.txt': 'pytest\nrequests==2.*\n' },
      setup: 'python -m pip install -q --target .deps -r requirements-test.txt',
      why: /requirements-test.txt/,
    },
    {
      name: 'nothing declared',
      files: { 'pyproject.toml': '[project]\nname = "bare"\n' },
      setup: null,
      why: /no requirements declared/,
    },
    {
      name: 'a pyproject that does not parse',
      files: { 'pyproject.toml': '[project\nname = ' },
      setup: null,
      why: /no requirements declared/,
    },
  ])('setup from $name', ({ files, setup, why }) => {
    const guess = inferPython(facts(files));
    expect(guess.setup.value).toBe(setup);
    expect(guess.setup.why).toMatch(why);
  });

  it.each([
    {
      name: "tox.ini's pytest command, its substitutions and coverage, xdist and JUnit options left out",
      files: { 'tox.ini': '[tox]\nenvlist = py311\n\n[testenv]\ndeps = pytest\ncommands =\n    python -m pip --version\n    pytest --cov=calc -n 4 --junitxml=out.xml --strict-markers {posargs} tests/unit\n' },
      more: [],
      command: 'python -m pytest -q --strict-markers tests/unit',
      why: /tox.ini \[testenv\] commands: pytest --cov=calc/,
    },
    {
      name: "tox.ini's py.test with substitutions as option values and a coverage report option with its value",
      files: { 'tox.ini': '[testenv]\ncommands =\n    py.test --basetemp={envtmpdir} --cov=cachetools --cov-report term-missing {posargs}\n' },
      more: ['tests/test_cache.py'],
      command: 'python -m pytest -q',
      why: /left out --basetemp=\{envtmpdir\} \(its value is a tox substitution\), --cov=cachetools \(coverage.*\), --cov-report term-missing \(coverage/,
    },
    {
      name: "tox.ini's {posargs:DEFAULT} and {toxinidir}, and -x named as cutting the run short",
      files: { 'tox.ini': '[testenv]\ncommands = pytest -x --rootdir={toxinidir} {posargs:tests/unit}\n' },
      more: [],
      command: 'python -m pytest -q --rootdir=. tests/unit',
      why: /left out -x \(it stops the run at the first failure/,
    },
    {
      name: "noxfile.py's session.run",
      files: { 'noxfile.py': 'import nox\n\n@nox.session\ndef tests(session):\n    session.install(".[test]")\n    session.run("pytest", "--cov", "--maxfail", "1", "-p", "no:randomly", *session.posargs)\n' },
      more: [],
      command: 'python -m pytest -q -p no:randomly',
      why: /noxfile.py session.run\("pytest".*left out --cov .*--maxfail 1 \(it stops/,
    },
    {
      name: "a Makefile's test target",
      files: { Makefile: 'PY = python\n\ntest:\n\t@$(PY) -m pytest -q --doctest-modules tests\n\nlint:\n\truff .\n' },
      more: [],
      command: 'python -m pytest -q --doctest-modules tests',
      why: /Makefile target test: \$\(PY\) -m pytest/,
    },
    {
      name: 'tox.ini running unittest discovery (pytest collects TestCase classes)',
      files: { 'tox.ini': '[testenv]\ncommands = {envpython} -m unittest discover -s checks -v\n' },
      more: [],
      command: 'python -m pytest -q checks',
      why: /unittest discover/,
    },
    {
      name: 'testpaths in pyproject.toml',
      files: { 'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests", "integration"]\n' },
      more: ['tests/test_a.py'],
      command: 'python -m pytest -q',
      why: /testpaths tests integration in pyproject.toml/,
    },
    {
      name: 'testpaths in setup.cfg [tool:pytest]',
      files: { 'setup.cfg': '[tool:pytest]\ntestpaths =\n    tests\n' },
      more: [],
      command: 'python -m pytest -q',
      why: /testpaths tests in setup.cfg \[tool:pytest\]/,
    },
    { name: 'a tests/ folder and no configuration', files: {}, more: ['tests/test_a.py', 'calc.py'], command: 'python -m pytest -q tests', why: /the tests\/ folder/ },
    { name: 'no tests folder and no configuration', files: {}, more: ['test_calc.py'], command: 'python -m pytest -q', why: /^Python/ },
    {
      name: 'a src layout with declared requirements (both on PYTHONPATH)',
      files: { 'pyproject.toml': PYPROJECT },
      more: ['src/calc_kit/__init__.py', 'tests/test_calc.py'],
      command: 'PYTHONPATH=src:.deps python -m pytest -q tests',
      why: /PYTHONPATH src:.deps \(a src layout, what setup installs\)/,
    },
  ])('test command from $name', ({ files, more, command, why }) => {
    const guess = inferPython(facts(files, more));
    expect(guess.test.command).toBe(command);
    expect(guess.test.why).toMatch(why);
  });
});
