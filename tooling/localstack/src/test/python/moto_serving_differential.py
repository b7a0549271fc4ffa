"""Differential check of the launcher's serving changes (compiled serializer, keyed Query, update expressions parsed
once) against moto's own code, on a seeded corpus of DynamoDB and DynamoDB Streams requests.

Starts three launchers as MotoServer does (python3 -u moto_serialized.py):
  moto      REDRIVE_MOTO_SERIALIZER=moto REDRIVE_MOTO_QUERY=moto REDRIVE_MOTO_EXPRESSIONS=moto: moto's own code;
  launcher  as the tests and the local run start it;
  compare   every change in its compare mode: each answer serialized by moto and by the compiled shapes (moto's sent),
            each Query run both ways, each kept UpdateExpression checked against a fresh parse, on the same state.
and sends the same seeded requests to the three, over HTTP as an SDK sends them: items with every attribute type
(S with quotes and non-ASCII, N in several notations, B, SS, NS, BS, BOOL, NULL, nested M and L), tables with string,
number and binary keys, hash-only and hash+range, sparse global secondary indexes with and without a range key,
streams; PutItem, GetItem, UpdateItem (every ReturnValues, Redrive's expressions and failing ones), DeleteItem, Query
(key conditions of every kind, both directions, Limit and every page through LastEvaluatedKey, filters, projections,
Select COUNT), Scan, BatchGetItem, BatchWriteItem, TransactWriteItems (cancellations with reasons and ALL_OLD items),
TransactGetItems, CreateTable, DescribeTable, DeleteTable, Update/DescribeTimeToLive, ListTables, and the stream's
ListStreams, DescribeStream, GetShardIterator, GetRecords; errors of each.

Every answer of "launcher" and of "compare" must equal moto's: the same status, Content-Type and error type, and the
same body bytes. Only the answers that carry what differs between two processes (a table's creation time and stream
label, stream ARNs, shard iterators, a stream record's id and time) are compared as JSON with those fields masked.
At the end, each side's state is read and compared the same way: every table and every index whole (Scan), every
stream from TRIM_HORIZON. Then "compare" must report no difference, and must have compared the serializations of every
operation above.

    python3 tooling/localstack/src/test/python/moto_serving_differential.py [--steps 2000] [--seed 13] [--launcher PATH]

Exits 0 when all agree, 1 at the first difference (printed), 2 when a launcher would not install a change on this moto
(another version or source: re-review). MotoServingDifferentialTest runs it.
"""
import argparse
import concurrent.futures
import base64
import json
import os
import random
import re
import sys
import tempfile

import moto_http
import moto_launcher

MOTO = {"REDRIVE_MOTO_SERIALIZER": "moto", "REDRIVE_MOTO_QUERY": "moto", "REDRIVE_MOTO_EXPRESSIONS": "moto"}
COMPARE = {"REDRIVE_MOTO_SERIALIZER": "compare", "REDRIVE_MOTO_QUERY": "compare", "REDRIVE_MOTO_EXPRESSIONS": "compare"}
EXPECTED_SERVING = {
    "moto": "serializer=moto query=moto expressions=moto",
    "launcher": "serializer=compiled query=by-key expressions=parsed-once",
    "compare": "serializer=compare query=compare expressions=compare",
}
# Fields whose values differ between two processes (times, random ids, and what embeds them); only the answers of these
# operations may be compared with them masked.
MASKED_FIELDS = {"CreationDateTime", "LatestStreamLabel", "LatestStreamArn", "StreamArn", "StreamLabel",
                 "CreationRequestDateTime", "ShardIterator", "NextShardIterator", "eventID",
                 "ApproximateCreationDateTime", "SizeBytes"}
MASKABLE = {"CreateTable", "DescribeTable", "DeleteTable", "ListStreams", "DescribeStream", "GetShardIterator",
            "GetRecords"}
SERIALIZED = ["GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem",
              "TransactWriteItems", "TransactGetItems", "CreateTable", "DescribeTable", "DeleteTable",
              "UpdateTimeToLive", "DescribeTimeToLive", "ListTables", "ListStreams", "DescribeStream",
              "GetShardIterator", "GetRecords"]

S = {"S"}
TABLES = {
    # name: (hash key (name, type), range key or None, {index: (hash (name, type), range or None)}, stream view)
    "orders": (("pk", "S"), ("sk", "S"), {"byUnpublished": (("unpublished", "S"), ("createdAt", "N")),
                                          "byOpenAttempt": (("openAttempt", "S"), ("leaseUntil", "N"))}, "NEW_IMAGE"),
    "claims": (("pk", "S"), None, {}, None),
    "ledger": (("pk", "S"), ("sk", "S"), {"byState": (("state", "S"), ("arrivedAt", "N")),
                                          "byQueue": (("sourceQueue", "S"), None)}, "NEW_AND_OLD_IMAGES"),
    "numbers": (("pk", "N"), ("sk", "N"), {"byG": (("g", "N"), None)}, "KEYS_ONLY"),
    "bins": (("pk", "B"), ("sk", "B"), {"byTag": (("tag", "S"), ("rank", "N"))}, "OLD_IMAGE"),
    "flat": (("pk", "S"), None, {"byState": (("state", "S"), ("arrivedAt", "N"))}, None),
}
STRINGS = ["a", "b", "order#1", "Ü", "日本", "q\"uote", "back\\slash", "", "emoji \U0001F600", "x" * 40]
NUMBERS = ["0", "1", "-1", "1.5", "1.50", "10", "2E3", "-0.25", "123456789012345678901234567890", "0.000001", "7"]
KEY_NUMBERS = ["1", "2", "10", "-3", "1.0", "2.5", "100"]
BYTES = [b"", b"\x00", b"abc", b"\xff\xfe\x00\x01", bytes(range(40))]
NAMES = {"#s": "s", "#owner": "owner", "#expiresAt": "expiresAt", "#token": "token", "#status": "status",
         "#state": "state", "#queue": "sourceQueue", "#v": "v"}
UPDATES = [
    "SET #s = :s", "SET v = :n", "SET v = v + :one", "ADD c :one", "ADD tags :ss", "DELETE tags :ss", "REMOVE g",
    "REMOVE m.x, l[0]", "SET m.x = :s", "SET l = list_append(if_not_exists(l, :empty), :onel)", "SET l[0] = :s",
    "SET #owner = :owner, #expiresAt = :expiresAt ADD #token :one",
    "SET fingerprint = if_not_exists(fingerprint, :s), #status = :status",
    "SET #status = :status, authorizationId = :s REMOVE openAttempt", "ADD amountMinor :n, orders :one",
    "SET #state = :state, arrivedAt = :n", "SET unpublished = :one_s, createdAt = :n", "REMOVE unpublished",
    "SET openAttempt = :one_s, leaseUntil = :n", "SET tag = :s, rank = :n", "SET g = :kn", "SET #expiresAt = :now",
    "SET b = :b", "SET bs = :bs",
    "SET a = ", "SET pk = :s", "SET #s = :missing", "SET v = v + :s", "ADD #s :one",
]
CONDITIONS = [
    "attribute_exists(pk)", "attribute_not_exists(pk)", "v < :n", "#s = :s",
    "attribute_not_exists(pk) OR #expiresAt <= :now", "begins_with(#s, :p)", "size(l) > :zero", "contains(tags, :t)",
    "v BETWEEN :n AND :n2", "#s IN (:s, :s2)", "attribute_exists(pk) AND #status IN (:status, :status2)",
]
RETURN_VALUES = ["NONE", "ALL_OLD", "ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"]
CONDITIONED = 0.4  # of the writes


def b64(data):
    return base64.b64encode(data).decode("ascii")


class Values:
    """Random DynamoDB values, from one seeded generator."""

    def __init__(self, rng):
        self.rng = rng

    def key(self, kind, many=6):
        r = self.rng
        if kind == "S":
            return {"S": "k%d" % r.randrange(many)}
        if kind == "N":
            return {"N": r.choice(KEY_NUMBERS[:many + 1])}
        return {"B": b64(bytes([r.randrange(many)]) * r.randint(1, 3))}

    def scalar(self):
        r = self.rng
        kind = r.choice("SSNNBX")
        if kind == "S":
            return {"S": r.choice(STRINGS)}
        if kind == "N":
            return {"N": r.choice(NUMBERS)}
        if kind == "B":
            return {"B": b64(r.choice(BYTES))}
        return r.choice([{"BOOL": True}, {"BOOL": False}, {"NULL": True}])

    def value(self, depth=0):
        r = self.rng
        choice = r.randrange(10 if depth < 2 else 6)
        if choice < 5:
            return self.scalar()
        if choice == 5:
            return {"SS": r.sample(["a", "b", "c", "Ü", "d e"], r.randint(1, 3))}
        if choice == 6:
            return {"NS": r.sample(["1", "2.5", "-3", "1E2", "7"], r.randint(1, 3))}
        if choice == 7:
            return {"BS": [b64(b) for b in r.sample([b"a", b"\x00\x01", b"zz", b"\xff"], r.randint(1, 3))]}
        if choice == 8:
            return {"M": {r.choice(["x", "y", "z", "é"]): self.value(depth + 1) for _ in range(r.randint(0, 3))}}
        return {"L": [self.value(depth + 1) for _ in range(r.randint(0, 3))]}

    def placeholder(self, name):
        r = self.rng
        fixed = {":one": {"N": "1"}, ":one_s": {"S": "1"}, ":zero": {"N": "0"}, ":empty": {"L": []},
                 ":onel": {"L": [{"N": "1"}]}}
        if name in fixed:
            return fixed[name]
        if name in (":s", ":s2", ":owner", ":t"):
            return {"S": r.choice(STRINGS[:6])}
        if name == ":p":
            return {"S": r.choice(["", "o", "k", "a"])}
        if name in (":status", ":status2"):
            return {"S": r.choice(["started", "authorized", "placed"])}
        if name == ":state":
            return {"S": r.choice(["HELD", "REPLAYED", "ARCHIVED"])}
        if name in (":n", ":n2", ":now", ":expiresAt"):
            return {"N": str(r.randrange(-5, 20))}
        if name == ":kn":
            return {"N": r.choice(KEY_NUMBERS)}
        if name == ":ss":
            return {"SS": r.sample(["a", "b", "c"], r.randint(1, 2))}
        if name == ":b":
            return {"B": b64(r.choice(BYTES))}
        if name == ":bs":
            return {"BS": [b64(b"a"), b64(b"b")]}
        return self.scalar()


class Corpus:
    """The seeded requests: each step is a list of (operation, body or a function of the side's answers, service)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.values = Values(self.rng)

    def key(self, table):
        hash_key, range_key, _, _ = TABLES[table]
        key = {hash_key[0]: self.values.key(hash_key[1])}
        if range_key is not None:
            key[range_key[0]] = self.values.key(range_key[1], many=4)
        return key

    def item(self, table):
        r = self.rng
        item = self.key(table)
        for name in r.sample(["v", "s", "c", "m", "l", "tags", "b", "bs", "flag", "note"], r.randint(0, 6)):
            item[name] = self.values.value()
        _, _, indexes, _ = TABLES[table]
        for (index_hash, index_range) in indexes.values():
            if r.random() < 0.6:
                item[index_hash[0]] = self.index_value(index_hash[1])
                if index_range is not None and r.random() < 0.9:
                    item[index_range[0]] = {"N": str(r.randrange(0, 50))} if index_range[1] == "N" else \
                        {"S": r.choice("abc")}
        if r.random() < 0.2:
            item["v"] = {"N": str(r.randrange(10))}
        return item

    def index_value(self, kind):
        if kind == "S":
            return {"S": self.rng.choice(["1", "HELD", "REPLAYED", "queue-a", "queue-b", "x"])}
        return {"N": self.rng.choice(["1", "2", "1.0"])}

    def expression_values(self, request, *expressions):
        """Fills ExpressionAttributeNames and ExpressionAttributeValues with what the expressions use."""
        text = " ".join(e for e in expressions if e)
        names = {n: NAMES[n] for n in sorted(set(re.findall(r"#\w+", text))) if n in NAMES}
        values = {v: self.values.placeholder(v) for v in sorted(set(re.findall(r":\w+", text))) if v != ":missing"}
        if names:
            request["ExpressionAttributeNames"] = names
        if values:
            request["ExpressionAttributeValues"] = values
        return request

    def condition(self):
        return self.rng.choice(CONDITIONS) if self.rng.random() < CONDITIONED else None

    def table(self):
        return self.rng.choice(list(TABLES) + (["missing"] if self.rng.random() < 0.02 else []))

    def prologue(self):
        """What the random steps may draw too seldom: one request of each administrative kind."""
        return [("ListTables", {}), ("ListTables", {"Limit": 2}), ("DescribeTimeToLive", {"TableName": "claims"}),
                ("UpdateTimeToLive", {"TableName": "claims", "TimeToLiveSpecification": {
                    "AttributeName": "expiresAt", "Enabled": True}}),
                ("DescribeTable", {"TableName": "ledger"})]

    def epilogue(self):
        """The state every side ends with: each table and each index read whole, each stream from its first record."""
        calls = []
        for table, (_, _, indexes, stream) in TABLES.items():
            calls.append(("Scan", {"TableName": table, "ConsistentRead": True}))
            calls.extend(("Scan", {"TableName": table, "IndexName": index}) for index in indexes)
            if stream is not None:
                calls.append(("GetShardIterator",
                              lambda side, table=table: side.iterator_request(table, "TRIM_HORIZON", 0), "streams"))
                calls.append(("GetRecords", lambda side: side.records_request(1000), "streams"))
        return calls

    def step(self):
        r = self.rng
        kind = r.choices(
            ["put", "get", "update", "delete", "query", "index_query", "scan", "batch_get", "batch_write", "transact",
             "transact_get", "admin", "stream"],
            [14, 6, 16, 5, 12, 10, 3, 4, 4, 8, 3, 2, 5])[0]
        return getattr(self, kind)()

    def put(self):
        r = self.rng
        table = self.table()
        request = {"TableName": table, "Item": self.item(table if table in TABLES else "claims")}
        condition = self.condition()
        if condition:
            request["ConditionExpression"] = condition
            self.expression_values(request, condition)
            if r.random() < 0.6:
                request["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        if r.random() < 0.4:
            request["ReturnValues"] = r.choice(["NONE", "ALL_OLD"])
        return [("PutItem", request)]

    def get(self):
        r = self.rng
        table = self.table()
        request = {"TableName": table, "Key": self.key(table if table in TABLES else "claims")}
        if r.random() < 0.3:
            request["ProjectionExpression"] = r.choice(["v, m.x, l[0]", "#s, tags", "pk"])
            if "#s" in request["ProjectionExpression"]:
                request["ExpressionAttributeNames"] = {"#s": "s"}
        if r.random() < 0.3:
            request["ConsistentRead"] = True
        return [("GetItem", request)]

    def update(self):
        r = self.rng
        table = self.table()
        update = r.choice(UPDATES)
        if r.random() < 0.3:  # two clauses
            other = r.choice(UPDATES)
            if other.split()[0] != update.split()[0]:
                update = update + " " + other
        request = {"TableName": table, "Key": self.key(table if table in TABLES else "claims"),
                   "UpdateExpression": update, "ReturnValues": r.choice(RETURN_VALUES)}
        condition = self.condition()
        if condition:
            request["ConditionExpression"] = condition
            if r.random() < 0.5:
                request["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        self.expression_values(request, update, condition)
        if r.random() < 0.03:  # a name nothing uses
            request.setdefault("ExpressionAttributeNames", {})["#unused"] = "u"
        return [("UpdateItem", request)]

    def delete(self):
        r = self.rng
        table = self.table()
        request = {"TableName": table, "Key": self.key(table if table in TABLES else "claims"),
                   "ReturnValues": r.choice(["NONE", "ALL_OLD"])}
        condition = self.condition()
        if condition:
            request["ConditionExpression"] = condition
            self.expression_values(request, condition)
            if r.random() < 0.5:
                request["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        return [("DeleteItem", request)]

    def query(self):
        r = self.rng
        table = r.choice([t for t, shape in TABLES.items() if shape[1] is not None] + ["claims", "flat"])
        hash_key, range_key, _, _ = TABLES[table]
        values = {":h": self.values.key(hash_key[1])}
        condition = "%s = :h" % hash_key[0]
        if range_key is not None and r.random() < 0.6:
            name, kind = range_key
            values[":r"] = self.values.key(kind, many=4)
            form = r.choice(["=", "<", "<=", ">", ">=", "between", "begins"] if kind != "N" else
                            ["=", "<", "<=", ">", ">=", "between"])
            if form == "between":
                values[":r2"] = self.values.key(kind, many=4)
                condition += " AND %s BETWEEN :r AND :r2" % name
            elif form == "begins":
                condition += " AND begins_with(%s, :r)" % name
            else:
                condition += " AND %s %s :r" % (name, form)
        return [("Query", self.reading({"TableName": table, "KeyConditionExpression": condition,
                                        "ExpressionAttributeValues": values}))]

    def index_query(self):
        r = self.rng
        table = r.choice([t for t, shape in TABLES.items() if shape[2]])
        _, _, indexes, _ = TABLES[table]
        index = r.choice(list(indexes) + (["nosuchindex"] if r.random() < 0.03 else []))
        index_hash, index_range = indexes.get(index, (("state", "S"), None))
        values = {":h": self.index_value(index_hash[1])}
        names = {"#h": index_hash[0]}
        condition = "#h = :h"
        if index_range is not None and r.random() < 0.6:
            values[":r"] = {"N": str(r.randrange(0, 50))}
            names["#r"] = index_range[0]
            condition += r.choice([" AND #r < :r", " AND #r >= :r", " AND #r = :r"])
        request = {"TableName": table, "IndexName": index, "KeyConditionExpression": condition,
                   "ExpressionAttributeNames": names, "ExpressionAttributeValues": values}
        return [("Query", self.reading(request))]

    def reading(self, request):
        """Direction, Limit, filter, projection or COUNT for a Query or Scan."""
        r = self.rng
        if request.get("KeyConditionExpression") and r.random() < 0.4:
            request["ScanIndexForward"] = False
        if r.random() < 0.5:
            request["Limit"] = r.randint(1, 4)
        if r.random() < 0.25:
            request["FilterExpression"] = r.choice(["attribute_exists(v)", "v > :fv", "attribute_not_exists(m)"])
            if ":fv" in request["FilterExpression"]:
                request.setdefault("ExpressionAttributeValues", {})[":fv"] = {"N": "3"}
        elif r.random() < 0.2:
            request["ProjectionExpression"] = r.choice(["v, l", "#p", "m.x"])
            if "#p" in request["ProjectionExpression"]:
                request.setdefault("ExpressionAttributeNames", {})["#p"] = "pk"
        elif r.random() < 0.1:
            request["Select"] = "COUNT"
        return request

    def scan(self):
        r = self.rng
        table = r.choice(list(TABLES))
        request = {"TableName": table}
        indexes = TABLES[table][2]
        if indexes and r.random() < 0.4:
            request["IndexName"] = r.choice(list(indexes))
        return [("Scan", self.reading(request))]

    def batch_get(self):
        r = self.rng
        items = {}
        for table in r.sample(list(TABLES), r.randint(1, 3)):
            keys = {json.dumps(self.key(table), sort_keys=True) for _ in range(r.randint(1, 5))}
            items[table] = {"Keys": [json.loads(k) for k in sorted(keys)]}
            if r.random() < 0.3:
                items[table]["ProjectionExpression"] = "pk, v"
        return [("BatchGetItem", {"RequestItems": items})]

    def batch_write(self):
        r = self.rng
        items = {}
        for table in r.sample(list(TABLES), r.randint(1, 2)):
            writes, seen = [], set()
            for _ in range(r.randint(1, 8)):
                if r.random() < 0.7:
                    item = self.item(table)
                    key = {k: item[k] for k in self.key(table)}
                    write = {"PutRequest": {"Item": item}}
                else:
                    key = self.key(table)
                    write = {"DeleteRequest": {"Key": key}}
                if json.dumps(key, sort_keys=True) not in seen:
                    seen.add(json.dumps(key, sort_keys=True))
                    writes.append(write)
            items[table] = writes
        return [("BatchWriteItem", {"RequestItems": items})]

    def transact(self):
        r = self.rng
        operations = []
        for _ in range(r.randint(1, 4)):
            table = self.table()
            shape = table if table in TABLES else "claims"
            kind = r.choice(["Put", "Update", "Delete", "ConditionCheck"])
            op = {"TableName": table}
            condition = self.condition() or ("attribute_exists(pk)" if kind == "ConditionCheck" else None)
            update = r.choice(UPDATES[:22]) if kind == "Update" else None
            if kind == "Put":
                op["Item"] = self.item(shape)
            else:
                op["Key"] = self.key(shape)
            if update:
                op["UpdateExpression"] = update
            if condition:
                op["ConditionExpression"] = condition
                if r.random() < 0.6:
                    op["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
            self.expression_values(op, update, condition)
            operations.append({kind: op})
        return [("TransactWriteItems", {"TransactItems": operations})]

    def transact_get(self):
        r = self.rng
        gets = []
        for _ in range(r.randint(1, 4)):
            table = self.table()
            gets.append({"Get": {"TableName": table, "Key": self.key(table if table in TABLES else "claims")}})
        return [("TransactGetItems", {"TransactItems": gets})]

    def admin(self):
        r = self.rng
        table = r.choice(list(TABLES))
        choice = r.randrange(6)
        if choice == 0:
            return [("DescribeTable", {"TableName": r.choice([table, "missing"])})]
        if choice == 1:
            return [("ListTables", {"Limit": r.randint(1, 10)} if r.random() < 0.5 else {})]
        if choice == 2:
            return [("DescribeTimeToLive", {"TableName": table})]
        if choice == 3:
            return [("UpdateTimeToLive", {"TableName": table, "TimeToLiveSpecification": {
                "AttributeName": "expiresAt", "Enabled": r.random() < 0.7}})]
        name = "temp%d" % r.randrange(3)
        return [("CreateTable", create_table(name, ("pk", "S"), ("sk", "N"), {"byV": (("v", "S"), None)},
                                             r.choice([None, "NEW_AND_OLD_IMAGES"]))),
                ("DeleteTable", {"TableName": name})]

    def stream(self):
        r = self.rng
        table = r.choice([t for t, shape in TABLES.items() if shape[3] is not None])
        iterator_type = r.choice(["TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"])
        offset = r.randrange(0, 40)
        limit = r.choice([None, 1, 5, 1000])
        return [("ListStreams", {"TableName": table} if r.random() < 0.5 else {}, "streams"),
                ("DescribeStream", lambda side: {"StreamArn": side.stream_arn(table)}, "streams"),
                ("GetShardIterator", lambda side: side.iterator_request(table, iterator_type, offset), "streams"),
                ("GetRecords", lambda side: side.records_request(limit), "streams")]


def create_table(name, hash_key, range_key, indexes, stream):
    attributes = {hash_key}
    schema = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
    if range_key is not None:
        attributes.add(range_key)
        schema.append({"AttributeName": range_key[0], "KeyType": "RANGE"})
    gsis = []
    for index, (index_hash, index_range) in indexes.items():
        attributes.add(index_hash)
        key_schema = [{"AttributeName": index_hash[0], "KeyType": "HASH"}]
        if index_range is not None:
            attributes.add(index_range)
            key_schema.append({"AttributeName": index_range[0], "KeyType": "RANGE"})
        gsis.append({"IndexName": index, "KeySchema": key_schema, "Projection": {"ProjectionType": "ALL"}})
    request = {"TableName": name, "BillingMode": "PAY_PER_REQUEST", "KeySchema": schema,
               "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in sorted(attributes)]}
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    if stream:
        request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": stream}
    return request


class Side:
    """One launcher, the requests sent to it, and what its own answers say (stream ARNs, shard iterators)."""

    def __init__(self, name, process, launcher):
        """The side `name` on a launcher spawn() started: waits for it to be ready."""
        self.name = name
        self.process = process
        port, reported = moto_launcher.ready(process, launcher)
        self.serving = reported.get("SERVING", "?")
        self.http = moto_http.DynamoDbHttp(port)
        self.iterator = None
        self.last_answer = None

    def send(self, operation, body, service):
        status, headers, payload = self.http.call(operation, body, service)
        try:
            self.last_answer = json.loads(payload)
        except ValueError:  # moto's 500 page, say: compared as bytes
            self.last_answer = {}
        if operation == "GetShardIterator" and status == 200:
            self.iterator = self.last_answer.get("ShardIterator")
        return status, headers, payload

    def stream_arn(self, table):
        return self.http.json("DescribeTable", {"TableName": table})["Table"]["LatestStreamArn"]

    def iterator_request(self, table, iterator_type, offset):
        stream = self.http.json("DescribeStream", {"StreamArn": self.stream_arn(table)}, "streams")
        shard = stream["StreamDescription"]["Shards"][0]
        request = {"StreamArn": stream["StreamDescription"]["StreamArn"], "ShardId": shard["ShardId"],
                   "ShardIteratorType": iterator_type}
        if iterator_type.endswith("SEQUENCE_NUMBER"):
            request["SequenceNumber"] = str(int(shard["SequenceNumberRange"]["StartingSequenceNumber"]) + offset)
        return request

    def records_request(self, limit):
        request = {"ShardIterator": self.iterator or "none"}
        if limit is not None:
            request["Limit"] = limit
        return request

    @staticmethod
    def spawn(environment, launcher, stderr):
        """Starts a side's launcher without waiting for it (the three import moto at once)."""
        # moto keeps sets (SS, NS, BS after ADD or DELETE) in Python sets: one hash seed for all, one order for all
        return moto_launcher.spawn(launcher, stderr, PYTHONHASHSEED="13", **environment)

    def close(self):
        self.http.close()
        stop(self.process)


def stop(process):
    process.stdin.close()
    process.wait(timeout=30)


def masked(value):
    if isinstance(value, dict):
        return {k: ("<masked>" if k in MASKED_FIELDS else masked(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [masked(v) for v in value]
    return value


def difference(operation, expected, actual):
    """Why two answers to the same request differ, or None."""
    (status_a, headers_a, body_a), (status_b, headers_b, body_b) = expected, actual
    if status_a != status_b:
        return "status %d, moto %d" % (status_b, status_a)
    for header in ("content-type", "x-amzn-errortype"):
        if headers_a.get(header) != headers_b.get(header):
            return "%s %r, moto %r" % (header, headers_b.get(header), headers_a.get(header))
    if body_a == body_b:
        if headers_a.get("x-amz-crc32") != headers_b.get("x-amz-crc32"):
            return "x-amz-crc32 differs on the same body"
        return None
    if operation in MASKABLE:
        try:
            if masked(json.loads(body_a)) == masked(json.loads(body_b)):
                return None
        except ValueError:
            pass
    return "body:\n    %s\n  moto:\n    %s" % (body_b[:2000], body_a[:2000])


def ask(side, operation, body, service):
    """(the request as sent to this side, its pages of answers): body may be a function of the side's answers."""
    request = body(side) if callable(body) else body
    return request, pages(side, operation, request, service)


def pages(side, operation, body, service):
    """The answers to a request, and to each next page of a Query or Scan with a Limit (ExclusiveStartKey)."""
    answers = [side.send(operation, body, service)]
    while operation in ("Query", "Scan") and "Limit" in body and len(answers) < 50:
        last_key = side.last_answer.get("LastEvaluatedKey")
        if answers[-1][0] != 200 or not last_key:
            break
        body = dict(body, ExclusiveStartKey=last_key)
        answers.append(side.send(operation, body, service))
    return answers


class Attributes:
    """An object whose attributes moto's picker reads (as it reads an exception's)."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)


def edge_cases():
    """(operation, result) pairs shaped as no DynamoDB answer is today, for the branches the corpus cannot reach:
    None members and list items, a member under an alias (its shape's name, its snake_case name) or under two names,
    a map key "", an object where a structure is expected, a bool for an integer."""
    value = {"S": "s", "N": "1", "B": b"\x00\xff", "NULL": None, "BOOL": False}
    return [
        ("GetItem", {"Item": {"a": value, "b": {"M": {"": {"S": "empty key"}, "x": None}},
                              "c": {"L": [None, {"N": "2"}, {"MapAttributeValue": {"k": {"S": "v"}}, "M": {}}]},
                              "d": {"ss": ["a"], "SS": ["b"]}, "e": {"m": {"k": {"BOOL": True}}},
                              "f": {"BS": [b"a", "Yg=="]}}}),
        ("Query", {"Items": [{"k": None, "j": {"N": "1"}}], "Count": True, "ScannedCount": 2.0,
                   "LastEvaluatedKey": None,
                   "ConsumedCapacity": Attributes(TableName="t", capacity_units=1, Table={"CapacityUnits": 2})}),
        ("Query", {"Items": [None]}),
        ("DescribeTable", {"Table": {
            "TableName": "t", "ItemCount": "3", "TableSizeBytes": None, "creation_date_time": None,
            "KeySchema": [None, Attributes(AttributeName="pk", KeyType="HASH"),
                          {"attribute_name": "sk", "key_type": "RANGE", "KeyType": "HASH"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 1},
            "provisioned_throughput_description": {"ReadCapacityUnits": 2},
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, None]}}),
        ("BatchGetItem", {"Responses": {"t": [{"a": {"N": "1"}}], "u": []}, "UnprocessedKeys": {"t": None}}),
    ]


def compare_edge_cases(launcher_path):
    """The compiled serializer against moto's, in this process, on edge_cases(); returns the differences."""
    import importlib.util

    sys.dont_write_bytecode = True  # no __pycache__ beside the launcher, in the module's resources
    spec = importlib.util.spec_from_file_location("moto_serialized", launcher_path)
    launcher = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(launcher)
    from moto.core.serialize import JSONSerializer, XFormedAttributePicker
    from moto.core.utils import get_service_model

    compiled = launcher._make_compiled_serializer(JSONSerializer)
    model = get_service_model("dynamodb")
    differences = []
    for operation, result in edge_cases():
        answers = []
        for serializer in (JSONSerializer, compiled):
            try:
                answer = serializer(operation_model=model.operation_model(operation), pretty_print=False,
                                    value_picker=XFormedAttributePicker(response_transformers={})).serialize(result)
                answers.append(repr(answer))
            except Exception as e:  # both must fail alike
                answers.append("%s: %s" % (type(e).__name__, e))
        if answers[0] != answers[1]:
            differences.append("%s:\n    compiled %s\n    moto     %s" % (operation, answers[1], answers[0]))
    return differences


def run(args):
    corpus = Corpus(args.seed)
    with tempfile.TemporaryDirectory(prefix="redrive-moto-differential-") as folder:
        compare_log = os.path.join(folder, "compare.log")
        # moto writes a traceback for each answer it fails with (a 500, compared like any other answer)
        with open(os.path.join(folder, "moto.log"), "wb") as moto_err, \
                open(os.path.join(folder, "launcher.log"), "wb") as launcher_err, \
                open(compare_log, "wb") as compare_err:
            # the three launchers import moto while this process compares the serializers on the edge cases
            spawned = [("moto", Side.spawn(MOTO, args.launcher, moto_err)),
                       ("launcher", Side.spawn({}, args.launcher, launcher_err)),
                       ("compare", Side.spawn(COMPARE, args.launcher, compare_err))]
            sides = []
            senders = concurrent.futures.ThreadPoolExecutor(len(spawned))
            try:
                differences = compare_edge_cases(args.launcher)
                if differences:
                    print("the compiled serializer and moto's differ on edge cases:\n  " + "\n  ".join(differences))
                    return 1
                for name, process in spawned:
                    sides.append(Side(name, process, args.launcher))
                for side in sides:
                    if side.serving != EXPECTED_SERVING[side.name]:
                        print("the launcher %s reports %s, not %s: a change was not installed on this moto; re-review"
                              % (side.name, side.serving, EXPECTED_SERVING[side.name]))
                        return 2
                for name, (hash_key, range_key, indexes, stream) in TABLES.items():
                    for side in sides:
                        side.http.json("CreateTable", create_table(name, hash_key, range_key, indexes, stream))
                answered = {}
                held = {"Items": 0, "Records": 0}
                for n in range(-1, args.steps + 1):
                    calls = corpus.prologue() if n < 0 else corpus.step() if n < args.steps else corpus.epilogue()
                    for call in calls:
                        operation, body, service = (call + ("dynamodb",))[:3]
                        # the three launchers answer at once (each its own process); a side's requests stay in order
                        asked = list(senders.map(lambda side: ask(side, operation, body, service), sides))
                        answers = [got for _, got in asked]
                        for status, _, _ in answers[0]:
                            counts = answered.setdefault(operation, [0, 0])
                            counts[status != 200] += 1
                        for side, got in zip(sides[1:], answers[1:]):
                            if len(got) != len(answers[0]):
                                print("step %d: %s read %d pages on %s, %d on moto" % (
                                    n, operation, len(got), side.name, len(answers[0])))
                                return 1
                            request = asked[sides.index(side)][0]
                            for page, (expected, actual) in enumerate(zip(answers[0], got)):
                                why = difference(operation, expected, actual)
                                if why is not None:
                                    print("%s: %s (page %d) answered differently on %s: %s\n  request %s" % (
                                        "step %d" % n if n < args.steps else "final state", operation, page,
                                        side.name, why, json.dumps(request)[:2000]))
                                    return 1
                        if n == args.steps:  # what the final state holds, as moto read it
                            for status, _, payload in answers[0]:
                                if status != 200:
                                    print("final state: %s answered %d on moto: %s" % (operation, status, payload))
                                    return 1
                                answer = json.loads(payload)
                                held["Items" if "Items" in answer else "Records"] += len(
                                    answer.get("Items", answer.get("Records", ())))
            finally:
                senders.shutdown()
                for side in sides:
                    side.close()
                for _, process in spawned[len(sides):]:
                    stop(process)
        with open(compare_log, encoding="utf-8", errors="replace") as log:
            said = log.read()
    return report(args, answered, held, said)


def report(args, answered, held, said):
    warnings = [line for line in said.splitlines() if line.startswith("REDRIVE_MOTO_WARNING")]
    compared = [line for line in said.splitlines() if line.startswith("REDRIVE_MOTO_COMPARED")]
    if warnings:
        print("the compare launcher found differences:\n  " + "\n  ".join(warnings[:20]))
        return 1
    serializer = next((line for line in compared if " serializer " in line), "")
    missing = [op for op in SERIALIZED if not re.search(r"[:,] %s \d" % op, serializer)]
    if missing or not any(" query " in line for line in compared) or not any(" expressions " in line
                                                                               for line in compared):
        print("the compare launcher did not compare everything (missing: %s):\n  %s"
              % (", ".join(missing) or "query or expressions", "\n  ".join(compared)))
        return 1
    print("moto, the launcher and its compare mode agree on %d seeded steps (seed %d); answers (ok/error): %s"
          % (args.steps, args.seed, ", ".join("%s %d/%d" % (op, ok, error)
                                              for op, (ok, error) in sorted(answered.items()))))
    print("final state alike on all three: %d items in tables and indexes, %d stream records"
          % (held["Items"], held["Records"]))
    print("\n".join(compared))
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--launcher", default=moto_launcher.LAUNCHER)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--steps", type=int, default=2000)
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
