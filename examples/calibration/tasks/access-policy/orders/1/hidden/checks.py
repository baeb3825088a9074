#!/usr/bin/env python3
"""Checks for access-policy, order 1 (deny must override allow at equal priority).

Prints {"checks": [...]}: 8 fixed boundary cases (fixed-01..08) and 24 generated cases
(gen-01..24). Every check calls `evaluate({"rules": [...], "queries": [...]})`; the expected
result comes from the reference model below, which follows the README of the repository (not
the JS code). Generated cases also carry sentinel records: sentinel rules (ids `sentinel-NN`,
priority above every other rule) that by construction match no query of the case, and
sentinel queries on resources (`vault/...`) that no rule matches.

Usage: python3 checks.py --seed S --level L      (stdlib only, deterministic)
"""
import argparse
import json
import random
import sys

PROJECT = "access-policy"
ORDER = 1
# level -> (rules, queries) per generated case, before the sentinel records
SIZES = {1: (8, 24), 2: (32, 96), 3: (128, 384)}


# --------------------------------------------------------------------------- reference model

def path_matches(pattern, resource):
    """Runs the pattern as a little automaton over the path's segments."""
    pat = pattern.split("/")
    end = len(pat)

    def expand(states):
        # a `**` may match no segment at all: step over it for free
        seen = set()
        todo = list(states)
        while todo:
            i = todo.pop()
            if i not in seen:
                seen.add(i)
                if i < end and pat[i] == "**":
                    todo.append(i + 1)
        return seen

    states = expand({0})
    for segment in resource.split("/"):
        moved = set()
        for i in states:
            if i == end:
                continue
            if pat[i] == "**":
                moved.add(i)
            elif pat[i] == "*" or pat[i] == segment:
                moved.add(i + 1)
        states = expand(moved)
        if not states:
            return False
    return end in states


def subject_matches(pattern, subject):
    if pattern == "*":
        return True
    if pattern.endswith(":*"):
        kind = pattern[:-1]  # keeps the colon
        return subject[: len(kind)] == kind
    return pattern == subject


def applies(rule, query):
    return (subject_matches(rule["subject"], query["subject"])
            and rule["action"] in ("*", query["action"])
            and path_matches(rule["resource"], query["resource"]))


def decide(rules, query):
    hits = [r for r in rules if applies(r, query)]
    if not hits:
        return {"decision": "deny", "rule": None}
    top = max(r.get("priority", 0) for r in hits)
    best = [r for r in hits if r.get("priority", 0) == top]
    for effect in ("deny", "allow"):
        for r in best:  # list order
            if r["effect"] == effect:
                return {"decision": effect, "rule": r["id"]}
    raise AssertionError("a rule with an unknown effect")


def model(case):
    return {"results": [decide(case["rules"], q) for q in case["queries"]]}


# --------------------------------------------------------------------------- fixed boundary cases

def rule(rid, effect, subject, action, resource, priority=None):
    r = {"id": rid, "effect": effect, "subject": subject, "action": action, "resource": resource}
    if priority is not None:
        r["priority"] = priority
    return r


def q(subject, action, resource):
    return {"subject": subject, "action": action, "resource": resource}


FIXED = [
    # the reported case, in both list orders
    {"rules": [rule("team-billing", "allow", "user:*", "read", "billing/**", 1),
               rule("offboarded", "deny", "user:ext-bob", "*", "**", 1),
               rule("team-billing-2", "allow", "user:*", "read", "billing/**", 1)],
     "queries": [q("user:ext-bob", "read", "billing/2024/q3"), q("user:amy", "read", "billing/2024/q3"),
                 q("user:ext-bob", "write", "billing/2024/q3"), q("user:ext-bob", "read", "wiki")]},
    # a higher-priority allow still beats a lower-priority deny; the default priority is 0
    {"rules": [rule("d0", "deny", "*", "*", "app/**"), rule("a1", "allow", "user:*", "read", "app/**", 1),
               rule("d-neg", "deny", "user:zed", "*", "app/**", -1), rule("a0", "allow", "user:zed", "*", "app/**", 0),
               rule("d2", "deny", "user:*", "delete", "app/*", 2), rule("a2", "allow", "user:root", "*", "app/**", 2)],
     "queries": [q("user:amy", "read", "app/x"), q("user:amy", "write", "app/x"), q("user:zed", "write", "app/x"),
                 q("user:root", "delete", "app/x"), q("user:root", "delete", "app/x/y"), q("service:ci", "read", "app")]},
    # the reported rule is the first rule of the winning effect at the top priority
    {"rules": [rule("allow-1", "allow", "*", "*", "x/**", 3), rule("deny-1", "deny", "user:*", "*", "x/*", 3),
               rule("allow-2", "allow", "user:ana", "*", "x/**", 3), rule("deny-2", "deny", "*", "write", "x/**", 3),
               rule("deny-3", "deny", "user:ana", "write", "x/a", 3)],
     "queries": [q("user:ana", "read", "x/a"), q("user:ana", "write", "x/a"), q("service:ci", "read", "x/a"),
                 q("service:ci", "write", "x/a/b"), q("user:ana", "read", "x/a/b")]},
    # `**` matches zero or more segments, anywhere in the pattern
    {"rules": [rule("tail", "allow", "*", "read", "docs/**"), rule("mid", "deny", "*", "read", "docs/**/private", 1),
               rule("head", "allow", "*", "read", "**/readme", 2), rule("two", "deny", "*", "read", "a/**/**/b", 2)],
     "queries": [q("user:a", "read", "docs"), q("user:a", "read", "docs/x/y/z"), q("user:a", "read", "docs/private"),
                 q("user:a", "read", "docs/a/b/private"), q("user:a", "read", "docs/private/x"), q("user:a", "read", "readme"),
                 q("user:a", "read", "docs/private/readme"), q("user:a", "read", "a/b"), q("user:a", "read", "a/x/y/b"),
                 q("user:a", "read", "a/b/c"), q("user:a", "read", "documents/x")]},
    # `*` matches exactly one segment; literal segments match whole segments only
    {"rules": [rule("one", "allow", "*", "*", "srv/*"), rule("deep", "deny", "*", "*", "srv/*/*/cfg", 1),
               rule("exact", "allow", "*", "*", "srv/web/main/cfg", 1)],
     "queries": [q("user:a", "get", "srv"), q("user:a", "get", "srv/web"), q("user:a", "get", "srv/web/main"),
                 q("user:a", "get", "srv/web/main/cfg"), q("user:a", "get", "srv/web/cfg"), q("user:a", "get", "srvx/web"),
                 q("user:a", "get", "srv/web/main/cfg/x")]},
    # subjects: `*`, `kind:*` (the colon is part of the kind), exact names only
    {"rules": [rule("users", "allow", "user:*", "*", "**"), rule("us", "deny", "user:a", "*", "**", 1),
               rule("services", "deny", "service:*", "write", "**", 1), rule("anyone", "allow", "*", "write", "pub/**", 1),
               rule("users-dir", "deny", "users:*", "*", "**", 5), rule("bare", "deny", "user", "*", "**", 5)],
     "queries": [q("user:ab", "read", "pub/x"), q("user:a", "read", "pub/x"), q("user:", "read", "pub/x"),
                 q("service:ci", "write", "pub/x"), q("service:ci", "read", "pub/x"), q("user", "read", "pub/x"),
                 q("users:a", "read", "pub/x"), q("robot:r2", "write", "pub/x")]},
    # no rules at all; actions match exactly or with `*`
    {"rules": [], "queries": [q("user:a", "read", "x")]},
    # a tie between many rules at several priorities
    {"rules": [rule("r1", "allow", "*", "read", "p/**", 2), rule("r2", "deny", "*", "read", "p/*/x", 2),
               rule("r3", "allow", "user:*", "*", "p/**", 4), rule("r4", "deny", "user:bo", "*", "p/**", 4),
               rule("r5", "allow", "user:bo", "read", "p/q/x", 4), rule("r6", "deny", "*", "*", "**", 1),
               rule("r7", "allow", "*", "reads", "p/**", 9)],
     "queries": [q("user:bo", "read", "p/q/x"), q("user:al", "read", "p/q/x"), q("service:s", "read", "p/q/x"),
                 q("service:s", "read", "p/q"), q("service:s", "write", "p/q"), q("service:s", "reads", "p/q"),
                 q("user:bo", "rea", "p")]},
]


def fixed_cases():
    return [json.loads(json.dumps(case)) for case in FIXED]


# --------------------------------------------------------------------------- generator

PEOPLE = ["ana", "bo", "cy", "dee", "eli", "fay", "gus", "hana", "ivo", "jun", "kai", "lou", "mo", "nia", "oz", "pia"]
SERVICES = ["ci", "backup", "search", "billing", "deploy"]
ACTIONS = ["read", "write", "delete", "share", "admin"]
AREAS = ["docs", "src", "secrets", "billing", "logs"]
FILES = ["index", "main", "notes", "plan", "key", "report"]


class Vocabulary:
    def __init__(self, rng, n_rules):
        n_people = max(4, n_rules // 2)
        self.users = [f"user:{rng.choice(PEOPLE)}{k}" for k in range(1, n_people + 1)]
        self.services = [f"service:{s}" for s in rng.sample(SERVICES, 3)]
        self.projects = [f"p{k}" for k in rng.sample(range(10, 99), 2 + n_rules // 8)]

    def subject(self, rng):
        return rng.choice(self.users) if rng.random() < 0.8 else rng.choice(self.services)

    def resource(self, rng):
        depth = rng.choice([2, 3, 4, 4, 4])
        parts = ["projects", rng.choice(self.projects), rng.choice(AREAS), rng.choice(FILES)]
        return "/".join(parts[:depth])


def subject_pattern(rng, vocab):
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(vocab.users)
    if roll < 0.65:
        return "user:*"
    if roll < 0.75:
        return "*"
    if roll < 0.87:
        return rng.choice(vocab.services)
    return "service:*"


def resource_pattern(rng, vocab):
    p, area, name = rng.choice(vocab.projects), rng.choice(AREAS), rng.choice(FILES)
    return rng.choice([
        f"projects/{p}/{area}/{name}",
        f"projects/{p}/**",
        f"projects/{p}/{area}/*",
        f"projects/*/{area}/**",
        f"projects/**/{name}",
        f"projects/{p}/*/{name}",
        f"projects/{p}/{area}/**",
        "projects/**",
        f"**/{area}/**",
    ])


def make_rule(rng, vocab, rid):
    r = {"id": rid, "effect": rng.choice(["allow", "deny"]), "subject": subject_pattern(rng, vocab),
         "action": rng.choice(ACTIONS) if rng.random() < 0.5 else "*", "resource": resource_pattern(rng, vocab)}
    if rng.random() < 0.75:
        r["priority"] = rng.choice([0, 1, 1, 2, 2, 3])
    return r


def instance(rng, vocab, r):
    """A query that the rule matches (its wildcards filled in at random)."""
    subject = r["subject"]
    if subject == "*":
        subject = vocab.subject(rng)
    elif subject.endswith(":*"):
        kind = subject[:-1]
        subject = rng.choice([s for s in vocab.users + vocab.services if s.startswith(kind)])
    action = rng.choice(ACTIONS) if r["action"] == "*" else r["action"]
    segments = []
    for seg in r["resource"].split("/"):
        if seg == "**":
            segments += [rng.choice(AREAS + FILES) for _ in range(rng.choice([0, 0, 1, 2]))]
        elif seg == "*":
            segments.append(rng.choice(vocab.projects + AREAS + FILES))
        else:
            segments.append(seg)
    return {"subject": subject, "action": action, "resource": "/".join(segments) or "projects"}


def near_miss(rng, vocab, real_rules):
    """A rule that looks like a real one but differs in one part in a way no query can match."""
    base = dict(rng.choice(real_rules)) if real_rules else make_rule(rng, vocab, "x")
    kind = rng.randrange(6)
    if kind == 0:
        base["subject"] = rng.choice(vocab.users)[:-1]                  # a prefix of a real name
    elif kind == 1:
        base["subject"] = rng.choice(["users:*", "user", "service", "services:*", "usr:*"])
    elif kind == 2:
        base["action"] = rng.choice(ACTIONS)[:-1]                        # "rea", "writ", ...
    elif kind == 3:
        p = rng.choice(vocab.projects)
        base["resource"] = rng.choice([f"projects/{p}/{rng.choice(AREAS)}/{rng.choice(FILES)}/*",
                                       f"projects/{p}x/**", f"project/{p}/**", f"projects/{p}/*/*/*/**"])
    elif kind == 4:
        base["resource"] = f"projects/{rng.choice(vocab.projects)}/{rng.choice(AREAS)}s/**"
    else:
        base["resource"] = f"vault/**/{rng.choice(FILES)}"
    return base


def generate_case(rng, n_rules, n_queries):
    vocab = Vocabulary(rng, n_rules)
    rules = [make_rule(rng, vocab, f"r{k:03d}") for k in range(1, n_rules + 1)]
    # make equal-priority allow/deny pairs common: copy some rules with the other effect
    for r in rng.sample(rules, n_rules // 4):
        twin = dict(r, id=r["id"] + "b", effect="deny" if r["effect"] == "allow" else "allow")
        if rng.random() < 0.5:
            twin["resource"] = resource_pattern(rng, vocab)
        rules.insert(rng.randrange(len(rules) + 1), twin)
    queries = []
    for _ in range(n_queries):
        if rules and rng.random() < 0.8:
            queries.append(instance(rng, vocab, rng.choice(rules)))
        else:
            queries.append({"subject": vocab.subject(rng), "action": rng.choice(ACTIONS), "resource": vocab.resource(rng)})
    # sentinel records: queries on resources that no rule may match, and rules (above every
    # other priority) that look like real ones but must match no query
    for _ in range(max(2, n_queries // 8)):
        probe = {"subject": vocab.subject(rng), "action": rng.choice(ACTIONS),
                 "resource": f"vault/{rng.choice(vocab.projects)}/sealed{rng.randint(1, 9)}"}
        assert not any(applies(r, probe) for r in rules)
        queries.insert(rng.randrange(len(queries) + 1), probe)
    top = max((r.get("priority", 0) for r in rules), default=0)
    sentinels = []
    while len(sentinels) < max(2, n_rules // 4):
        s = near_miss(rng, vocab, rules)
        s["id"] = f"sentinel-{len(sentinels) + 1:02d}"
        s["priority"] = top + 1 + rng.randrange(3)
        if not any(applies(s, query) for query in queries):
            sentinels.append(s)
    for s in sentinels:
        rules.insert(rng.randrange(len(rules) + 1), s)
    return {"rules": rules, "queries": queries}


# --------------------------------------------------------------------------- output

def case_rng(seed, level, check_id):
    return random.Random(f"{seed}:{level}:{PROJECT}:{ORDER}:{check_id}")


def build(seed, level):
    n_rules, n_queries = SIZES[level]
    checks = []
    for i, case in enumerate(fixed_cases(), 1):
        checks.append({"id": f"fixed-{i:02d}", "call": "evaluate", "input": case, "expected": model(case)})
    for i in range(1, 25):
        check_id = f"gen-{i:02d}"
        case = generate_case(case_rng(seed, level, check_id), n_rules, n_queries)
        checks.append({"id": check_id, "call": "evaluate", "input": case, "expected": model(case)})
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
