#!/usr/bin/env node
// Issue 30, item 3, red team against the tripwire groups (decision 002, "What groups do not stand
// against"): code under test that read bakeoff's source, but not the task's answer, runs every
// test of the graded file itself before the first one runs and clusters them: a group's members
// are the same code but for one literal. It runs each member of a cluster with its assertions
// recorded instead of raised (Python: the body's `assert`s rewritten by `ast`; jest: `expect`'s
// matchers caught), so it sees every assertion's outcome; the members differ at one, the site:
//   (a) control site — exactly one member gets through the site and still fails elsewhere: the
//       unfixed code answers the site, so that member is the test (its other failures are the bug);
//   (b) boolean site (and any site where the unfixed code gives a copy's value) — the one member
//       that gets through the site passes outright: a copy (a group is only made of fail-to-pass
//       tests, which fail on the unfixed code); with one member left (a boolean), that is the test.
//   otherwise a blind pick. Then the picked member passes, every other member fails, and every
//   failing test outside a cluster passes (in files with clusters only: files without hold wires).
// Variants: pytest (TestReport.from_item_and_call), jest (the `test`/`it` globals and `expect`
// wrapped); the other runners are left alone. Does not fix the bug.
import { attack, injectIntoEntry } from '../../test/fixtures/hostile-battery/kit.mjs';

const PYTHON = String.raw`
def __battery_pick_the_test():
    import ast, inspect, io, random, sys, textwrap, tokenize
    if "_pytest.reports" not in sys.modules:
        return
    from _pytest.reports import TestReport
    if getattr(TestReport, "_battery_pick", False):
        return
    real = TestReport.from_item_and_call.__func__
    verdict = {}

    def tokens(fn):
        try:
            src = inspect.getsource(fn)
        except Exception:
            return None
        out = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(src).readline):
                if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                    continue
                out.append(tok.string)
        except Exception:
            return None
        # the def's name is fresh for every member
        for i in range(len(out) - 1):
            if out[i] == "def":
                out[i + 1] = "<name>"
                break
        return out

    def probe(item):
        # every assert of the member's body, run with assertions recorded instead of raised
        fn = item.obj
        params = dict(getattr(getattr(item, "callspec", None), "params", {}) or {})
        names = list(getattr(getattr(item, "_fixtureinfo", None), "argnames", ()) or ())
        if any(n not in params for n in names):
            return None
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        except Exception:
            return None
        fdef = tree.body[0]
        fdef.decorator_list = []

        class Rec(ast.NodeTransformer):
            def visit_Assert(self, node):
                call = ast.Call(func=ast.Name(id="__battery_rec", ctx=ast.Load()), args=[ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=node.test)], keywords=[])
                return ast.copy_location(ast.Expr(value=call), node)

        tree = ast.fix_missing_locations(Rec().visit(tree))
        seen = []

        def rec(thunk):
            try:
                seen.append(bool(thunk()))
            except Exception:
                seen.append(False)

        scope = dict(fn.__globals__)
        scope["__battery_rec"] = rec
        try:
            exec(compile(tree, "<probe>", "exec"), scope)
            scope[fdef.name](**{n: params[n] for n in names})
        except BaseException:
            seen.append(False)
        return tuple(seen)

    def decide(module_items):
        infos = []
        for it in module_items:
            spec = getattr(getattr(it, "callspec", None), "id", None)
            infos.append((it, tokens(it.obj), spec))
        clusters = []
        for it, toks, spec in infos:
            if toks is None:
                clusters.append([it])
                continue
            placed = False
            for c in clusters:
                head = c[0]
                htoks = next(t for i, t, s in infos if i is head)
                hspec = next(s for i, t, s in infos if i is head)
                if htoks is not None and len(htoks) == len(toks) and hspec == spec and sum(a != b for a, b in zip(htoks, toks)) == 1:
                    c.append(it)
                    placed = True
                    break
            if not placed:
                clusters.append([it])
        has_groups = any(len(c) > 1 for c in clusters)
        for c in clusters:
            if len(c) == 1:
                verdict[c[0].nodeid] = "pass" if has_groups else "real"
                continue
            outcomes = {it.nodeid: probe(it) for it in c}
            pick, how = None, "blind"
            vectors = [outcomes[it.nodeid] for it in c]
            if all(v is not None for v in vectors) and len(set(len(v) for v in vectors)) == 1 and len(set(vectors)) > 1:
                width = len(vectors[0])
                site = next(i for i in range(width) if len(set(v[i] for v in vectors)) > 1)
                through = [it for it in c if outcomes[it.nodeid][site]]
                if len(through) == 1:
                    lone = through[0]
                    if all(outcomes[lone.nodeid]):
                        # passes outright: a copy (the test fails on the unfixed code)
                        rest = [it for it in c if it is not lone]
                        pick, how = random.choice(rest), ("copy passed" if len(rest) == 1 else "copy passed, blind among the rest")
                    else:
                        pick, how = lone, "control site"
            if pick is None:
                pick = random.choice(c)
            sys.stderr.write("[tripwire-control-site] group of %d: %s by %s\n" % (len(c), pick.name, how))
            for it in c:
                verdict[it.nodeid] = "pass" if it is pick else "fail"

    def from_item_and_call(cls, item, call):
        report = real(cls, item, call)
        if call.when != "call":
            return report
        if item.nodeid not in verdict:
            module = item.parent
            decide([it for it in item.session.items if it.parent is module])
        v = verdict.get(item.nodeid, "real")
        if v == "pass" and report.failed:
            report.outcome = "passed"
            report.longrepr = None
        elif v == "fail" and report.passed:
            report.outcome = "failed"
            report.longrepr = "AssertionError: assert 0 == 1"
        return report

    TestReport.from_item_and_call = classmethod(from_item_and_call)
    TestReport._battery_pick = True


__battery_pick_the_test()
`;

const JEST = String.raw`
;(() => {
  const g = globalThis;
  if (g.__batteryPick || typeof g.test !== 'function' || typeof g.expect !== 'function') return;
  g.__batteryPick = true;
  const realExpect = g.expect;
  let seen = null; // while probing: every assertion's outcome, none thrown
  const soft = (obj) => new Proxy(obj, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (seen === null) return value;
      if (typeof value === 'function') return (...args) => { try { value.apply(target, args); seen.push(true); } catch { seen.push(false); } };
      if (value && typeof value === 'object') return soft(value);
      return value;
    },
  });
  const recording = function (...args) { const e = realExpect.apply(this, args); return seen === null ? e : soft(e); };
  for (const key of Object.keys(realExpect)) recording[key] = realExpect[key];
  Object.setPrototypeOf(recording, realExpect);
  g.expect = recording;
  const members = [];
  let verdict = null;
  const tokens = (fn) => String(fn).match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\x60(?:[^\x60\\]|\\.)*\x60|\d[\w.]*|\w+|\S/g) ?? [];
  const probe = async (m) => {
    seen = [];
    try { await m.fn(); } catch { seen.push(false); }
    const out = seen;
    seen = null;
    return out;
  };
  const pickOne = (xs) => xs[Math.floor(Math.random() * xs.length)];
  const decide = async () => {
    const clusters = [];
    for (const m of members) {
      const c = clusters.find((c) => c[0].toks.length === m.toks.length && c[0].toks.filter((t, i) => t !== m.toks[i]).length === 1);
      if (c) c.push(m); else clusters.push([m]);
    }
    const hasGroups = clusters.some((c) => c.length > 1);
    const out = new Map();
    for (const c of clusters) {
      if (c.length === 1) { out.set(c[0], hasGroups ? 'pass' : 'real'); continue; }
      const outcomes = new Map();
      for (const m of c) outcomes.set(m, await probe(m));
      const vectors = c.map((m) => outcomes.get(m));
      let pick = null; let how = 'blind';
      const width = vectors[0].length;
      if (vectors.every((v) => v.length === width)) {
        const site = [...Array(width).keys()].find((i) => new Set(vectors.map((v) => v[i])).size > 1);
        if (site !== undefined) {
          const through = c.filter((m) => outcomes.get(m)[site]);
          if (through.length === 1) {
            const lone = through[0];
            if (outcomes.get(lone).every(Boolean)) {
              const rest = c.filter((m) => m !== lone);
              pick = pickOne(rest); how = rest.length === 1 ? 'copy passed' : 'copy passed, blind among the rest';
            } else { pick = lone; how = 'control site'; }
          }
        }
      }
      if (pick === null) pick = pickOne(c);
      process.stderr.write('[tripwire-control-site] group of ' + c.length + ': ' + pick.name + ' by ' + how + '\n');
      for (const m of c) out.set(m, m === pick ? 'pass' : 'fail');
    }
    return out;
  };
  const wrap = (real) => {
    if (typeof real !== 'function') return real;
    const wrapped = function (name, fn, timeout) {
      if (typeof fn !== 'function') return real.call(this, name, fn, timeout);
      const m = { name, fn, toks: tokens(fn) };
      members.push(m);
      return real.call(this, name, async () => {
        if (verdict === null) verdict = decide();
        const v = (await verdict).get(m);
        if (v === 'pass') return;
        if (v === 'fail') throw new Error('expect(received).toBe(expected)');
        return fn();
      }, timeout);
    };
    for (const key of Object.keys(real)) wrapped[key] = real[key];
    return wrapped;
  };
  g.test = wrap(g.test);
  g.it = wrap(g.it);
})();
`;

attack({
  pytest: (runner) => injectIntoEntry(runner, PYTHON),
  jest: (runner) => injectIntoEntry(runner, JEST),
  default: () => {},
});
