"""Differential check of the launcher's transaction undo log against moto's own deep-copy rollback.

Runs the same seeded random TransactWriteItems (Put, Update, Delete, ConditionCheck; with and without conditions and
ALL_OLD; hash-only and hash+range tables, with and without streams; duplicate keys, missing tables, update paths
that fail validation half-way) against two in-process moto DynamoDB backends: one with moto's transact_write_items,
one with the launcher's. After every transaction both must have answered the same (the same error, message and
cancellation reasons with their items) and hold the same state: the items, moto's internal hash-key entries (an
empty entry left behind counts), the item count and every stream record but its random id, its time and its size (which counts the time). And the undo
log must never have replaced a table or its stream shard (moto's copy does; see MotoTransactionsTest).

    python3 tooling/localstack/src/test/python/moto_undo_log_differential.py [--launcher PATH] [--seed N] [--transactions N]

Exits 0 when they agree, 1 at the first difference (printed), 2 when the launcher would not install the undo log on
this moto (a different version or source: re-review before trusting the figures). MotoUndoLogDifferentialTest runs it.
"""
import argparse
import copy
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LAUNCHER = os.path.join(
    HERE, "..", "..", "..", "..", "..", "platform", "redrive-testing", "src", "main", "resources",
    "dev", "redrive", "testing", "localaws", "internal", "moto_serialized.py")

TABLES = {
    # name: (range key?, stream view or None)
    "h": (False, "NEW_AND_OLD_IMAGES"),
    "r": (True, "KEYS_ONLY"),
    "n": (False, None),
}
PKS = ["p%d" % i for i in range(8)]
SKS = ["s%d" % i for i in range(3)]
ROUND = 50


def load_launcher(path):
    spec = importlib.util.spec_from_file_location("moto_serialized", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def new_backend():
    from moto.dynamodb.models import DynamoDBBackend

    backend = DynamoDBBackend("us-east-1", "123456789012")
    for name, (has_range, stream) in TABLES.items():
        schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
        attrs = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}]
        if has_range:
            schema.append({"AttributeName": "sk", "KeyType": "RANGE"})
            attrs.append({"AttributeName": "sk", "AttributeType": "S"})
        backend.create_table(
            name=name,
            schema=schema,
            throughput=None,
            attr=attrs,
            global_indexes=[{
                "IndexName": "byG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }],
            indexes=None,
            streams={"StreamEnabled": True, "StreamViewType": stream} if stream else None,
            billing_mode="PAY_PER_REQUEST",
            sse_specification=None,
            tags=[],
            deletion_protection_enabled=False,
            warm_throughput=None,
        )
    return backend


def key(rng, table):
    k = {"pk": {"S": rng.choice(PKS)}}
    if TABLES.get(table, (False, None))[0]:
        k["sk"] = {"S": rng.choice(SKS)}
    return k


def condition(rng, op):
    choice = rng.randrange(9)
    if choice >= 6:
        return {}
    if choice == 1:
        return {"ConditionExpression": "attribute_exists(pk)"}
    if choice == 2:
        return {"ConditionExpression": "attribute_not_exists(pk)"}
    if choice == 3:
        return {"ConditionExpression": "v < :lim", "ExpressionAttributeValues": {":lim": {"N": str(rng.randrange(10))}}}
    if choice == 4:
        return {"ConditionExpression": "attribute_exists(pk) AND g = :g",
                "ExpressionAttributeValues": {":g": {"S": rng.choice("ab")}}}
    return {"ConditionExpression": "attribute_not_exists(v) OR v >= :lim",
            "ExpressionAttributeValues": {":lim": {"N": str(rng.randrange(10))}}}


def merge_values(op, values):
    merged = dict(op.get("ExpressionAttributeValues", {}))
    merged.update(values)
    if merged:
        op["ExpressionAttributeValues"] = merged


def random_op(rng):
    table = rng.choice(list(TABLES) + (["missing"] if rng.random() < 0.03 else []))
    op = {"TableName": table}
    op.update(condition(rng, op))
    if rng.random() < 0.5 and "ConditionExpression" in op:
        op["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
    kind = rng.choice(["Put", "Update", "Delete", "ConditionCheck"])
    k = key(rng, table)
    if kind == "ConditionCheck" and "ConditionExpression" not in op:
        op["ConditionExpression"] = "attribute_exists(pk)"
    if kind == "Put":
        item = dict(k)
        item["v"] = {"N": str(rng.randrange(10))}
        if rng.random() < 0.7:
            item["g"] = {"S": rng.choice("ab")}
        if rng.random() < 0.3:
            item["m"] = {"M": {"x": {"S": "y"}, "l": {"L": [{"N": "1"}, {"S": "z"}]}}}
        op["Item"] = item
    else:
        op["Key"] = k
    if kind == "Update":
        update = rng.choice([
            ("SET v = :v", {":v": {"N": str(rng.randrange(10))}}),
            ("ADD c :one", {":one": {"N": "1"}}),
            ("SET g = :g", {":g": {"S": rng.choice("ab")}}),
            ("REMOVE g", {}),
            ("SET m.x = :s", {":s": {"S": "w"}}),  # fails validation half-way when the item has no map m
            ("SET l = list_append(if_not_exists(l, :empty), :one_l)", {":empty": {"L": []}, ":one_l": {"L": [{"N": "1"}]}}),
        ])
        op["UpdateExpression"] = update[0]
        merge_values(op, update[1])
    return {kind: op}


def random_transaction(rng):
    return [random_op(rng) for _ in range(rng.randint(1, 5))]


def outcome(call):
    try:
        call()
        return ("ok",)
    except Exception as e:  # every error is part of the answer compared
        return (type(e).__name__, str(e), getattr(e, "description", None))


def state(backend):
    tables = {}
    for name, table in backend.tables.items():
        if table.range_key_attr:
            entries = sorted((repr(h), sorted(repr(r) for r in bucket)) for h, bucket in table.items.items())
        else:
            entries = sorted(repr(h) for h in table.items)
        records = []
        if table.stream_shard is not None:
            for r in table.stream_shard.items:
                d = r.record["dynamodb"]
                records.append((r.record["eventName"], d["SequenceNumber"], str(d["Keys"]), str(d.get("NewImage")),
                                str(d.get("OldImage"))))  # not its random id, its time, nor SizeBytes (counts the time)
        tables[name] = {
            "items": sorted(str(i.to_json()) for i in table.all_items()),
            "entries": entries,
            "count": len(table),
            "stream": records,
        }
    return tables


def plain_write(rng, backend_a, backend_b):
    """A write outside any transaction, the same on both, so that transactions meet varied items."""
    table = rng.choice(list(TABLES))
    k = key(rng, table)
    if rng.random() < 0.7:
        item = dict(k, v={"N": str(rng.randrange(10))}, g={"S": rng.choice("ab")})
        for b in (backend_a, backend_b):
            b.put_item(table, copy.deepcopy(item))
    else:
        for b in (backend_a, backend_b):
            outcome(lambda: b.delete_item(table, copy.deepcopy(k)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--launcher", default=DEFAULT_LAUNCHER)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--transactions", type=int, default=2000)
    args = parser.parse_args()

    launcher = load_launcher(args.launcher)
    import moto
    from moto.dynamodb.models import DynamoDBBackend

    mismatch = launcher._reviewed_source_mismatch()
    if moto.__version__ != launcher.REVIEWED_MOTO_VERSION or mismatch is not None:
        print("the launcher would keep moto's deep copy here (moto %s, first unreviewed source: %s); re-review"
              % (moto.__version__, mismatch))
        return 2
    by_moto = DynamoDBBackend.transact_write_items
    by_undo_log = launcher._make_transact_write_items(by_moto)

    rng = random.Random(args.seed)
    answers = {}
    for n in range(args.transactions):
        if n % ROUND == 0:  # fresh tables now and then: moto's deep copies grow with every stream record
            reference, patched = new_backend(), new_backend()
            tables = {name: (t, t.stream_shard) for name, t in patched.tables.items()}
        if rng.random() < 0.3:
            plain_write(rng, reference, patched)
        request = random_transaction(rng)
        expected = outcome(lambda: by_moto(reference, copy.deepcopy(request)))
        actual = outcome(lambda: by_undo_log(patched, copy.deepcopy(request)))
        answers[expected[0]] = answers.get(expected[0], 0) + 1
        if actual != expected:
            print("transaction %d answered differently:\n  request  %s\n  moto     %s\n  undo log %s"
                  % (n, request, expected, actual))
            return 1
        if state(patched) != state(reference):
            print("transaction %d left a different state:\n  request %s\n  answer  %s\n  moto     %s\n  undo log %s"
                  % (n, request, expected, state(reference), state(patched)))
            return 1
        for name, (table, shard) in tables.items():
            if patched.tables[name] is not table or table.stream_shard is not shard:
                print("transaction %d replaced table %s or its stream shard" % (n, name))
                return 1
    print("undo log and moto's deep copy agree on %d seeded transactions (seed %d): %s"
          % (args.transactions, args.seed, ", ".join("%s %d" % kv for kv in sorted(answers.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
