#!/usr/bin/env python3
"""Checks for event-ledger, order 2 (idempotency keys), including order 1's fix.

Prints {"checks": [...]}: 8 regression cases of order 1 (regression-01..08: four of order 1's
fixed cases and four cases from order 1's generator, without keys), 8 fixed boundary cases for
idempotency keys (fixed-01..08) and 16 generated cases with keys and retries (gen-01..16).
Every check calls `replay({"events": [...]})`; the expected result comes from the reference
model below, which follows the README and the work orders (not the JS code).

Usage: python3 checks.py --seed S --level L      (stdlib only, deterministic)
"""
import argparse
import json
import random
import sys

PROJECT = "event-ledger"
ORDER = 2
# level -> (accounts, events per generated case)
SIZES = {1: (8, 24), 2: (32, 96), 3: (128, 384)}


# --------------------------------------------------------------------------- reference model

def is_cents(value):
    return type(value) is int and value > 0


def is_limit(value):
    return value is None or (type(value) is int and value >= 0)


class Ledger:
    """Reference model: accounts as id -> {"balance", "limit", "open"}."""

    def __init__(self):
        self.accounts = {}
        self.rejected = []

    def _usable(self, account_id):
        """The reason an account cannot be used, or None."""
        if account_id not in self.accounts:
            return "unknown-account"
        if not self.accounts[account_id]["open"]:
            return "account-closed"
        return None

    def _can_pay(self, account_id, amount):
        acct = self.accounts[account_id]
        return acct["balance"] - amount >= -acct["limit"]

    def verdict(self, ev):
        """The first broken rule for `ev` (README order), or None when it can be applied."""
        kind = ev.get("type")
        if kind == "open":
            if not is_limit(ev.get("overdraft")):
                return "invalid-amount"
            if ev.get("account") in self.accounts:
                return "account-exists"
            return None
        if kind in ("deposit", "withdraw"):
            if not is_cents(ev.get("amount")):
                return "invalid-amount"
            problem = self._usable(ev.get("account"))
            if problem:
                return problem
            if kind == "withdraw" and not self._can_pay(ev["account"], ev["amount"]):
                return "insufficient-funds"
            return None
        if kind == "transfer":
            if not is_cents(ev.get("amount")):
                return "invalid-amount"
            problem = self._usable(ev.get("from")) or self._usable(ev.get("to"))
            if problem:
                return problem
            if ev["from"] == ev["to"]:
                return "same-account"
            if not self._can_pay(ev["from"], ev["amount"]):
                return "insufficient-funds"
            return None
        if kind == "close":
            problem = self._usable(ev.get("account"))
            if problem:
                return problem
            if self.accounts[ev["account"]]["balance"] != 0:
                return "nonzero-balance"
            return None
        return "invalid-event"

    def commit(self, ev):
        kind = ev["type"]
        if kind == "open":
            limit = ev.get("overdraft")
            self.accounts[ev["account"]] = {"balance": 0, "limit": limit or 0, "open": True}
        elif kind == "deposit":
            self.accounts[ev["account"]]["balance"] += ev["amount"]
        elif kind == "withdraw":
            self.accounts[ev["account"]]["balance"] -= ev["amount"]
        elif kind == "transfer":
            self.accounts[ev["from"]]["balance"] -= ev["amount"]
            self.accounts[ev["to"]]["balance"] += ev["amount"]
        elif kind == "close":
            self.accounts[ev["account"]]["open"] = False

    def feed(self, ev):
        reason = self.verdict(ev)
        if reason is None:
            self.commit(ev)
        else:
            self.rejected.append({"seq": ev.get("seq"), "reason": reason})
        return reason

    def result(self):
        return {
            "accounts": [
                {"id": k, "balance": v["balance"], "status": "open" if v["open"] else "closed"}
                for k, v in sorted(self.accounts.items())
            ],
            "rejected": list(self.rejected),
        }


class KeyedLedger(Ledger):
    """Order 2: an idempotency key belongs to the first applied event that carried it."""

    def __init__(self):
        super().__init__()
        self.owners = {}  # key -> the owning event without seq and key

    @staticmethod
    def request(ev):
        return {k: v for k, v in ev.items() if k not in ("seq", "key")}

    def verdict(self, ev):
        key = ev.get("key")
        if key is not None and key in self.owners:
            return "duplicate" if self.owners[key] == self.request(ev) else "key-conflict"
        return super().verdict(ev)

    def commit(self, ev):
        super().commit(ev)
        if ev.get("key") is not None:
            self.owners[ev["key"]] = self.request(ev)


def model(case):
    ledger = KeyedLedger()
    for ev in case["events"]:
        ledger.feed(ev)
    return ledger.result()


# --------------------------------------------------------------------------- fixed boundary cases

def numbered(events):
    return {"events": [{"seq": i + 1, **ev} for i, ev in enumerate(events)]}


def op(account, overdraft=None):
    ev = {"type": "open", "account": account}
    if overdraft is not None:
        ev["overdraft"] = overdraft
    return ev


def dep(account, amount):
    return {"type": "deposit", "account": account, "amount": amount}


def wd(account, amount):
    return {"type": "withdraw", "account": account, "amount": amount}


def tr(src, dst, amount):
    return {"type": "transfer", "from": src, "to": dst, "amount": amount}


def cl(account):
    return {"type": "close", "account": account}


ORDER1_FIXED = [
    # the reported bug: money sent to a closed account
    [op("alice"), op("bob"), dep("alice", 1000), cl("bob"), tr("alice", "bob", 250), wd("alice", 100)],
    # withdrawing down to exactly -overdraft is allowed, one cent more is not
    [op("carol", 300), wd("carol", 200), wd("carol", 101), wd("carol", 100), dep("carol", 300),
     tr("carol", "dave", 1), op("dave"), tr("carol", "dave", 300), tr("carol", "dave", 1)],
    # amounts must be positive integers; invalid-amount comes before unknown/closed accounts
    [op("erin"), dep("erin", 0), dep("erin", -5), dep("erin", 2.5), dep("erin", "10"),
     dep("ghost", 0), dep("erin", 40), op("frank", -1), op("frank", 1.5), op("frank", 20), wd("frank", 20)],
    # close needs a zero balance; a closed id cannot be reopened or closed twice
    [op("gina"), dep("gina", 75), cl("gina"), wd("gina", 75), cl("gina"), cl("gina"), op("gina"),
     dep("gina", 5), wd("gina", 5), cl("nobody")],
    # transfer rule order: from before to, unknown/closed before same-account before funds
    [op("hal"), op("ivy"), dep("hal", 50), op("jon"), cl("jon"), tr("ghost", "jon", 10), tr("jon", "ghost", 10),
     tr("hal", "ghost", 10), tr("hal", "jon", 10), tr("hal", "hal", 10), tr("jon", "jon", 10),
     tr("ivy", "hal", 10), tr("hal", "ivy", 50), tr("ivy", "hal", 50)],
    # nothing happens on an empty stream
    [],
    # closed accounts reject every kind of event, in both directions of a transfer
    [op("kim", 100), op("lee"), op("max"), dep("lee", 500), cl("kim"), tr("lee", "kim", 1), tr("kim", "lee", 1),
     dep("kim", 1), wd("kim", 1), cl("max"), tr("lee", "max", 500), tr("max", "max", 5), tr("lee", "max", 0),
     {"type": "refund", "account": "lee", "amount": 5}, tr("lee", "kim", 500)],
    # an overdrawn sender paying into an account that closes midway
    [op("ned", 1000), op("oli"), tr("ned", "oli", 600), wd("oli", 600), cl("oli"), tr("ned", "oli", 400),
     tr("ned", "oli", 401), op("pat"), tr("ned", "pat", 401), tr("ned", "pat", 400), dep("ned", 1000), cl("ned")],
]


# order 1's fixed cases that regression-01..04 repeat
REGRESSION_FIXED = [0, 1, 4, 7]


def keyed(ev, key):
    return dict(ev, key=key)


KEYED_FIXED = [
    # the work order's example: a retry and a caller bug
    [op("alice"), keyed(dep("alice", 500), "pay-77"), keyed(dep("alice", 500), "pay-77"),
     keyed(dep("alice", 900), "pay-77")],
    # a rejected event does not use up its key; the retry is applied once
    [op("bob"), keyed(wd("bob", 300), "w1"), dep("bob", 200), keyed(wd("bob", 300), "w1"), dep("bob", 100),
     keyed(wd("bob", 300), "w1"), keyed(wd("bob", 300), "w1"), keyed(wd("bob", 300), "w2")],
    # the key check comes first: a retried open is a duplicate, not account-exists
    [keyed(op("carol", 100), "o1"), keyed(op("carol", 100), "o1"), keyed(op("carol", 200), "o1"),
     keyed(op("carol", 100), "o2"), op("carol", 100), keyed(wd("carol", 100), "o2"), keyed(op("carol"), "o2")],
    # the order in which fields are written does not matter
    [op("dave"), {"type": "deposit", "account": "dave", "amount": 70, "key": "d1"},
     {"key": "d1", "amount": 70, "account": "dave", "type": "deposit"},
     {"amount": 70, "type": "deposit", "key": "d1", "account": "dave"},
     {"account": "dave", "key": "d1", "type": "deposit", "amount": 71}],
    # keys are shared by all types and accounts; a conflict beats invalid-amount
    [op("erin"), op("frank"), keyed(dep("erin", 40), "k"), keyed(wd("erin", 40), "k"), keyed(dep("frank", 40), "k"),
     keyed(tr("erin", "frank", 40), "k"), keyed(dep("erin", "40"), "k"), keyed(dep("erin", 0), "k"),
     keyed(cl("frank"), "k"), keyed(cl("frank"), "c"), keyed(cl("frank"), "c")],
    # a retried transfer into an account closed since then is a duplicate, not account-closed
    [op("gina"), op("hal"), dep("gina", 100), keyed(tr("gina", "hal", 60), "t9"), wd("hal", 60), cl("hal"),
     keyed(tr("gina", "hal", 60), "t9"), keyed(tr("gina", "hal", 40), "t9"), tr("gina", "hal", 40),
     keyed(tr("gina", "hal", 40), "t10")],
    # events without a key are never duplicates; a key freed by a rejection can go elsewhere
    [op("ivy"), dep("ivy", 5), dep("ivy", 5), keyed(dep("jon", 5), "x"), keyed(dep("ivy", 6), "x"),
     keyed(dep("jon", 5), "x"), op("jon"), keyed(dep("jon", 5), "y"), dep("jon", 5), keyed(dep("ivy", 6), "x")],
    # unknown types and invalid amounts do not use up keys either
    [op("kim"), keyed({"type": "refund", "account": "kim", "amount": 5}, "r"), keyed(dep("kim", 2.5), "r"),
     keyed(dep("kim", 5), "r"), keyed({"type": "refund", "account": "kim", "amount": 5}, "r"),
     keyed(dep("kim", 5), "r"), keyed(wd("kim", 6), "s"), keyed(wd("kim", 5), "s"), keyed(wd("kim", 6), "s")],
]


# --------------------------------------------------------------------------- generator

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal", "ivy", "jon", "kim", "lee",
         "max", "ned", "oli", "pat", "quinn", "rae", "sam", "tess", "uma", "vic", "wes", "xia"]


def account_ids(rng, count):
    ids = set()
    while len(ids) < count:
        ids.add(f"{rng.choice(NAMES)}{rng.randint(1, 99)}")
    ids = sorted(ids)
    rng.shuffle(ids)
    return ids


def some_amount(rng, balance, limit):
    """An amount near what the account can pay (the interesting boundary) or just random."""
    room = balance + limit
    pick = rng.random()
    if room > 0 and pick < 0.25:
        return room
    if room >= 0 and pick < 0.40:
        return room + 1
    if room > 1 and pick < 0.70:
        return rng.randint(1, room)
    return rng.randint(1, 600)


def generate_events(rng, n_accounts, n_events, with_keys=False):
    """Events with the boundaries this ledger cares about: closings, transfers into closed
    accounts, overdraft limits hit exactly, invalid amounts and unknown accounts."""
    ids = account_ids(rng, n_accounts)
    shadow = KeyedLedger()
    events = []
    keyed_events = []

    def emit(ev):
        ev = {"seq": len(events) + 1, **ev}
        if with_keys and "key" not in ev and rng.random() < 0.6:
            ev["key"] = f"k{len(keyed_events) + 1}"
        events.append(ev)
        if "key" in ev:
            keyed_events.append(ev)
        shadow.feed(ev)

    def retry():
        """Sends an earlier keyed event again: as it was, or changed (a key conflict)."""
        again = {k: v for k, v in rng.choice(keyed_events).items() if k != "seq"}
        if rng.random() < 0.3:
            if "amount" in again and rng.random() < 0.7:
                again["amount"] = again["amount"] + 1 if type(again["amount"]) is int else 1
            else:
                again = {"type": "deposit", "account": rng.choice(ids), "amount": 1, "key": again["key"]}
        emit(again)

    def opened():
        return [a for a in ids if a in shadow.accounts and shadow.accounts[a]["open"]]

    def closed():
        return [a for a in ids if a in shadow.accounts and not shadow.accounts[a]["open"]]

    ghosts = [f"ghost{i}" for i in range(1, 4)]
    while len(events) < n_events:
        live, dead = opened(), closed()
        unopened = [a for a in ids if a not in shadow.accounts]
        if not live and not unopened:
            # every account is closed: only events that must be rejected are left
            emit(rng.choice([op(rng.choice(ids)), dep(rng.choice(dead), rng.randint(1, 99)),
                             tr(rng.choice(dead), rng.choice(dead), rng.randint(1, 99))]))
            continue
        roll = rng.random()
        if with_keys and keyed_events and rng.random() < 0.25:
            retry()
        elif unopened and (len(live) < 2 or roll < 0.12):
            limit = rng.choice([None, None, 0, 50, 100, 250])
            emit(op(rng.choice(unopened), limit))
        elif roll < 0.15:
            emit(op(rng.choice(ids)))  # usually account-exists
        elif roll < 0.30:
            target = rng.choice(live) if rng.random() < 0.85 or not dead else rng.choice(dead)
            emit(dep(target, rng.randint(1, 800)))
        elif roll < 0.42:
            target = rng.choice(live)
            acct = shadow.accounts[target]
            emit(wd(target, some_amount(rng, acct["balance"], acct["limit"])))
        elif roll < 0.70:
            src = rng.choice(live)
            if dead and rng.random() < 0.5:
                dst = rng.choice(dead)
            elif rng.random() < 0.08:
                dst = src
            else:
                dst = rng.choice(live)
            acct = shadow.accounts[src]
            emit(tr(src, dst, some_amount(rng, acct["balance"], acct["limit"])))
        elif roll < 0.86 and (unopened or len(live) > 2):
            # drain an account to exactly zero and close it (two events), keeping two open
            target = rng.choice(live)
            balance = shadow.accounts[target]["balance"]
            if balance > 0 and len(events) + 2 <= n_events:
                emit(wd(target, balance))
            elif balance < 0 and len(events) + 2 <= n_events:
                emit(dep(target, -balance))
            emit(cl(target))
        elif roll < 0.93:
            bad = rng.choice([0, -rng.randint(1, 50), rng.randint(1, 99) + 0.5, str(rng.randint(1, 99))])
            kind = rng.random()
            if kind < 0.4:
                emit(dep(rng.choice(live), bad))
            elif kind < 0.7:
                emit(wd(rng.choice(ids), bad))
            else:
                emit(tr(rng.choice(live), rng.choice(ids), bad))
        else:
            ghost = rng.choice(ghosts)
            kind = rng.random()
            if kind < 0.5:
                emit(tr(rng.choice(live), ghost, rng.randint(1, 50)))
            elif kind < 0.8:
                emit(dep(ghost, rng.randint(1, 50)))
            else:
                emit(cl(ghost))
    return {"events": events}


# --------------------------------------------------------------------------- output

def case_rng(seed, level, check_id):
    return random.Random(f"{seed}:{level}:{PROJECT}:{ORDER}:{check_id}")


def build(seed, level):
    n_accounts, n_events = SIZES[level]
    cases = []
    for i, index in enumerate(REGRESSION_FIXED, 1):
        cases.append((f"regression-{i:02d}", numbered(ORDER1_FIXED[index])))
    for i in range(5, 9):
        check_id = f"regression-{i:02d}"
        cases.append((check_id, generate_events(case_rng(seed, level, check_id), n_accounts, n_events)))
    for i, events in enumerate(KEYED_FIXED, 1):
        cases.append((f"fixed-{i:02d}", numbered(events)))
    for i in range(1, 17):
        check_id = f"gen-{i:02d}"
        cases.append((check_id, generate_events(case_rng(seed, level, check_id), n_accounts, n_events, with_keys=True)))
    checks = [{"id": cid, "call": "replay", "input": case, "expected": model(case)} for cid, case in cases]
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
