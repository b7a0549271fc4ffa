"""What the launcher's serving changes save on a Redrive-shaped request mix, each alone and together.

Starts five launchers as MotoServer does (python3 -u moto_serialized.py), each with moto's own code for what it does
not change: "moto" (REDRIVE_MOTO_SERIALIZER=moto, REDRIVE_MOTO_QUERY=moto, REDRIVE_MOTO_EXPRESSIONS=moto), "serializer"
(the compiled serializer only), "query" (the keyed Query only), "expressions" (update expressions parsed once only) and
"all" (as the tests and the local run start it). Fills each one's orders table with the same past orders (--items),
then replays in interleaved rounds the same requests to each, over HTTP as an SDK sends them, one request at a time:
per order what the checkout sends (its attempt's UpdateItem ALL_NEW, a BatchGetItem of its stock, the reservation and
the placing TransactWriteItems, a Query of its reservations), what the outbox relay sends (GetRecords on the orders
stream, the marks' TransactWriteItems), what two consumers send (claim PutItems, one in five a duplicate refused with
ALL_OLD, completing UpdateItems ALL_NEW, the revenue's ADD), a GetItem of the outbox event, and per round the sweeps'
Queries of the sparse indexes byUnpublished and byOpenAttempt. Prints, per operation, the median over rounds of the
milliseconds per request on each launcher and the ratio to moto's; then requests a second on each.

    bin/benchmark moto-serving [--items 5000] [--rounds 8] [--orders 10]
"""
import argparse
import json
import random
import statistics
import sys
import threading
import time

import moto_http
import moto_launcher

VARIANTS = {
    "moto": {"REDRIVE_MOTO_SERIALIZER": "moto", "REDRIVE_MOTO_QUERY": "moto", "REDRIVE_MOTO_EXPRESSIONS": "moto"},
    "serializer": {"REDRIVE_MOTO_QUERY": "moto", "REDRIVE_MOTO_EXPRESSIONS": "moto"},
    "query": {"REDRIVE_MOTO_SERIALIZER": "moto", "REDRIVE_MOTO_EXPRESSIONS": "moto"},
    "expressions": {"REDRIVE_MOTO_SERIALIZER": "moto", "REDRIVE_MOTO_QUERY": "moto"},
    "all": {},
}
ORDERS, CLAIMS = "orders", "claims"
SKUS = ["sku-%02d" % i for i in range(40)]
MARK = "SET publishedAt = if_not_exists(publishedAt, :now) REMOVE unpublished"
BEGIN = ("SET fingerprint = if_not_exists(fingerprint, :fp), orderId = if_not_exists(orderId, :order), "
         "#status = if_not_exists(#status, :started), startedAt = if_not_exists(startedAt, :now), "
         "leaseUntil = :lease, #token = if_not_exists(#token, :zero) + :one, openAttempt = :open")
BEGIN_CONDITION = ("attribute_not_exists(pk) OR (fingerprint = :fp AND #status IN (:started, :authorized) "
                   "AND leaseUntil <= :now)")
CLAIM_CONDITION = "attribute_not_exists(pk)"
COMPLETE = "SET #status = :completed, #result = :result, #expiresAt = :expiresAt"
HELD_BY_TOKEN = "#status = :inProgress AND #token = :token"


def s(value):
    return {"S": value}


def n(value):
    return {"N": str(value)}


def create_tables(http):
    http.json("CreateTable", {
        "TableName": ORDERS, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": t} for a, t in (
            ("pk", "S"), ("sk", "S"), ("unpublished", "S"), ("createdAt", "N"), ("openAttempt", "S"),
            ("leaseUntil", "N"))],
        "GlobalSecondaryIndexes": [
            {"IndexName": index, "Projection": {"ProjectionType": "ALL"}, "KeySchema": [
                {"AttributeName": hash_key, "KeyType": "HASH"}, {"AttributeName": range_key, "KeyType": "RANGE"}]}
            for index, hash_key, range_key in (("byUnpublished", "unpublished", "createdAt"),
                                               ("byOpenAttempt", "openAttempt", "leaseUntil"))],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}})
    http.json("CreateTable", {
        "TableName": CLAIMS, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})
    http.json("BatchWriteItem", {"RequestItems": {ORDERS: [{"PutRequest": {"Item": {
        "pk": s("sku#" + sku), "sk": s("stock"), "available": n(10 ** 9), "unitPriceMinor": n(1250 + i),
        "currency": s("EUR")}}} for i, sku in enumerate(SKUS[:25])]}})
    http.json("BatchWriteItem", {"RequestItems": {ORDERS: [{"PutRequest": {"Item": {
        "pk": s("sku#" + sku), "sk": s("stock"), "available": n(10 ** 9), "unitPriceMinor": n(1275 + i),
        "currency": s("EUR")}}} for i, sku in enumerate(SKUS[25:])]}})


def past_order_items(rng, at):
    """The items a placed, published order leaves in the orders table."""
    order_id = "p%08x" % rng.getrandbits(32)
    base = {"pk": s("order#" + order_id)}
    lines = [(sku, rng.randint(1, 3)) for sku in rng.sample(SKUS, 2)]
    items = [dict(base, sk=s("order"), status=s("PLACED"), total=n(3800), currency=s("EUR"), createdAt=n(at),
                  lines=s(json.dumps(lines))),
             dict(base, sk=s("outbox#%010d" % 1), type=s("OrderPlaced"), createdAt=n(at), publishedAt=n(at + 40),
                  payload=s(json.dumps({"orderId": order_id, "total": 3800, "lines": lines})))]
    for sku, quantity in lines:
        items.append(dict(base, sk=s("reservation#" + sku), quantity=n(quantity), unitPriceMinor=n(1250),
                          state=s("CONFIRMED"), at=n(at)))
    items.append({"pk": s("checkout#key-" + order_id), "sk": s("attempt"), "status": s("PLACED"),
                  "orderId": s(order_id), "fingerprint": s("fp-" + order_id), "token": n(1),
                  "startedAt": n(at), "leaseUntil": n(at + 30000), "authorizationId": s("auth-" + order_id)})
    return items


class Round:
    """The requests of one round, the same for every launcher (a launcher's own stream iterator aside)."""

    def __init__(self, rng, number, orders):
        self.calls = []  # (label, operation, body or None for the stream read, service)
        now = 1_800_000_000_000 + number * 60_000
        for i in range(orders):
            order_id = "r%03d-%04d-%08x" % (number, i, rng.getrandbits(32))
            self.order(rng, order_id, now + i * 100)
        self.call("Query byUnpublished (sweep)", "Query", {
            "TableName": ORDERS, "IndexName": "byUnpublished", "Limit": 100,
            "KeyConditionExpression": "unpublished = :one AND createdAt < :before",
            "ExpressionAttributeValues": {":one": s("1"), ":before": n(now - 300_000)}})
        self.call("Query byOpenAttempt (sweep)", "Query", {
            "TableName": ORDERS, "IndexName": "byOpenAttempt", "Limit": 100,
            "KeyConditionExpression": "openAttempt = :one AND leaseUntil < :before",
            "ExpressionAttributeValues": {":one": s("1"), ":before": n(now - 900_000)}})

    def call(self, label, operation, body, service="dynamodb"):
        self.calls.append((label, operation, body, service))

    def order(self, rng, order_id, now):
        key = {"pk": s("checkout#key-" + order_id), "sk": s("attempt")}
        self.call("UpdateItem ALL_NEW (checkout begins)", "UpdateItem", {
            "TableName": ORDERS, "Key": key, "UpdateExpression": BEGIN, "ConditionExpression": BEGIN_CONDITION,
            "ExpressionAttributeNames": {"#status": "status", "#token": "token"},
            "ExpressionAttributeValues": {":fp": s("fp-" + order_id), ":order": s(order_id), ":started": s("STARTED"),
                                          ":authorized": s("AUTHORIZED"), ":now": n(now), ":lease": n(now + 30000),
                                          ":zero": n(0), ":one": n(1), ":open": s("1")},
            "ReturnValues": "ALL_NEW", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
        lines = [(sku, rng.randint(1, 3)) for sku in rng.sample(SKUS, 2)]
        self.call("BatchGetItem (stock)", "BatchGetItem", {"RequestItems": {ORDERS: {
            "Keys": [{"pk": s("sku#" + sku), "sk": s("stock")} for sku, _ in lines], "ConsistentRead": True}}})
        reserve = []
        for sku, quantity in lines:
            reserve.append({"Update": {
                "TableName": ORDERS, "Key": {"pk": s("sku#" + sku), "sk": s("stock")},
                "UpdateExpression": "SET available = available - :q",
                "ConditionExpression": "available >= :q AND currency = :c",
                "ExpressionAttributeValues": {":q": n(quantity), ":c": s("EUR")}}})
            reserve.append({"Put": {
                "TableName": ORDERS, "ConditionExpression": "attribute_not_exists(pk)", "Item": {
                    "pk": s("order#" + order_id), "sk": s("reservation#" + sku), "quantity": n(quantity),
                    "unitPriceMinor": n(1250), "state": s("HELD"), "at": n(now)}}})
        self.call("TransactWriteItems (reserve)", "TransactWriteItems", {"TransactItems": reserve})
        self.call("Query pk+begins_with (reservations)", "Query", {
            "TableName": ORDERS, "ConsistentRead": True,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {":pk": s("order#" + order_id), ":prefix": s("reservation#")}})
        place = [
            {"Put": {"TableName": ORDERS, "ConditionExpression": "attribute_not_exists(pk)", "Item": {
                "pk": s("order#" + order_id), "sk": s("order"), "status": s("PLACED"), "total": n(3800),
                "currency": s("EUR"), "createdAt": n(now), "lines": s(json.dumps(lines))}}},
            {"Put": {"TableName": ORDERS, "ConditionExpression": "attribute_not_exists(pk)", "Item": {
                "pk": s("order#" + order_id), "sk": s("outbox#%010d" % 1), "type": s("OrderPlaced"),
                "createdAt": n(now), "unpublished": s("1"),
                "payload": s(json.dumps({"orderId": order_id, "total": 3800, "lines": lines}))}}}]
        for sku, _ in lines:
            place.append({"Update": {
                "TableName": ORDERS, "Key": {"pk": s("order#" + order_id), "sk": s("reservation#" + sku)},
                "UpdateExpression": "SET #state = :confirmed", "ConditionExpression": "#state = :held",
                "ExpressionAttributeNames": {"#state": "state"},
                "ExpressionAttributeValues": {":confirmed": s("CONFIRMED"), ":held": s("HELD")}}})
        place.append({"Update": {
            "TableName": ORDERS, "Key": key,
            "UpdateExpression": "SET #status = :placed, authorizationId = :auth REMOVE openAttempt",
            "ConditionExpression": "#token = :t AND #status IN (:started, :authorized)",
            "ExpressionAttributeNames": {"#status": "status", "#token": "token"},
            "ExpressionAttributeValues": {":placed": s("PLACED"), ":auth": s("auth-" + order_id), ":t": n(1),
                                          ":started": s("STARTED"), ":authorized": s("AUTHORIZED")}}})
        self.call("TransactWriteItems (place)", "TransactWriteItems", {"TransactItems": place})
        self.call("GetRecords (relay)", "GetRecords", None, "streams")
        self.call("TransactWriteItems (marks)", "TransactWriteItems", {"TransactItems": [{"Update": {
            "TableName": ORDERS, "Key": {"pk": s("order#" + order_id), "sk": s("outbox#%010d" % 1)},
            "UpdateExpression": MARK, "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeValues": {":now": n(now + 50)}}}]})
        self.call("GetItem (outbox event)", "GetItem", {
            "TableName": ORDERS, "ConsistentRead": True,
            "Key": {"pk": s("order#" + order_id), "sk": s("outbox#%010d" % 1)}})
        for consumer in ("email", "revenue"):
            self.consume(rng, consumer, order_id, now)

    def consume(self, rng, consumer, order_id, now):
        claim_key = "%s#%s" % (consumer, order_id)
        claim = {"pk": s(claim_key), "status": s("IN_PROGRESS"), "token": n(1), "version": n(1),
                 "leaseUntil": n(now + 60_000), "payloadHash": s("%064x" % rng.getrandbits(256)),
                 "expiresAt": n(now // 1000 + 86_400)}
        self.call("PutItem conditional (claim)", "PutItem", {
            "TableName": CLAIMS, "Item": claim, "ConditionExpression": CLAIM_CONDITION,
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
        self.call("UpdateItem ALL_NEW (claim completes)", "UpdateItem", {
            "TableName": CLAIMS, "Key": {"pk": s(claim_key)}, "UpdateExpression": COMPLETE,
            "ConditionExpression": HELD_BY_TOKEN,
            "ExpressionAttributeNames": {"#status": "status", "#result": "result", "#expiresAt": "expiresAt",
                                         "#token": "token"},
            "ExpressionAttributeValues": {":completed": s("COMPLETED"), ":result": s("sent:" + order_id),
                                          ":expiresAt": n(now // 1000 + 86_400), ":inProgress": s("IN_PROGRESS"),
                                          ":token": n(1)},
            "ReturnValues": "ALL_NEW"})
        if consumer == "revenue":
            self.call("UpdateItem ADD (revenue)", "UpdateItem", {
                "TableName": CLAIMS, "Key": {"pk": s("revenue-total#EUR")},
                "UpdateExpression": "ADD amountMinor :amount, orders :one",
                "ExpressionAttributeValues": {":amount": n(3800), ":one": n(1)}})
        if rng.random() < 0.2:
            self.call("PutItem refused ALL_OLD (duplicate)", "PutItem", {
                "TableName": CLAIMS, "Item": claim, "ConditionExpression": CLAIM_CONDITION,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})


class Launcher:
    def __init__(self, name, environment):
        self.name = name
        self.process, port, reported = moto_launcher.start(**environment)
        self.serving = reported.get("SERVING", "?")
        self.http = moto_http.DynamoDbHttp(port)
        create_tables(self.http)
        self.iterator = None
        self.failed = None

    def fill(self, items):
        try:
            for start in range(0, len(items), 25):
                self.http.json("BatchWriteItem", {"RequestItems": {ORDERS: [
                    {"PutRequest": {"Item": item}} for item in items[start:start + 25]]}})
        except Exception as e:  # told by main() once every launcher is filled
            self.failed = e

    def follow_stream(self):
        """The relay reads the stream from here on, as a new reader would."""
        arn = self.http.json("DescribeTable", {"TableName": ORDERS})["Table"]["LatestStreamArn"]
        shard = self.http.json("DescribeStream", {"StreamArn": arn}, "streams")["StreamDescription"]["Shards"][0]
        self.iterator = self.http.json("GetShardIterator", {
            "StreamArn": arn, "ShardId": shard["ShardId"], "ShardIteratorType": "LATEST"}, "streams")["ShardIterator"]

    def replay(self, round_):
        """Sends the round's requests; returns {label: [seconds, requests]}."""
        spent = {}
        for label, operation, body, service in round_.calls:
            if body is None:
                body = {"ShardIterator": self.iterator, "Limit": 10}
            started = time.perf_counter()
            status, _, payload = self.http.call(operation, body, service)
            took = time.perf_counter() - started
            expected = 400 if label.startswith("PutItem refused") else 200
            if status != expected:
                raise SystemExit("%s: %s answered %d on %s: %s"
                                 % (self.name, label, status, self.serving, payload[:300]))
            if operation == "GetRecords":
                self.iterator = json.loads(payload)["NextShardIterator"]
            entry = spent.setdefault(label, [0.0, 0])
            entry[0] += took
            entry[1] += 1
        return spent

    def close(self):
        self.http.close()
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=5000, help="items of past orders in the orders table at start")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--orders", type=int, default=10, help="orders per round")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="which launchers, from " + ",".join(VARIANTS))
    args = parser.parse_args()
    names = args.variants.split(",")
    started = time.perf_counter()
    launchers = [Launcher(name, VARIANTS[name]) for name in names]
    try:
        past = []
        rng = random.Random(13)
        while len(past) < args.items:
            past.extend(past_order_items(rng, 1_700_000_000_000 + len(past)))
        fillers = [threading.Thread(target=launcher.fill, args=(past[:args.items],)) for launcher in launchers]
        for filler in fillers:  # one launcher per process: fill them side by side
            filler.start()
        for filler in fillers:
            filler.join()
        for launcher in launchers:
            if launcher.failed is not None:
                raise SystemExit("filling %s failed: %s" % (launcher.name, launcher.failed))
            launcher.follow_stream()
        filled = time.perf_counter() - started
        ms = {launcher.name: {} for launcher in launchers}  # name -> label -> [ms per request, per round]
        totals = {launcher.name: [0.0, 0] for launcher in launchers}
        rng = random.Random(7)
        for number in range(args.rounds):
            round_ = Round(rng, number, args.orders)
            shift = number % len(launchers)  # each launcher goes first as often as the others
            for launcher in launchers[shift:] + launchers[:shift]:
                for label, (seconds, requests) in launcher.replay(round_).items():
                    ms[launcher.name].setdefault(label, []).append(1000 * seconds / requests)
                    totals[launcher.name][0] += seconds
                    totals[launcher.name][1] += requests
        report(args, launchers, ms, totals, filled, time.perf_counter() - started)
    finally:
        for launcher in launchers:
            launcher.close()


def report(args, launchers, ms, totals, filled, elapsed):
    names = [launcher.name for launcher in launchers]
    print("moto serving: %d items of past orders in the orders table, %d rounds of %d orders, interleaved; "
          "median over rounds of ms per request (ratio to moto's)" % (args.items, args.rounds, args.orders))
    for launcher in launchers:
        print("  %-12s %s" % (launcher.name, launcher.serving))
    print("  %-38s %s" % ("", "".join("%16s" % name for name in names)))
    base = names[0]
    for label in ms[base]:
        cells = []
        for name in names:
            value = statistics.median(ms[name][label])
            ratio = value / statistics.median(ms[base][label])
            cells.append("%8.2f (%4.2f)" % (value, ratio) if name != base else "%16.2f" % value)
        print("  %-38s %s" % (label, "".join("%16s" % c for c in cells)))
    rates = {name: totals[name][1] / totals[name][0] for name in names}
    print("  %-38s %s" % ("requests a second (ratio to moto's)", "".join(
        "%16s" % ("%6.1f (%4.2f)" % (rates[name], rates[name] / rates[base]) if name != base else
                  "%16.1f" % rates[name]) for name in names)))
    print("  (%d requests per launcher; filling took %.0f s, the whole run %.0f s)"
          % (totals[base][1], filled, elapsed))


if __name__ == "__main__":
    sys.exit(main())
