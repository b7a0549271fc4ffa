"""What one DynamoDB transaction costs on local AWS against the size of its table, with and without the undo log.

Starts the launcher twice as MotoServer does (python3 -u moto_serialized.py): once with its transaction undo log, once
with REDRIVE_MOTO_TRANSACTIONS=moto (moto's own deep copy of every table a transaction names). Fills one table in each
to every size, then times through the HTTP server with boto3, in interleaved rounds on both: a conditional PutItem
(attribute_not_exists), a TransactWriteItems of that one Put, the same transaction cancelled by its condition, and a
Query of one key (moto sorts every item of the table for each Query: the next bound).
Prints the medians in milliseconds, and each launcher's peak resident memory.

    bin/benchmark moto [--sizes 100,1000,5000,10000] [--rounds 30]
    python3 tooling/localstack/src/test/python/moto_transaction_benchmark.py [--sizes ...] [--rounds ...]
"""
import argparse
import statistics
import sys
import time

import boto3
from botocore.config import Config

import moto_launcher
TABLE = "claims"
# An item shaped like a Redrive claim (about 250 bytes)
ATTRIBUTES = {
    "state": {"S": "COMPLETED"},
    "token": {"N": "1"},
    "version": {"N": "3"},
    "leaseUntil": {"S": "2026-12-01T09:00:00Z"},
    "payloadHash": {"S": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
    "result": {"S": "sent:order-000000"},
    "expiresAt": {"N": "1798761600"},
}


class Launcher:
    def __init__(self, mode):
        self.process, port, reported = moto_launcher.start(REDRIVE_MOTO_TRANSACTIONS=mode)
        self.rollback = reported.get("TRANSACTIONS", "?").split()[0]
        self.ddb = boto3.client(
            "dynamodb",
            endpoint_url="http://127.0.0.1:%d" % port,
            region_name="us-east-1",
            aws_access_key_id="bench",
            aws_secret_access_key="bench",
            config=Config(retries={"total_max_attempts": 1}),
        )
        self.ddb.create_table(
            TableName=TABLE,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        self.size = 0
        self.next_key = 0

    def fill_to(self, size):
        while self.size < size:
            batch = min(25, size - self.size)
            self.ddb.batch_write_item(RequestItems={TABLE: [
                {"PutRequest": {"Item": self.item("fill-%07d" % (self.size + i))}} for i in range(batch)]})
            self.size += batch

    def item(self, pk):
        return dict(ATTRIBUTES, pk={"S": pk})

    def new_key(self):
        self.next_key += 1
        self.size += 1
        return "new-%07d" % self.next_key

    def conditional_put(self):
        self.ddb.put_item(TableName=TABLE, Item=self.item(self.new_key()), ConditionExpression="attribute_not_exists(pk)")

    def transaction(self):
        self.ddb.transact_write_items(TransactItems=[{"Put": {
            "TableName": TABLE, "Item": self.item(self.new_key()), "ConditionExpression": "attribute_not_exists(pk)"}}])

    def query_one_key(self):
        self.ddb.query(TableName=TABLE, KeyConditionExpression="pk = :k",
                       ExpressionAttributeValues={":k": {"S": "fill-0000000"}})

    def cancelled_transaction(self):
        try:
            self.ddb.transact_write_items(TransactItems=[{"Put": {
                "TableName": TABLE, "Item": self.item("fill-0000000"), "ConditionExpression": "attribute_not_exists(pk)",
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}])
        except self.ddb.exceptions.TransactionCanceledException:
            return
        raise SystemExit("the transaction on an existing key was not cancelled")

    def peak_memory_mb(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
        return float("nan")

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def timed(call):
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,1000,5000,10000")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    undo, deep = Launcher("undo-log"), Launcher("moto")
    try:
        print("launchers: %s and %s; table %r, one item ~250 bytes; %d interleaved rounds per size; medians in ms"
              % (undo.rollback, deep.rollback, TABLE, args.rounds))
        print()
        print("| table size | conditional PutItem | transaction, undo log | transaction, moto's deep copy "
              "| cancelled, undo log | cancelled, moto's deep copy | Query of one key |")
        print("|---|---|---|---|---|---|---|")
        for size in sizes:
            undo.fill_to(size)
            deep.fill_to(size)
            times = {k: [] for k in ("put", "undo", "deep", "undo_cancel", "deep_cancel", "query")}
            for _ in range(args.rounds):
                times["put"].append(timed(undo.conditional_put))
                times["undo"].append(timed(undo.transaction))
                times["deep"].append(timed(deep.transaction))
                times["undo_cancel"].append(timed(undo.cancelled_transaction))
                times["deep_cancel"].append(timed(deep.cancelled_transaction))
                times["query"].append(timed(undo.query_one_key))
            m = {k: statistics.median(v) for k, v in times.items()}
            print("| %s items | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |"
                  % (format(size, ","), m["put"], m["undo"], m["deep"], m["undo_cancel"], m["deep_cancel"], m["query"]))
            sys.stdout.flush()
        print()
        print("peak resident memory (VmHWM): undo log %.0f MB, moto's deep copy %.0f MB"
              % (undo.peak_memory_mb(), deep.peak_memory_mb()))
    finally:
        undo.close()
        deep.close()


if __name__ == "__main__":
    main()
