#!/usr/bin/env python3
"""Checks for build-cache, order 1 (a change deep in the dependency graph must reach every dependent).

Prints {"checks": [...]}: 8 fixed boundary cases (fixed-01..08) and 24 generated cases
(gen-01..24). Every check calls `simulate({"budget": B, "requests": [...]})`; the expected
result comes from the reference model below, which follows the README of the repository (not
the JS code): keys are real content hashes here (sha256 over the target, its input hash and
its dependencies' keys).

Usage: python3 checks.py --seed S --level L      (stdlib only, deterministic)
"""
import argparse
import hashlib
import json
import random
import sys

PROJECT = "build-cache"
ORDER = 1
# level -> (targets, operations); a build-cache case makes max(8, operations // 4) requests
SIZES = {1: (8, 24), 2: (32, 96), 3: (128, 384)}
MAX_PATHS = 64  # bound on the dependency paths below any target (keeps naive recursion cheap)
BUDGET_CEILING = 60  # generated budgets never exceed this


# --------------------------------------------------------------------------- reference model

class BuildCache:
    """Reference model. `entries` is a list of (fingerprint, target, size), least recent first."""

    def __init__(self, budget):
        self.budget = budget
        self.declared = {}  # target -> (input hash, sorted distinct deps)
        self.entries = []

    def fingerprint(self, target, seen):
        if target not in seen:
            input_hash, deps = self.declared[target]
            below = [self.fingerprint(dep, seen) for dep in deps]
            blob = json.dumps([target, input_hash, below]).encode("utf-8")
            seen[target] = hashlib.sha256(blob).hexdigest()
        return seen[target]

    def used(self):
        return sum(size for _, _, size in self.entries)

    def make_room(self, size):
        """Evicts least recently used entries until `size` fits; returns the evicted targets."""
        evicted = []
        while self.used() + size > self.budget:
            _, target, _ = self.entries.pop(0)
            evicted.append(target)
        return evicted

    def request(self, req):
        target = req["target"]
        self.declared[target] = (req["inputHash"], sorted(set(req.get("deps", []))))
        fp = self.fingerprint(target, {})
        for i, entry in enumerate(self.entries):
            if entry[0] == fp:
                self.entries.append(self.entries.pop(i))
                return {"decision": "hit", "cached": True, "evicted": []}
        decision = "rebuild" if any(t == target for _, t, _ in self.entries) else "miss"
        if req["size"] > self.budget:
            return {"decision": decision, "cached": False, "evicted": []}
        evicted = self.make_room(req["size"])
        self.entries.append((fp, target, req["size"]))
        return {"decision": decision, "cached": True, "evicted": evicted}


def model(case):
    cache = BuildCache(case["budget"])
    results = [cache.request(req) for req in case["requests"]]
    return {
        "results": results,
        "cache": [{"target": t, "size": s} for _, t, s in cache.entries],
        "used": cache.used(),
    }


# --------------------------------------------------------------------------- fixed boundary cases

def rq(target, input_hash, size, deps=None):
    req = {"target": target, "inputHash": input_hash}
    if deps is not None:
        req["deps"] = deps
    req["size"] = size
    return req


FIXED = [
    # the reported case: proto changes, api is rebuilt, web must be rebuilt too
    {"budget": 100, "requests": [rq("proto", "p1", 5), rq("api", "a1", 10, ["proto"]), rq("web", "w1", 20, ["api"]),
                                 rq("proto", "p2", 5), rq("api", "a1", 10, ["proto"]), rq("web", "w1", 20, ["api"])]},
    # web asked for directly after the change; api afterwards; both keep their new artifacts
    {"budget": 100, "requests": [rq("proto", "p1", 5), rq("api", "a1", 10, ["proto"]), rq("web", "w1", 20, ["api"]),
                                 rq("proto", "p2", 5), rq("web", "w1", 20, ["api"]), rq("api", "a1", 10, ["proto"]),
                                 rq("web", "w1", 20, ["api"]), rq("api", "a1", 10, ["proto"])]},
    # going back to earlier inputs reuses the artifacts built from them, at every level
    {"budget": 200, "requests": [rq("base", "b1", 3), rq("mid", "m1", 4, ["base"]), rq("top", "t1", 5, ["mid"]),
                                 rq("base", "b2", 3), rq("top", "t1", 5, ["mid"]), rq("base", "b1", 3),
                                 rq("top", "t1", 5, ["mid"]), rq("mid", "m1", 4, ["base"]), rq("base", "b2", 3),
                                 rq("mid", "m1", 4, ["base"]), rq("top", "t1", 5, ["mid"])]},
    # the order and repeats of deps do not matter; another set of deps is another key
    {"budget": 100, "requests": [rq("a", "x", 2), rq("b", "y", 2), rq("c", "z", 2),
                                 rq("app", "q", 9, ["b", "a"]), rq("app", "q", 9, ["a", "b", "a"]),
                                 rq("app", "q", 9, ["a", "b", "c"]), rq("app", "q", 9, ["b", "a"]),
                                 rq("app", "q", 9, []), rq("app", "q", 9)]},
    # a diamond: both paths reach the changed base; the same input hash under another name is another key
    {"budget": 100, "requests": [rq("base", "h", 4), rq("left", "l", 4, ["base"]), rq("right", "r", 4, ["base"]),
                                 rq("app", "a", 8, ["left", "right"]), rq("base", "h2", 4), rq("app", "a", 8, ["left", "right"]),
                                 rq("left", "l", 4, ["base"]), rq("right", "r", 4, ["base"]), rq("app", "a", 8, ["right", "left"]),
                                 rq("app2", "a", 8, ["left", "right"])]},
    # least recently used entries go first; hits refresh; a target with no artifact left is a miss again
    {"budget": 20, "requests": [rq("a", "1", 6), rq("b", "1", 6), rq("c", "1", 6), rq("a", "1", 6), rq("d", "1", 7),
                                rq("b", "1", 6), rq("a", "2", 6), rq("e", "1", 12), rq("a", "1", 6), rq("c", "1", 6)]},
    # an artifact larger than the budget is not stored and evicts nothing; exactly the budget fits
    {"budget": 10, "requests": [rq("a", "1", 4), rq("b", "1", 11), rq("a", "1", 4), rq("b", "1", 10), rq("b", "2", 11),
                                rq("b", "1", 10), rq("c", "1", 1, ["b"]), rq("c", "1", 1, ["b"])]},
    # a deep chain: only the bottom changes, only the top is asked for, with evictions in between
    {"budget": 30, "requests": [rq("l0", "v1", 2), rq("l1", "v", 2, ["l0"]), rq("l2", "v", 2, ["l1"]), rq("l3", "v", 2, ["l2"]),
                                rq("l4", "v", 2, ["l3"]), rq("l5", "v", 10, ["l4"]), rq("l0", "v2", 2), rq("l5", "v", 10, ["l4"]),
                                rq("l0", "v1", 2), rq("l5", "v", 10, ["l4"]), rq("l3", "v", 2, ["l2"]), rq("l0", "v2", 2),
                                rq("l4", "v", 2, ["l3"]), rq("l5", "v", 10, ["l4"])]},
]


def fixed_cases():
    return [json.loads(json.dumps(case)) for case in FIXED]


# --------------------------------------------------------------------------- generator

WORDS = ["core", "util", "proto", "net", "db", "auth", "log", "api", "web", "cli", "ui", "sdk", "cfg", "io", "rpc", "svc"]


def target_names(rng, count):
    names = set()
    while len(names) < count:
        names.add(f"{rng.choice(WORDS)}{rng.randint(1, 9 * count)}")
    names = sorted(names)
    rng.shuffle(names)
    return names


def new_hash(rng):
    return f"{rng.getrandbits(32):08x}"


class Workspace:
    """What the generator knows about the targets it has declared."""

    def __init__(self):
        self.order = []     # targets in the order they were first declared
        self.decl = {}      # target -> (hash, deps)
        self.history = {}   # target -> hashes used so far
        self.size = {}

    def paths(self, decl=None):
        decl = decl or self.decl
        memo = {}

        def count(t):
            if t not in memo:
                memo[t] = 1 + sum(count(d) for d in decl[t][1])
            return memo[t]
        return max((count(t) for t in decl), default=0)

    def below(self, target):
        """Every target the given one depends on, with the shortest distance to it."""
        dist, frontier = {}, [target]
        depth = 0
        while frontier:
            depth += 1
            nxt = []
            for t in frontier:
                for d in self.decl[t][1]:
                    if d not in dist:
                        dist[d] = depth
                        nxt.append(d)
            frontier = nxt
        return dist


def spell_deps(rng, deps):
    """The same set of deps, written in some order, sometimes with a repeat."""
    out = list(deps)
    rng.shuffle(out)
    if out and rng.random() < 0.15:
        out.insert(rng.randrange(len(out) + 1), rng.choice(out))
    return out


def generate_case(rng, n_targets, n_requests):
    names = target_names(rng, n_targets)
    ws = Workspace()
    requests = []
    changed = []  # recently changed targets, newest last

    def send(target, input_hash, deps, size=None):
        ws.decl[target] = (input_hash, sorted(set(deps)))
        ws.history.setdefault(target, [])
        if input_hash not in ws.history[target]:
            ws.history[target].append(input_hash)
        if target not in ws.order:
            ws.order.append(target)
        requests.append({"target": target, "inputHash": input_hash, "deps": spell_deps(rng, deps),
                         "size": size if size is not None else ws.size[target]})

    def declare_new():
        target = names[len(ws.order)]
        ws.size[target] = rng.randint(1, 12)
        pool = ws.order[-6:] if rng.random() < 0.8 else list(ws.order)
        want = rng.choice([0, 1, 1, 2, 2, 3]) if ws.order else 0
        picked = rng.sample(pool, min(want, len(pool)))
        if ws.order and ws.order[-1] not in picked and rng.random() < 0.6:
            picked.insert(0, ws.order[-1])  # mostly chains: build on what was declared last
        deps = []
        for dep in picked:
            trial = dict(ws.decl)
            trial[target] = ("", deps + [dep])
            if ws.paths(trial) <= MAX_PATHS:
                deps.append(dep)
        send(target, new_hash(rng), deps)

    def dependents_of(changed_target):
        return [t for t in ws.order if changed_target in ws.below(t)]

    while len(requests) < n_requests:
        roll = rng.random()
        undeclared = len(ws.order) < n_targets
        if len(ws.order) < 3 or (undeclared and roll < 0.30):
            declare_new()
            continue
        roll = rng.random()
        if roll < 0.25:
            # change a target that others depend on (prefer the bottom of the graph)
            far_below = set()
            for u in ws.order:
                far_below.update(t for t, distance in ws.below(u).items() if distance >= 2)
            deep = [t for t in ws.order if t in far_below]
            depended_on = {d for _, deps in ws.decl.values() for d in deps}
            with_dependents = [t for t in ws.order if t in depended_on]
            target = rng.choice(deep if deep and rng.random() < 0.7 else (with_dependents or ws.order))
            send(target, new_hash(rng), ws.decl[target][1])
            changed.append(target)
        elif roll < 0.65 and changed:
            # ask for something above a recent change, preferably two or more levels up
            base = changed[-1] if rng.random() < 0.7 else rng.choice(changed)
            ups = dependents_of(base)
            far = [t for t in ups if ws.below(t)[base] >= 2]
            pick = far if far and rng.random() < 0.75 else ups
            if not pick:
                continue
            target = rng.choice(pick)
            send(target, ws.decl[target][0], ws.decl[target][1])
        elif roll < 0.73:
            # go back to an earlier input hash
            with_history = [t for t in ws.order if len(ws.history[t]) > 1]
            if not with_history:
                continue
            target = rng.choice(with_history)
            send(target, rng.choice(ws.history[target][:-1]), ws.decl[target][1])
            changed.append(target)
        elif roll < 0.78:
            # add or drop a dependency (only on targets declared earlier: no cycles)
            target = rng.choice(ws.order[1:])
            earlier = ws.order[: ws.order.index(target)]
            deps = list(ws.decl[target][1])
            if deps and rng.random() < 0.5:
                deps.remove(rng.choice(deps))
            else:
                extra = [t for t in earlier if t not in deps]
                if not extra:
                    continue
                deps.append(rng.choice(extra))
            trial = dict(ws.decl)
            trial[target] = (ws.decl[target][0], sorted(deps))
            if ws.paths(trial) > MAX_PATHS:
                continue
            send(target, ws.decl[target][0], deps)
            changed.append(target)
        elif roll < 0.82:
            # an artifact that does not fit at all
            target = rng.choice(ws.order)
            send(target, new_hash(rng), ws.decl[target][1], size=BUDGET_CEILING + rng.randint(1, 20))
        else:
            # ask again for something asked for recently (usually a hit)
            recent = [r["target"] for r in requests[-8:]]
            target = rng.choice(recent)
            send(target, ws.decl[target][0], ws.decl[target][1])
    return requests



def generate_requests(rng, n_targets, n_ops):
    n_requests = max(8, n_ops // 4)
    requests = generate_case(rng, n_targets, n_requests)
    return {"budget": rng.randint(24, BUDGET_CEILING), "requests": requests}


# --------------------------------------------------------------------------- output

def case_rng(seed, level, check_id):
    return random.Random(f"{seed}:{level}:{PROJECT}:{ORDER}:{check_id}")


def build(seed, level):
    n_targets, n_ops = SIZES[level]
    checks = []
    for i, case in enumerate(fixed_cases(), 1):
        checks.append({"id": f"fixed-{i:02d}", "call": "simulate", "input": case, "expected": model(case)})
    for i in range(1, 25):
        check_id = f"gen-{i:02d}"
        case = generate_requests(case_rng(seed, level, check_id), n_targets, n_ops)
        checks.append({"id": check_id, "call": "simulate", "input": case, "expected": model(case)})
    assert len(checks) == 32
    return {"checks": checks}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--level", type=int, required=True, choices=sorted(SIZES))
    args = parser.parse_args(argv)
    sys.stdout.write(json.dumps(build(args.seed, args.level), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
