"""What routing a request costs moto, with the launcher's list of moto's modules read once and with moto's own.

Starts the launcher twice as MotoServer does (python3 -u moto_serialized.py): once as it runs for the tests and the
local run, once with REDRIVE_MOTO_ROUTING=moto (moto lists its package folder for every request it routes). Times, in
interleaved rounds on both, a DynamoDB GetItem of a missing key and an S3 HeadBucket through the HTTP server with
boto3, and prints the medians in milliseconds and their ratio.

    bin/benchmark moto-routing [--rounds 20] [--calls 100]
"""
import argparse
import statistics
import time

import boto3
from botocore.config import Config

import moto_launcher


class Launcher:
    def __init__(self, mode):
        self.process, port, reported = moto_launcher.start(REDRIVE_MOTO_ROUTING=mode)
        self.routing = reported.get("ROUTING", "?")
        options = dict(endpoint_url="http://127.0.0.1:%d" % port, region_name="us-east-1",
                       aws_access_key_id="bench", aws_secret_access_key="bench",
                       config=Config(retries={"total_max_attempts": 1}, s3={"addressing_style": "path"}))
        self.ddb = boto3.client("dynamodb", **options)
        self.s3 = boto3.client("s3", **options)
        self.ddb.create_table(TableName="t", BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        self.s3.create_bucket(Bucket="routing-bench")

    def round(self, calls):
        started = time.perf_counter()
        for i in range(calls):
            self.ddb.get_item(TableName="t", Key={"pk": {"S": "k%d" % i}})
            self.s3.head_bucket(Bucket="routing-bench")
        return (time.perf_counter() - started) * 1000 / (2 * calls)

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    once, own = Launcher("listed-once"), Launcher("moto")
    try:
        for launcher in (once, own):
            launcher.round(10)  # warm up
        times = {once: [], own: []}
        for _ in range(args.rounds):
            for launcher in (once, own):
                times[launcher].append(launcher.round(args.calls))
        a, b = statistics.median(times[once]), statistics.median(times[own])
        print("moto routing: median ms per request (DynamoDB GetItem and S3 HeadBucket, %d rounds of %d each)"
              % (args.rounds, 2 * args.calls))
        print("  %-22s %7.2f" % (once.routing, a))
        print("  %-22s %7.2f" % (own.routing, b))
        print("  ratio listed-once / moto's own: %.2f" % (a / b))
    finally:
        once.close()
        own.close()


if __name__ == "__main__":
    main()
