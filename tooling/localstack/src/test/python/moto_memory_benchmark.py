"""The moto launcher's memory over a run of Redrive-shaped traffic: does it stay with what its tables hold?

Starts a launcher (this tree's by default, or --launcher PATH, e.g. an older one from git) and sends, per order, what
the two checkout consumers send: the revenue consumer's claim (conditional PutItem) and its TransactWriteItems (the
completed claim with a counter update on a second table), the email consumer's claim, its S3 object (2 KB, written
once) and its completing UpdateItem; every 50 orders, a Query on a secondary index (Limit 25), as the sweeper does.
Prints the launcher's resident memory (VmRSS) and peak (VmHWM) as it goes, then the items its tables hold.

    python3 tooling/localstack/src/test/python/moto_memory_benchmark.py [--orders 2000] [--every 500] [--launcher PATH]
    git show db075b0:tooling/localstack/src/main/resources/dev/redrive/localstack/moto_serialized.py > target/old.py
    python3 tooling/localstack/src/test/python/moto_memory_benchmark.py --launcher target/old.py   # before the undo log
"""
import argparse
import sys
import time

import boto3
from botocore.config import Config

import moto_launcher


def start(launcher):
    process, port, reported = moto_launcher.start(launcher)
    return process, port, reported.get("TRANSACTIONS", "rollback=deep-copy (a launcher without the undo log)")


def memory_mb(pid):
    values = {}
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                values[line.split(":")[0]] = int(line.split()[1]) / 1024.0
    return values["VmRSS"], values["VmHWM"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", type=int, default=2000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--launcher", default=moto_launcher.LAUNCHER)
    args = parser.parse_args()

    process, port, rollback = start(args.launcher)
    kw = dict(endpoint_url="http://127.0.0.1:%d" % port, region_name="us-east-1", aws_access_key_id="bench",
              aws_secret_access_key="bench", config=Config(retries={"total_max_attempts": 1}))
    ddb, s3 = boto3.client("dynamodb", **kw), boto3.client("s3", **kw)
    try:
        ddb.create_table(TableName="claims", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         BillingMode="PAY_PER_REQUEST")
        ddb.create_table(TableName="revenue", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         BillingMode="PAY_PER_REQUEST")
        ddb.create_table(TableName="quarantine", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "state", "AttributeType": "S"}],
                         GlobalSecondaryIndexes=[{"IndexName": "byState",
                                                  "KeySchema": [{"AttributeName": "state", "KeyType": "HASH"}],
                                                  "Projection": {"ProjectionType": "ALL"}}],
                         BillingMode="PAY_PER_REQUEST")
        s3.create_bucket(Bucket="outbox")
        rss, peak = memory_mb(process.pid)
        print("launcher: %s; %d orders" % (rollback, args.orders))
        print()
        print("| orders | items held | VmRSS MB | VmHWM MB | seconds |")
        print("|---|---|---|---|---|")
        print("| 0 | 0 | %.0f | %.0f | 0 |" % (rss, peak))
        started = time.monotonic()
        for n in range(1, args.orders + 1):
            order(ddb, s3, n)
            if n % args.every == 0 or n == args.orders:
                rss, peak = memory_mb(process.pid)
                print("| %d | %d | %.0f | %.0f | %.0f |" % (n, 3 * n + 1, rss, peak, time.monotonic() - started))
                sys.stdout.flush()
    finally:
        process.stdin.close()
        process.wait(timeout=10)


def order(ddb, s3, n):
    body = {"pk": {"S": "order-%06d" % n}, "state": {"S": "IN_PROGRESS"}, "token": {"N": "1"},
            "leaseUntil": {"S": "2026-12-01T09:00:00Z"},
            "payloadHash": {"S": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}}
    revenue_key = dict(body, pk={"S": "revenue#order-%06d" % n})
    ddb.put_item(TableName="claims", Item=revenue_key, ConditionExpression="attribute_not_exists(pk)")
    ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": "claims", "Item": dict(revenue_key, state={"S": "COMPLETED"}),
                 "ConditionExpression": "#t = :t", "ExpressionAttributeNames": {"#t": "token"},
                 "ExpressionAttributeValues": {":t": {"N": "1"}}}},
        {"Update": {"TableName": "revenue", "Key": {"pk": {"S": "total"}},
                    "UpdateExpression": "ADD minor :m, orders :one",
                    "ExpressionAttributeValues": {":m": {"N": "2599"}, ":one": {"N": "1"}}}},
    ])
    email_key = dict(body, pk={"S": "email#order-%06d" % n})
    ddb.put_item(TableName="claims", Item=email_key, ConditionExpression="attribute_not_exists(pk)")
    s3.put_object(Bucket="outbox", Key="emails/order-%06d.json" % n, Body=b"x" * 2048, IfNoneMatch="*")
    ddb.update_item(TableName="claims", Key={"pk": email_key["pk"]}, UpdateExpression="SET #s = :c",
                    ExpressionAttributeNames={"#s": "state"}, ExpressionAttributeValues={":c": {"S": "COMPLETED"}})
    ddb.put_item(TableName="quarantine", Item={"pk": {"S": "dl-%06d" % n}, "state": {"S": "QUARANTINED"}})
    if n % 50 == 0:
        ddb.query(TableName="quarantine", IndexName="byState", KeyConditionExpression="#s = :q",
                  ExpressionAttributeNames={"#s": "state"}, ExpressionAttributeValues={":q": {"S": "QUARANTINED"}},
                  Limit=25)


if __name__ == "__main__":
    main()
