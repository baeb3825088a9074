#!/usr/bin/env python3
"""Checks for access-policy, order 2 (roles with inheritance), including order 1's fix.

Prints {"checks": [...]}: 8 regression cases of order 1 (regression-01..08: four of order 1's
fixed cases and four cases from order 1's generator, without roles), 8 fixed boundary cases
for roles (fixed-01..08) and 16 generated cases with roles (gen-01..16). Every check calls
`evaluate({"roles": {...}, "rules": [...], "queries": [...]})`; the expected
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
ORDER = 2
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


def role_holders(roles):
    """role name -> every subject that has the role. Grown to a fixed point: whoever holds a
    role also holds each role it inherits (cycles simply stop growing)."""
    holders = {name: set(spec.get("members", [])) for name, spec in roles.items()}
    grew = True
    while grew:
        grew = False
        for name, spec in roles.items():
            for parent in spec.get("inherits", []):
                target = holders.setdefault(parent, set())
                if not holders[name] <= target:
                    target |= holders[name]
                    grew = True
    return holders


def subject_matches(pattern, subject, holders):
    if pattern == "*":
        return True
    if pattern.endswith(":*"):
        kind = pattern[:-1]  # keeps the colon
        return subject[: len(kind)] == kind
    if pattern.startswith("role:"):
        return subject in holders.get(pattern[len("role:"):], ())
    return pattern == subject


def applies(rule, query, holders=None):
    return (subject_matches(rule["subject"], query["subject"], holders or {})
            and rule["action"] in ("*", query["action"])
            and path_matches(rule["resource"], query["resource"]))


def decide(rules, query, holders):
    hits = [r for r in rules if applies(r, query, holders)]
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
    holders = role_holders(case.get("roles", {}))
    return {"results": [decide(case["rules"], q, holders) for q in case["queries"]]}


# --------------------------------------------------------------------------- fixed boundary cases

def rule(rid, effect, subject, action, resource, priority=None):
    r = {"id": rid, "effect": effect, "subject": subject, "action": action, "resource": resource}
    if priority is not None:
        r["priority"] = priority
    return r


def q(subject, action, resource):
    return {"subject": subject, "action": action, "resource": resource}


ORDER1_FIXED = [
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


# order 1's fixed cases that regression-01..04 repeat
REGRESSION_FIXED = [0, 2, 4, 7]

ROLE_FIXED = [
    # the work order's example
    {"roles": {"viewer": {"members": ["user:kai"]}, "editor": {"members": ["user:ana"], "inherits": ["viewer"]},
               "admin": {"members": ["user:root"], "inherits": ["editor"]}},
     "rules": [rule("view", "allow", "role:viewer", "read", "wiki/**"), rule("edit", "allow", "role:editor", "write", "wiki/**"),
               rule("lock", "deny", "role:admin", "write", "wiki/locked/*")],
     "queries": [q("user:kai", "read", "wiki/home"), q("user:kai", "write", "wiki/home"), q("user:root", "read", "wiki/home"),
                 q("user:root", "write", "wiki/locked/page")]},
    # inheritance is transitive and goes one way only
    {"roles": {"l1": {"members": ["user:a"]}, "l2": {"members": ["user:b"], "inherits": ["l1"]},
               "l3": {"members": ["user:c"], "inherits": ["l2"]}, "l4": {"members": ["user:d"], "inherits": ["l3"]}},
     "rules": [rule("bottom", "allow", "role:l1", "read", "**"), rule("top", "allow", "role:l4", "write", "**"),
               rule("mid", "deny", "role:l2", "read", "secret/**")],
     "queries": [q("user:d", "read", "x"), q("user:a", "write", "x"), q("user:d", "write", "x"), q("user:c", "read", "secret/k"),
                 q("user:a", "read", "secret/k"), q("user:e", "read", "x")]},
    # cycles: roles in a cycle share their members; evaluation terminates
    {"roles": {"a": {"members": ["user:x"], "inherits": ["b"]}, "b": {"members": ["user:y"], "inherits": ["a"]},
               "c": {"members": ["user:z"], "inherits": ["a", "c"]}, "d": {"members": ["user:w"], "inherits": ["d"]}},
     "rules": [rule("ra", "allow", "role:a", "read", "**"), rule("rb", "deny", "role:b", "write", "**"),
               rule("rc", "allow", "role:c", "admin", "**"), rule("rd", "allow", "role:d", "share", "**")],
     "queries": [q("user:x", "write", "f"), q("user:y", "read", "f"), q("user:z", "write", "f"), q("user:x", "admin", "f"),
                 q("user:w", "share", "f"), q("user:w", "read", "f"), q("user:z", "admin", "f")]},
    # roles that are not defined have no members of their own, but can be inherited
    {"roles": {"ops": {"members": ["user:op"], "inherits": ["ghost"]}, "dev": {"members": ["user:dev"]}},
     "rules": [rule("nobody", "allow", "role:missing", "*", "**", 5), rule("via", "allow", "role:ghost", "read", "**"),
               rule("devs", "allow", "role:dev", "*", "src/**")],
     "queries": [q("user:op", "read", "src/a"), q("user:dev", "read", "src/a"), q("user:dev", "read", "ops/a"),
                 q("user:missing", "read", "src/a"), q("user:op", "write", "src/a")]},
    # role rules follow the usual priorities: deny overrides allow at equal priority
    {"roles": {"support": {"members": ["user:sam", "service:helpdesk"]}, "lead": {"members": ["user:lee"], "inherits": ["support"]}},
     "rules": [rule("all-read", "allow", "user:*", "read", "tickets/**", 1), rule("support-no", "deny", "role:support", "read", "tickets/vip/*", 1),
               rule("lead-yes", "allow", "role:lead", "read", "tickets/vip/*", 2), rule("support-write", "allow", "role:support", "write", "tickets/**"),
               rule("svc", "deny", "service:*", "write", "tickets/**")],
     "queries": [q("user:amy", "read", "tickets/vip/1"), q("user:sam", "read", "tickets/vip/1"), q("user:lee", "read", "tickets/vip/1"),
                 q("service:helpdesk", "write", "tickets/7"), q("user:sam", "write", "tickets/7"), q("service:helpdesk", "read", "tickets/vip/1")]},
    # optional fields, an empty role, several roles for one subject, membership is exact
    {"roles": {"empty": {}, "readers": {"members": ["user:ana", "user:bo"]}, "writers": {"members": ["user:ana"]},
               "only-inherits": {"inherits": ["readers"]}},
     "rules": [rule("r", "allow", "role:readers", "read", "**"), rule("w", "allow", "role:writers", "write", "**"),
               rule("e", "deny", "role:empty", "*", "**", 9), rule("o", "deny", "role:only-inherits", "*", "**", 9)],
     "queries": [q("user:ana", "read", "a"), q("user:ana", "write", "a"), q("user:bo", "write", "a"), q("user:anab", "read", "a"),
                 q("user:an", "read", "a")]},
    # without roles (or with none defined) role rules match nobody; other rules are unchanged
    {"roles": {},
     "rules": [rule("role-rule", "deny", "role:admin", "*", "**", 3), rule("users", "allow", "user:*", "*", "**"),
               rule("exact", "deny", "user:admin", "*", "**", 1)],
     "queries": [q("user:admin", "read", "x"), q("user:kim", "read", "x"), q("service:admin", "read", "x")]},
    # a diamond of roles and the id reported when several role rules tie
    {"roles": {"base": {"members": ["user:b"]}, "left": {"members": ["user:l"], "inherits": ["base"]},
               "right": {"members": ["user:r"], "inherits": ["base"]}, "top": {"members": ["user:t"], "inherits": ["left", "right"]}},
     "rules": [rule("base-allow", "allow", "role:base", "*", "d/**", 1), rule("right-allow", "allow", "role:right", "*", "d/**", 1),
               rule("left-deny", "deny", "role:left", "write", "d/**", 1), rule("top-deny", "deny", "role:top", "*", "d/**", 1),
               rule("any-allow", "allow", "*", "*", "d/**", 0)],
     "queries": [q("user:t", "read", "d/1"), q("user:t", "write", "d/1"), q("user:l", "read", "d/1"), q("user:r", "write", "d/1"),
                 q("user:b", "write", "d/x/y"), q("user:b", "read", "e")]},
]


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
        self.roles = {}

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


def instance(rng, vocab, r, holders=None):
    """A query that the rule matches (its wildcards filled in at random)."""
    subject = r["subject"]
    if subject.startswith("role:"):
        having = sorted((holders or {}).get(subject[len("role:"):], ()))
        subject = rng.choice(having) if having else vocab.subject(rng)
    elif subject == "*":
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
    kind = rng.randrange(7 if vocab.roles else 6)
    if kind == 6:
        base["subject"] = "role:" + rng.choice(sorted(vocab.roles)) + rng.choice(["s", "-old", "x"])
    elif kind == 0:
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


ROLE_WORDS = ["viewer", "editor", "admin", "auditor", "owner", "support", "oncall", "billing", "intern", "lead"]


def make_roles(rng, vocab, n_rules):
    """Roles with members and inheritance: chains, sometimes a cycle, sometimes an undefined parent."""
    count = max(3, n_rules // 4)
    names = [f"{ROLE_WORDS[k % len(ROLE_WORDS)]}{k // len(ROLE_WORDS) or ''}" for k in rng.sample(range(3 * count), count)]
    roles = {}
    for i, name in enumerate(names):
        spec = {}
        if rng.random() < 0.85:
            spec["members"] = rng.sample(vocab.users + vocab.services, rng.choice([0, 1, 1, 2, 3]))
        parents = []
        if i > 0 and rng.random() < 0.7:
            parents += rng.sample(names[:i], min(i, rng.choice([1, 1, 2])))   # mostly a hierarchy
        if rng.random() < 0.12:
            parents.append(rng.choice(names))                                # sometimes a cycle
        if rng.random() < 0.08:
            parents.append(f"retired-{rng.randint(1, 9)}")                   # an undefined role
        if parents or rng.random() < 0.2:
            spec["inherits"] = parents
        roles[name] = spec
    return roles


def generate_case(rng, n_rules, n_queries, with_roles=False):
    vocab = Vocabulary(rng, n_rules)
    rules = [make_rule(rng, vocab, f"r{k:03d}") for k in range(1, n_rules + 1)]
    # make equal-priority allow/deny pairs common: copy some rules with the other effect
    for r in rng.sample(rules, n_rules // 4):
        twin = dict(r, id=r["id"] + "b", effect="deny" if r["effect"] == "allow" else "allow")
        if rng.random() < 0.5:
            twin["resource"] = resource_pattern(rng, vocab)
        rules.insert(rng.randrange(len(rules) + 1), twin)
    holders = {}
    if with_roles:
        vocab.roles = make_roles(rng, vocab, n_rules)
        holders = role_holders(vocab.roles)
        names = sorted(vocab.roles)
        for r in rules:
            if rng.random() < 0.4:
                r["subject"] = "role:" + (rng.choice(names) if rng.random() < 0.92 else f"retired-{rng.randint(1, 9)}")
    queries = []
    for _ in range(n_queries):
        if rules and rng.random() < 0.8:
            queries.append(instance(rng, vocab, rng.choice(rules), holders))
        else:
            queries.append({"subject": vocab.subject(rng), "action": rng.choice(ACTIONS), "resource": vocab.resource(rng)})
    # sentinel records: queries on resources that no rule may match, and rules (above every
    # other priority) that look like real ones but must match no query
    for _ in range(max(2, n_queries // 8)):
        probe = {"subject": vocab.subject(rng), "action": rng.choice(ACTIONS),
                 "resource": f"vault/{rng.choice(vocab.projects)}/sealed{rng.randint(1, 9)}"}
        assert not any(applies(r, probe, holders) for r in rules)
        queries.insert(rng.randrange(len(queries) + 1), probe)
    top = max((r.get("priority", 0) for r in rules), default=0)
    sentinels = []
    while len(sentinels) < max(2, n_rules // 4):
        s = near_miss(rng, vocab, rules)
        s["id"] = f"sentinel-{len(sentinels) + 1:02d}"
        s["priority"] = top + 1 + rng.randrange(3)
        if not any(applies(s, query, holders) for query in queries):
            sentinels.append(s)
    for s in sentinels:
        rules.insert(rng.randrange(len(rules) + 1), s)
    if with_roles:
        return {"roles": vocab.roles, "rules": rules, "queries": queries}
    return {"rules": rules, "queries": queries}


# --------------------------------------------------------------------------- output

def case_rng(seed, level, check_id):
    return random.Random(f"{seed}:{level}:{PROJECT}:{ORDER}:{check_id}")


def build(seed, level):
    n_rules, n_queries = SIZES[level]
    cases = []
    for i, index in enumerate(REGRESSION_FIXED, 1):
        cases.append((f"regression-{i:02d}", json.loads(json.dumps(ORDER1_FIXED[index]))))
    for i in range(5, 9):
        check_id = f"regression-{i:02d}"
        cases.append((check_id, generate_case(case_rng(seed, level, check_id), n_rules, n_queries)))
    for i, case in enumerate(ROLE_FIXED, 1):
        cases.append((f"fixed-{i:02d}", json.loads(json.dumps(case))))
    for i in range(1, 17):
        check_id = f"gen-{i:02d}"
        cases.append((check_id, generate_case(case_rng(seed, level, check_id), n_rules, n_queries, with_roles=True)))
    checks = [{"id": cid, "call": "evaluate", "input": case, "expected": model(case)} for cid, case in cases]
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
