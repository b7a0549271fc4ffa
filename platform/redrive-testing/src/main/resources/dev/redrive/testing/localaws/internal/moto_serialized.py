"""Redrive's moto launcher: moto's server with every request serialized behind one lock.

moto's stock threaded server is not atomic: two concurrent conditional writes on one DynamoDB key can both
succeed (measured: several violations in 200 rounds x 8 threads; none with this lock). Redrive's correctness
tests depend on conditional writes being atomic, as they are on AWS, so every request runs under one lock.

Binds 127.0.0.1 on a free port chosen by the OS and prints one line, "REDRIVE_MOTO_READY port=<port>", on stdout
once it accepts connections. Exits when its stdin reaches end-of-file, so it never outlives the JVM that started
it, even when that JVM is killed.

DynamoDB transactions roll back from an undo log instead of moto's deep copies (see install_transaction_undo_log);
the line "REDRIVE_MOTO_TRANSACTIONS rollback=<undo-log|deep-copy> moto=<version>" on stdout, before the ready line,
says which one runs. REDRIVE_MOTO_TRANSACTIONS=moto in the environment keeps moto's own. And it stops moto from keeping
every DynamoDB item it ever created (see stop_tracking_dynamodb_items).

It serves DynamoDB faster, each answer byte for byte moto's: answers serialized through shapes compiled once
(compile_dynamodb_serializer), a Query that reads only the items it can keep (query_by_key), each update expression
parsed once (parse_update_expressions_once). The line "REDRIVE_MOTO_SERVING serializer=<compiled|compare|moto>
query=<by-key|compare|moto> expressions=<parsed-once|compare|moto>" on stdout, before the ready line, says which run;
REDRIVE_MOTO_SERIALIZER, REDRIVE_MOTO_QUERY and REDRIVE_MOTO_EXPRESSIONS set to moto keep moto's own, set to compare
run both and report each difference (REDRIVE_MOTO_WARNING) and, at exit, what was compared (REDRIVE_MOTO_COMPARED).

A request's body is read before the lock, so a client that stops halfway through sending one holds up no other request;
a request that holds the lock longer than REDRIVE_MOTO_STALL_SECONDS (60) is reported on stdout in REDRIVE_MOTO_STALLED
lines, with the stack of every thread (see _report_stalls).
"""
import copy
import hashlib
import inspect
import io
import logging
import os
import sys
import threading
import time
import traceback

# ---------------------------------------------------------------------------------------------------------------------
# DynamoDB TransactWriteItems: an undo log of the items a transaction touched, instead of a deep copy of its tables.
#
# moto 5.2.1's DynamoDBBackend.transact_write_items starts with copy.deepcopy(self.tables[name]) of every table the
# transaction names, so that it can swap the copies back in if the transaction is cancelled: every transaction costs
# O(size of its tables), and a run that keeps writing to one table costs O(n^2) (through this server, 10,000 items:
# ~1 s per single-Put transaction, while a conditional PutItem takes ~15 ms; bin/benchmark moto). Behind this
# launcher's one lock, that stalls every other request too.
#
# What the copy protects, read in moto 5.2.1's source: a transaction's Put, Update and Delete change nothing of a table
# but (1) the items in Table.items (a dict of hash key -> Item, or of hash key -> {range key -> Item}); Update mutates
# its Item in place, and creates a missing one through Table.put_item; a lookup of a missing hash key on a table with
# a range key leaves an empty {} behind (Table.items is a defaultdict), and (2) the records that StreamShard.add
# appends to the table's stream shard. Indexes are computed from the items at each read (no projection is stored);
# ItemCount is len(items); TableSizeBytes is a constant 0; TTL is only a setting (moto never expires items); a
# ConditionCheck writes nothing. So the undo log keeps, before each operation runs, a deep copy of the one item it
# names (or that there was none, and whether its hash key had an entry), and for each table the length of its stream
# shard's record list; a cancelled transaction puts those items back and truncates the record lists. Everything else
# is moto's code, line for line: the order of checks, the errors, the cancellation reasons (Code, Message, the ALL_OLD
# Item), the validation errors that roll back and re-raise.
#
# Why in-place undo is safe here: the serializing lock below holds every request, reads included, until its response is
# built, so no other request ever sees a transaction half-applied or half-undone. Without that lock it would not be.
#
# Where it differs from moto's copy, each time for the better and never visible to a correct client:
#   - moto swapped the table object itself for the copy, stream shard included, so a stream reader holding a shard
#     iterator read the cancelled transaction's records from the old shard and never saw a later write; the undo keeps
#     the table and its shard and truncates the records (MotoTransactionsTest shows it);
#   - a table named by its ARN was not copied by moto (the copies are keyed by TableName) and stayed half-written; a
#     TransactItem with two operations raised before any rollback, leaving the ones before it applied. Both roll back.
#   - an item put back after a cancelled Delete sits at the end of Table.items' insertion order; every read sorts by
#     key (all_items, sorted_items), so no answer shows it.
# When it would not be exact it is not used: a table with a Lambda event source mapping (StreamShard.add may then
# empty the record list) goes to moto's own code, per transaction; and at start the undo log is installed only on the
# moto version, and the exact source of every moto function it replaces or relies on, that were reviewed. Otherwise
# moto's deep copy stays (correct, only slow) and a REDRIVE_MOTO_WARNING line on stderr says why.
# ---------------------------------------------------------------------------------------------------------------------

TRANSACTIONS_ENV = "REDRIVE_MOTO_TRANSACTIONS"
REVIEWED_MOTO_VERSION = "5.2.1"
# sha256 of inspect.getsource() of each moto function the undo log replaces or relies on, as reviewed in moto 5.2.1.
REVIEWED_SOURCES = {
    "DynamoDBBackend.transact_write_items": "81db2cb7d94e39c90b3a2077e1f4bb41a449c558ef9b1b1e2910fdaa39978ad4",
    "DynamoDBBackend.get_table": "a738146035fc206b81e0659a004dcc62ae70eb356ef7c5ab771ba68bdd2d7ab0",
    "DynamoDBBackend.get_keys_value": "1f948797496ddc2cd4e4752e29e470d19ce757ca3406e07fed6bd90b331c1caa",
    "DynamoDBBackend.get_item": "290b95c46b38bc5ac8079668e9c449bba9b6b26f4a2872d80ca262115023e189",
    "DynamoDBBackend.put_item": "f5d9a5042c77b89e5f4c88b5884f7966b9dccd95b8b04090ee9e07afc5eea675",
    "DynamoDBBackend.update_item": "218984588dd689a5de81678ce11e6a40d05c91e7b6c21b44c4ed4122fe74aa9f",
    "DynamoDBBackend.delete_item": "083a4bb1af18f6fd2feef40195a4c9c803da66cb2cacd14f87916c6e76930ea5",
    "Table.get_item": "b08e98fe37b7e5836afe03b010d637ef50df5dea6cbecd9cf8816eef326a21cd",
    "Table.put_item": "de23933013ef842639046c19bcf7e418bce0474d810f6719368be4cedce11d47",
    "Table.delete_item": "1594f7b07616c8cb8cdf0fbf58d6f54eeac83f25d7ac7b14e832a08e10efd8f9",
    "StreamShard.add": "357dc6da267e5dd7d46e18ee25d14b232a98679677906a2f02e4d454d1f11e03",
    "Item.__deepcopy__": "7621d16ad7ce49d93f1da0ff2a799ec0ca57b34d30249ef65bc2557c2acc5168",
}


def _warn(message):
    sys.stderr.write("REDRIVE_MOTO_WARNING %s\n" % message)
    sys.stderr.flush()


class _UndoLog:
    """The state, before a transaction, of every item it may change and of the stream of every table it touches."""

    def __init__(self, backend):
        self._backend = backend
        self._items = []  # (table, hash key, range key or None, hash key had an entry, copy of the old item or None)
        self._seen = set()
        self._streams = {}  # id(table) -> (table, shard, its record list, the list's length)

    def remember(self, table_name, key):
        """Call before the operation on this key looks anything up: that lookup may already leave an entry behind."""
        try:
            table = self._backend.get_table(table_name)
            hash_key, range_key = self._backend.get_keys_value(table, key)
        except Exception:  # the operation's own lookup fails the same way, before it writes anything
            return
        seen = (id(table), hash_key, range_key)
        if seen in self._seen:
            return
        self._seen.add(seen)
        if table.range_key_attr is None:
            present = hash_key in table.items
            old = table.items[hash_key] if present else None
            range_key = None
        else:
            bucket = table.items.get(hash_key)  # .get: a lookup through [] would create the entry
            present = bucket is not None
            old = bucket.get(range_key) if present else None
        self._items.append((table, hash_key, range_key, present, copy.deepcopy(old)))
        if id(table) not in self._streams:
            shard = table.stream_shard
            records = shard.items if shard is not None else None
            self._streams[id(table)] = (table, shard, records, len(records) if records is not None else 0)

    def roll_back(self):
        for table, hash_key, range_key, present, old in reversed(self._items):
            if range_key is None:
                if old is None:
                    table.items.pop(hash_key, None)
                else:
                    table.items[hash_key] = old
                continue
            bucket = table.items.get(hash_key)
            if old is not None:
                if bucket is None:
                    bucket = table.items[hash_key]
                bucket[range_key] = old
            elif bucket is not None:
                bucket.pop(range_key, None)
            if not present:
                table.items.pop(hash_key, None)
        for table, shard, records, length in self._streams.values():
            if table.stream_shard is not shard or (shard is not None and shard.items is not records):
                _warn("table %s changed its stream shard during a transaction; its records were not rolled back"
                      % table.name)
            elif records is not None:
                del records[length:]


def _has_lambda_mappings(backend, transact_items):
    for item in transact_items:
        for op in item.values():
            try:
                table = backend.get_table(op.get("TableName"))
            except Exception:
                continue
            if table.lambda_event_source_mappings:
                return True
    return False


def _make_transact_write_items(moto_transact_write_items):
    from moto.dynamodb.comparisons import get_filter_expression
    from moto.dynamodb.exceptions import (
        ConditionalCheckFailed,
        MockValidationException,
        MultipleTransactionsException,
        TooManyTransactionsException,
        TransactionCanceledException,
        TransactWriteSingleOpException,
    )

    def transact_write_items(self, transact_items):
        """moto 5.2.1's DynamoDBBackend.transact_write_items, rolled back by an _UndoLog instead of deep copies."""
        if len(transact_items) > 100:
            raise TooManyTransactionsException()
        if _has_lambda_mappings(self, transact_items):
            return moto_transact_write_items(self, transact_items)
        undo = _UndoLog(self)
        try:
            errors = _apply(self, transact_items, undo)
        except BaseException:
            undo.roll_back()
            raise
        if any(code is not None for code, _, _ in errors):
            undo.roll_back()
            raise TransactionCanceledException(errors)

    def _apply(self, transact_items, undo):
        # From here on, moto's loop as it is, but for undo.remember() and the re-raise without its own rollback.
        target_items = set()

        def check_unicity(table_name, key):
            item = (str(table_name), str(dict(sorted(key.items()))))
            if item in target_items:
                raise MultipleTransactionsException()
            target_items.add(item)

        errors = []  # [(Code, Message, Item), ..]
        for item in transact_items:
            original_item = None
            if len(list(item.keys())) > 1:
                raise TransactWriteSingleOpException

            try:
                op_type, op = next(iter(item.items()))
                if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
                    raise ValueError("Unsupported transaction operation")

                table_name = op["TableName"]
                condition_expression = op.get("ConditionExpression")
                expression_attribute_names = op.get("ExpressionAttributeNames")
                expression_attribute_values = op.get("ExpressionAttributeValues")
                return_values_on_condition_check_failure = op.get("ReturnValuesOnConditionCheckFailure")

                if op_type == "Put":
                    attrs = op["Item"]
                    table = self.get_table(table_name)
                    key = {table.hash_key_attr: attrs[table.hash_key_attr]}
                    if table.range_key_attr is not None:
                        key[table.range_key_attr] = attrs[table.range_key_attr]
                else:
                    key = op["Key"]

                check_unicity(table_name, key)
                undo.remember(table_name, key)

                current = self.get_item(table_name, key)
                if condition_expression is not None:
                    condition_op = get_filter_expression(
                        condition_expression,
                        expression_attribute_names,
                        expression_attribute_values,
                    )
                    if not condition_op.expr(current):
                        if return_values_on_condition_check_failure == "ALL_OLD" and current:
                            original_item = current.to_json()["Attributes"]
                        raise ConditionalCheckFailed(item=original_item)

                if op_type == "Put":
                    attrs = op["Item"]
                    self.put_item(
                        table_name,
                        attrs,
                        condition_expression=condition_expression,
                        expression_attribute_names=expression_attribute_names,
                        expression_attribute_values=expression_attribute_values,
                    )
                elif op_type == "Delete":
                    self.delete_item(
                        table_name,
                        key,
                        condition_expression=condition_expression,
                        expression_attribute_names=expression_attribute_names,
                        expression_attribute_values=expression_attribute_values,
                    )
                elif op_type == "Update":
                    update_expression = op["UpdateExpression"]
                    self.update_item(
                        table_name,
                        key,
                        update_expression=update_expression,
                        condition_expression=condition_expression,
                        expression_attribute_names=expression_attribute_names,
                        expression_attribute_values=expression_attribute_values,
                    )
                errors.append((None, None, None))
            except (MultipleTransactionsException, MockValidationException):
                raise  # the caller rolls back, as moto did here, and re-raises
            except ConditionalCheckFailed as e:
                errors.append(("ConditionalCheckFailed", str(e.message), original_item))
            except Exception as e:  # noqa: E722 as in moto: other errors become cancellation reasons
                errors.append((type(e).__name__, str(e), original_item))
        return errors

    return transact_write_items


def _reviewed_source_mismatch():
    """The first moto function whose source is not the one reviewed, or None."""
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import Item
    from moto.dynamodb.models.table import StreamShard, Table

    owners = {"DynamoDBBackend": DynamoDBBackend, "Table": Table, "StreamShard": StreamShard, "Item": Item}
    for name, digest in REVIEWED_SOURCES.items():
        owner, attribute = name.split(".")
        try:
            source = inspect.getsource(getattr(owners[owner], attribute))
        except (AttributeError, OSError, TypeError) as e:
            return "%s (%s)" % (name, e)
        if _sha256(source) != digest:
            return name
    return None


def _sha256(source):
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def _is_reviewed_source(function, digest):
    """Whether the source of one moto function is the one reviewed (sha256); a source that cannot be read is not."""
    try:
        return _sha256(inspect.getsource(function)) == digest
    except (OSError, TypeError):
        return False


def install_transaction_undo_log():
    """Replaces moto's deep-copy rollback of TransactWriteItems by an _UndoLog when it is safe; returns which runs."""
    import moto

    version = getattr(moto, "__version__", "unknown")
    mode = os.environ.get(TRANSACTIONS_ENV, "undo-log")
    if mode == "moto":
        return "deep-copy", version
    if mode != "undo-log":
        _warn("%s=%s is neither undo-log nor moto; keeping moto's own rollback" % (TRANSACTIONS_ENV, mode))
        return "deep-copy", version
    if version != REVIEWED_MOTO_VERSION:
        _warn("moto %s is not %s, the version the transaction undo log was reviewed against; keeping moto's deep-copy "
              "rollback (correct, but each transaction costs O(table size))" % (version, REVIEWED_MOTO_VERSION))
        return "deep-copy", version
    mismatch = _reviewed_source_mismatch()
    if mismatch is not None:
        _warn("moto's %s is not the source the transaction undo log was reviewed against; keeping moto's deep-copy "
              "rollback (correct, but each transaction costs O(table size))" % mismatch)
        return "deep-copy", version
    from moto.dynamodb.models import DynamoDBBackend

    DynamoDBBackend.transact_write_items = _make_transact_write_items(DynamoDBBackend.transact_write_items)
    return "undo-log", version



# ---------------------------------------------------------------------------------------------------------------------
# Routing: moto lists its own package folder twice for every request.
#
# moto 5.2.1's DomainDispatcherApplication.get_backend_for_host asks `host in backends.list_of_moto_modules()` for
# every request it routes (twice per request here), and list_of_moto_modules lists moto's package folder and stats each
# of its ~150 entries each time. A profile of a 300-order chaos run (REDRIVE_MOTO_PROFILE below) put it at about a tenth
# of moto's time: 296,716 calls for 5,075 requests, with 6,730 listdir and 322,624 stat system calls. The folder
# cannot change while the server runs, so the launcher lists it once. Installed only on the reviewed source;
# REDRIVE_MOTO_ROUTING=moto keeps moto's own (for a side-by-side measurement: bin/benchmark moto-routing).
# ---------------------------------------------------------------------------------------------------------------------

ROUTING_ENV = "REDRIVE_MOTO_ROUTING"
REVIEWED_LIST_OF_MOTO_MODULES = "4f741a10b06500e840c3aaa1b4f02706e6f2bfbababc0e8a2a7b9c9d0e8957dc"


def list_moto_modules_once():
    """Makes moto's list of its own modules a tuple computed once; returns "listed-once" or "moto" (what runs)."""
    import moto.backends as backends

    if os.environ.get(ROUTING_ENV, "listed-once") == "moto":
        return "moto"
    if not _is_reviewed_source(backends.list_of_moto_modules, REVIEWED_LIST_OF_MOTO_MODULES):
        _warn("moto's list_of_moto_modules is not the source that was reviewed; moto keeps listing its package folder "
              "for every request")
        return "moto"
    modules = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: modules
    return "listed-once"


def _first_unreviewed(objects, digests):
    """The name of the first of these moto objects (name -> class or function) whose source is not the one reviewed
    (digests: name -> sha256 of its inspect.getsource()), or None."""
    for name, digest in digests.items():
        if not _is_reviewed_source(objects.get(name), digest):
            return name
    return None


# ---------------------------------------------------------------------------------------------------------------------
# Responses: DynamoDB's answers serialized without moto's generic attribute picker.
#
# moto 5.2.1 serializes every answer through a serializer driven by the botocore model (moto/core/serialize.py). For
# each member of each structure it meets, AttributeValue included, it builds an AttributePickerContext, asks six alias
# providers for the names the value may have (each alias also through botocore's xform_name), tries them in turn, and
# dispatches on the member's type by name. An item of ten attributes costs hundreds of such calls; a Query page of them
# tens of thousands. A profile of a 1,000-order chaos run put this at about a quarter of moto's time (3 M calls of
# get_possible_keys for 13,690 answers).
#
# The names a member may be found under depend only on the model (the member, its shape, its parent structure) and on
# the class of the value it is read from; for a plain dict (moto's DynamoDB answers are plain dicts, lists, strings,
# numbers and bytes: DynamoResult converts them) that class is always dict. So the launcher asks moto's own picker once
# per member, with an empty dict, for that list of names, and keeps it; and it compiles each shape of the DynamoDB and
# DynamoDB Streams models into a small writer that does what moto's serializer does for that type, step for step: the
# same member order, the same first name found, the same skipping of None, the same int()/float()/base64 conversions,
# the same list and map wrappers. Everything else stays moto's: the response dict, status and headers, the JSON
# encoding; a value that is not a plain dict where a structure is expected (an object: moto's picker reads its
# attributes) goes through moto's own code for that structure, and so do timestamps, any shape with serialization
# traits and any member whose reference carries traits other than its documentation (botocore copies a shape for a
# member with traits; documentation is read by no serializer). The writers build the very same dict moto's serializer
# would, so the JSON bytes are the same. DynamoDB's errors never reach a serializer: moto raises them with their JSON
# body already written (ConditionalCheckFailed's ALL_OLD item, TransactionCanceledException's reasons): unchanged.
#
# It holds only while moto's picker is the one reviewed: its alias providers, in their order, and no response
# transformers (moto's ECS handler adds some to a dict it shares with every handler: then moto's serializer runs).
# The writers keep no state between answers; they are compiled on first use, under the launcher's lock, so no two
# requests fill their table at once. REDRIVE_MOTO_SERIALIZER=moto keeps moto's serializer for every answer; =compare
# serializes every DynamoDB answer both ways, sends moto's, and writes a REDRIVE_MOTO_WARNING line for any difference
# (moto_serving_differential.py runs a seeded corpus through both, and through this compare mode).
# ---------------------------------------------------------------------------------------------------------------------

SERIALIZER_ENV = "REDRIVE_MOTO_SERIALIZER"
COMPILED_SERVICES = ("dynamodb", "dynamodbstreams")
REVIEWED_ALIAS_PROVIDERS = (
    "ExplicitAlias", "ShapeNameAlias", "NoAlias", "ShapePrefixAlias", "ClassPrefixAlias", "ModelAlias")
REVIEWED_SERIALIZER_SOURCES = {
    "ResponseSerializer": "345161e3f8b46a2b9c2fdaf3c877845f9619aa59c7e358e9874fcf9b25a7c57b",
    "BaseJSONSerializer": "edca15cee5a48cae5967bb188d8e17436de70b14d0c8addec81b43f2b509b65a",
    "JSONSerializer": "04f705560cd6231a831b0674cf05f566d1b5f13c2819709351b9f27266759def",
    "AttributePickerContext": "d5205d10014f2294dcd3efd644e73d19c11f995b08f3d52ede9adb85576fcf52",
    "AttributePicker": "de1006e71db016d40df90ccc3de44b881c75d5cc15a7e01b2467c9f60d6be4a3",
    "XFormedAttributePicker": "198e800d0a4d84e45f678bb73bbb888c702ff838f91d3d9595504e807a09c7de",
    "ExplicitAlias": "50e6df2c5ef1bb8c32e68a5c1182475f9d8410357bcc7345c4d9a67591898b91",
    "NoAlias": "54b6a9dd71d3de735461647c699fe3a2cfb79d584f6b744a328b9cfe3f7fd0e5",
    "ModelAlias": "dc305f0cc88422f9b7657a3115a488665befc6e934a38331d16a6cd9ad8cc554",
    "ShapePrefixAlias": "bc24d299803babd2f2be87fc05993e6c9beb9a16a6b5bf40e08e90b13c269741",
    "ClassPrefixAlias": "badfb8d077e500ff236ef92b2e0394ca14430e7068e3ab4f719a014328b52238",
    "ShapeNameAlias": "3aac05bf01b44d5c9b9a24488b0f85ecf0b95191d7e2c1a52fc25af44d86ce6c",
    "get_serializer_class": "198a4094b5031323e8d6621f3aae9fe86859865027348d6c2205f4097f2a4167",
    "get_value": "9b06b87ce416131ecb2924b3d067f2f4950e8ca3a06e5ce3a03d17ca2f0bd3dc",
    "_get_value_for_keys": "6eac2b694d3b596b4386c3157fd0828469b620ad3e08f57a6ef0f1a8e6b6817d",
    "_get_value_for_key": "563aa7bc75bd5bb00e8ec1a83d50632f117017699b52161e0467c029b50c10f8",
    "ActionResult.execute_result": "6333faa349b58671258985778d2aaf02d31e0617aae380442e4c683c36ab248d",
    "BaseResponse.serialized": "af486a0ef132716231d3a6484c32ae91a54b40fbc1d24fff01c78c813d251110",
}


def _serving_mode(variable, faster, moto_s):
    """What the environment variable asks of one serving change: faster (its default), "compare" or "moto"; anything
    else is warned about and keeps moto's."""
    mode = os.environ.get(variable, faster)
    if mode in (faster, "compare", "moto"):
        return mode
    _warn("%s=%s is neither %s, compare nor moto; keeping %s" % (variable, mode, faster, moto_s))
    return "moto"


def _serializer_objects():
    import moto.core.responses as responses
    import moto.core.serialize as serialize
    import moto.core.utils as utils

    objects = {name: getattr(serialize, name, None) for name in REVIEWED_SERIALIZER_SOURCES}
    for name in ("get_value", "_get_value_for_keys", "_get_value_for_key"):
        objects[name] = getattr(utils, name, None)
    objects["ActionResult.execute_result"] = getattr(responses.ActionResult, "execute_result", None)
    objects["BaseResponse.serialized"] = getattr(responses.BaseResponse, "serialized", None)
    return objects


class _Assign:
    """moto's _default_serialize: the value as it is (strings, booleans)."""

    def write(self, serializer, serialized, value, key):
        serialized[key] = value


class _Blob:
    def write(self, serializer, serialized, value, key):
        serialized[key] = serializer._base64(value)


class _Integer:
    def write(self, serializer, serialized, value, key):
        serialized[key] = int(value)


class _Float:
    def write(self, serializer, serialized, value, key):
        serialized[key] = float(value)


class _ByMoto:
    """A shape moto serializes itself (timestamps, shapes with serialization traits, references with member traits)."""

    def __init__(self, shape, json_serializer):
        self._shape = shape
        self._serialize = json_serializer._serialize

    def write(self, serializer, serialized, value, key):
        self._serialize(serializer, serialized, value, self._shape, key)


class _Structure:
    """moto's _serialize_type_structure for a plain dict, with each member's names to look for computed once."""

    def __init__(self, shape, json_serializer):
        self.shape = shape
        self._serialize = json_serializer._serialize
        self.members = []  # (member name, writer) in the model's order
        self.index = {}  # a name a member may be found under -> ((member position, rank among its names),)

    def write(self, serializer, serialized, value, key):
        if value is None:
            return
        if type(value) is not dict:  # an object (an exception, a model): moto's picker reads its attributes
            self._serialize(serializer, serialized, value, self.shape, key)
            return
        wrapper = {} if key else serialized
        chosen = {}  # member position -> (rank, the name found)
        index = self.index
        for name in value:
            hits = index.get(name)
            if hits is not None:
                for position, rank in hits:
                    found = chosen.get(position)
                    if found is None or rank < found[0]:
                        chosen[position] = (rank, name)
        if chosen:
            members = self.members
            for position in sorted(chosen):
                member_value = value[chosen[position][1]]
                if member_value is not None:
                    member_key, writer = members[position]
                    writer.write(serializer, wrapper, member_value, member_key)
        if key:
            serialized[key] = wrapper


class _List:
    """moto's BaseJSONSerializer._serialize_type_list."""

    def __init__(self, item_key):
        self.item_key = item_key
        self.member = None

    def write(self, serializer, serialized, value, key):
        item_key = self.item_key
        member = self.member
        list_obj = []
        for list_item in value:
            wrapper = {}
            member.write(serializer, wrapper, list_item, item_key)
            list_obj.append(wrapper[item_key] if item_key in wrapper else list_item)
        serialized[key] = list_obj


class _Map:
    """moto's BaseJSONSerializer._serialize_type_map."""

    def __init__(self):
        self.value = None

    def write(self, serializer, serialized, value, key):
        map_obj = {}
        serialized[key] = map_obj
        writer = self.value
        for sub_key, sub_value in value.items():
            writer.write(serializer, map_obj, sub_value, sub_key)


def _same_but_documentation(model, definition):
    """Whether a shape's model is its definition but for a documentation string: botocore copies the definition when
    the member that refers to it carries traits of its own, and most output members carry only documentation, which
    no serializer reads."""
    if definition is None:
        return False
    keys = model.keys() - {"documentation"}
    if keys != definition.keys() - {"documentation"}:
        return False
    return all(model[k] is definition[k] or model[k] == definition[k] for k in keys)


class _CompiledShapes:
    """The writers of one service model's shapes, compiled on first use, by shape name."""

    def __init__(self, service_model, json_serializer):
        from moto.core.serialize import (
            AttributePickerContext,
            BaseJSONSerializer,
            ResponseSerializer,
            XFormedAttributePicker,
        )

        self._definitions = service_model._shape_resolver._shape_map
        self._json_serializer = json_serializer
        self._writers = {}
        self._picker = XFormedAttributePicker(response_transformers={})
        self._context = AttributePickerContext
        self._by_method = {
            None: _Assign,
            ResponseSerializer._serialize_type_blob: _Blob,
            ResponseSerializer._serialize_type_integer: _Integer,
            ResponseSerializer._serialize_type_float: _Float,
        }
        self._containers = {
            BaseJSONSerializer._serialize_type_structure: "structure",
            BaseJSONSerializer._serialize_type_list: "list",
            BaseJSONSerializer._serialize_type_map: "map",
        }

    def writer(self, shape):
        """The writer of a shape that is its model definition (a member's documentation aside), or None."""
        model = shape._shape_model
        definition = self._definitions.get(shape.name)
        if model is not definition and not _same_but_documentation(model, definition):
            return None
        writer = self._writers.get(shape.name)
        if writer is None:
            writer = self._compile(shape)
        return writer

    def _child(self, shape):
        writer = self.writer(shape)
        return writer if writer is not None else _ByMoto(shape, self._json_serializer)

    def _compile(self, shape):
        method = getattr(self._json_serializer, "_serialize_type_" + shape.type_name, None)
        container = self._containers.get(method)
        if shape.serialization or (container is None and method not in self._by_method):
            writer = _ByMoto(shape, self._json_serializer)
            self._writers[shape.name] = writer
            return writer
        if container is None:
            writer = self._by_method[method]()
            self._writers[shape.name] = writer
            return writer
        if container == "list":
            writer = _List(shape.member.name)
            self._writers[shape.name] = writer  # before its parts: shapes nest (AttributeValue, MapAttributeValue)
            writer.member = self._child(shape.member)
            return writer
        if container == "map":
            writer = _Map()
            self._writers[shape.name] = writer
            writer.value = self._child(shape.value)
            return writer
        return self._compile_structure(shape)

    def _compile_structure(self, shape):
        members = []  # (member name, its shape, the names moto's picker looks for it under, in order)
        for member_key, member_shape in shape.members.items():
            member_shape.parent = shape  # as moto's _serialize_type_structure sets it before it picks a value
            names = list(self._picker.get_possible_keys(self._context(obj={}, key=member_key, shape=member_shape)))
            members.append((member_key, member_shape, names))
        if shape.is_document_type or any(  # moto's get_value reads a name with a dot as a path
                not isinstance(name, str) or "." in name for _, _, names in members for name in names):
            writer = _ByMoto(shape, self._json_serializer)
            self._writers[shape.name] = writer
            return writer
        writer = _Structure(shape, self._json_serializer)
        self._writers[shape.name] = writer  # before its members: shapes nest (AttributeValue, MapAttributeValue)
        for position, (member_key, member_shape, names) in enumerate(members):
            for rank, name in enumerate(names):
                hits = writer.index.setdefault(name, ())
                if not any(p == position for p, _ in hits):  # a name repeated: its first rank counts
                    writer.index[name] = hits + ((position, rank),)
            writer.members.append((member_key, self._child(member_shape)))
        return writer


def _make_compiled_serializer(json_serializer):
    """A subclass of moto's JSONSerializer whose walk over the answer uses _CompiledShapes when moto's picker is the
    one reviewed, and moto's own walk otherwise."""
    import moto.core.serialize as serialize

    compiled = {}  # id(service model) -> _CompiledShapes; moto caches one service model per service
    reviewed_providers = tuple(serialize.DEFAULT_ALIAS_PROVIDERS)

    class CompiledShapesSerializer(json_serializer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            picker = self._value_picker
            self._shapes = None
            if (type(picker) is serialize.XFormedAttributePicker
                    and not picker.response_transformers
                    and picker.alias_providers is serialize.DEFAULT_ALIAS_PROVIDERS
                    and tuple(serialize.DEFAULT_ALIAS_PROVIDERS) == reviewed_providers):
                shapes = compiled.get(id(self.service_model))
                if shapes is None:
                    shapes = compiled[id(self.service_model)] = (self.service_model,
                                                                 _CompiledShapes(self.service_model, json_serializer))
                self._shapes = shapes[1]

        def _serialize(self, serialized, value, shape, key):
            writer = self._shapes.writer(shape) if self._shapes is not None else None
            by_moto = writer is None or isinstance(writer, _ByMoto)
            if by_moto or (type(value) is not dict and isinstance(writer, _Structure)):
                json_serializer._serialize(self, serialized, value, shape, key)  # with the shape as moto was given it
            else:
                writer.write(self, serialized, value, key)

    return CompiledShapesSerializer


class _SerializerComparison:
    """REDRIVE_MOTO_SERIALIZER=compare: each answer serialized by moto and by the compiled shapes; moto's is sent."""

    def __init__(self):
        self.compared = {}  # operation -> answers compared
        self.differing = {}  # operation -> answers that differed

    def make(self, json_serializer, compiled_serializer):
        comparison = self

        class ComparingSerializer(json_serializer):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self._by_compiled_shapes = compiled_serializer(*args, **kwargs)

            def serialize(self, result):
                expected = super().serialize(result)
                actual = self._by_compiled_shapes.serialize(result)
                comparison.record(self.operation_name, expected, actual)
                return expected

        return ComparingSerializer

    def record(self, operation, expected, actual):
        self.compared[operation] = self.compared.get(operation, 0) + 1
        if (expected["status_code"], dict(expected["headers"]), expected["body"]) != (
                actual["status_code"], dict(actual["headers"]), actual["body"]):
            self.differing[operation] = self.differing.get(operation, 0) + 1
            _warn("serializer: the compiled shapes answered %s differently from moto (status %s/%s, %d/%d bytes)"
                  % (operation, expected["status_code"], actual["status_code"], len(expected["body"]),
                     len(actual["body"])))


SERIALIZER_COMPARISON = _SerializerComparison()


def _botocore_model_unreadable(json_serializer):
    """Why the compiled shapes cannot be built from botocore's model of each compiled service (they read its private
    _shape_resolver._shape_map and each shape's _shape_model), or None: every output shape is compiled once here, so
    that a botocore that keeps its model otherwise is found at start, not at the first answer. On moto's own model: the
    compiling sets each member shape's parent, as moto's serializer does before it picks any member's value."""
    from moto.core.utils import get_service_model

    try:
        for service in COMPILED_SERVICES:
            model = get_service_model(service)
            shapes = _CompiledShapes(model, json_serializer)
            for operation in model.operation_names:
                output = model.operation_model(operation).output_shape
                if output is not None and shapes.writer(output) is None:
                    return "the output of %s %s is not its model's definition" % (service, operation)
    except Exception as e:  # noqa: any failure means the model is not the one reviewed
        return "%s: %s" % (type(e).__name__, e)
    return None


def compile_dynamodb_serializer():
    """Serializes DynamoDB and DynamoDB Streams answers through compiled shapes when it is safe; returns which runs:
    "compiled", "compare" or "moto"."""
    import moto.core.responses as responses
    import moto.core.serialize as serialize

    mode = _serving_mode(SERIALIZER_ENV, "compiled", "moto's serializer")
    if mode == "moto":
        return "moto"
    unreviewed = _first_unreviewed(_serializer_objects(), REVIEWED_SERIALIZER_SOURCES)
    if unreviewed is None and tuple(c.__name__ for c in serialize.DEFAULT_ALIAS_PROVIDERS) != REVIEWED_ALIAS_PROVIDERS:
        unreviewed = "DEFAULT_ALIAS_PROVIDERS"
    if unreviewed is not None or responses.get_serializer_class is not serialize.get_serializer_class:
        _warn("moto's %s is not the source that was reviewed; DynamoDB answers keep moto's generic serializer"
              % (unreviewed or "get_serializer_class in moto.core.responses"))
        return "moto"
    json_serializer = serialize.JSONSerializer
    unreadable = _botocore_model_unreadable(json_serializer)
    if unreadable is not None:
        _warn("the compiled shapes cannot read botocore's model (%s); DynamoDB answers keep moto's generic serializer"
              % unreadable)
        return "moto"
    serializer = _make_compiled_serializer(json_serializer)
    if mode == "compare":
        serializer = SERIALIZER_COMPARISON.make(json_serializer, serializer)
    moto_get_serializer_class = responses.get_serializer_class

    def get_serializer_class(service_name, protocol):
        chosen = moto_get_serializer_class(service_name, protocol)
        return serializer if chosen is json_serializer and service_name in COMPILED_SERVICES else chosen

    responses.get_serializer_class = get_serializer_class
    return mode


# ---------------------------------------------------------------------------------------------------------------------
# Query: moto sorts every item of a table for every Query.
#
# moto 5.2.1's Table.query starts from self.all_items(), which sorts every item of the table by its primary key
# (DynamoType comparisons, each through cast_value), and only then keeps the items of the queried partition (base table)
# or of the index's partition (index): O(n log n) per Query, whatever it returns. On the orders table of a 10,000-order
# chaos run (~60,000 items) that is seconds per Query, under the lock.
#
# The launcher gives that one Query an all_items() that returns only the items the query can keep, in the order
# all_items() gives them, and runs moto's query as it is: its filters, its second sort, ScanIndexForward, Limit,
# ExclusiveStartKey, LastEvaluatedKey, the 1 MB page, projections and filter expressions see the same items in the same
# order. The items are found by moto's own all_items() run over a view of the table that holds only them (in the
# table's own order, which all_items' stable sort keeps for ties), so the order is moto's by construction:
#   - base table: the partition's bucket, table.items.get(hash key). moto keeps the items whose hash_key == the queried
#     key; Table.items is a dict keyed by each item's hash key (DynamoType: __hash__ and __eq__ both on the type and
#     the cast value), so those are exactly the items of that bucket (.get creates no entry, as all_items() did not);
#   - index: the items whose value of each hash-key condition of type S is that string (moto keeps an item only if
#     item.attrs[name] == the value: same type, and for S the cast value is the string itself; a name given twice
#     keeps its last value, in moto's dict and here); every other condition (N, B...) is left to moto's own loop,
#     which still runs over the candidates;
#   - a query that names no key (moto compares against None and fails), or a key whose hash raises, reads the table as
#     moto does.
# Why the order of the rest does not matter: all_items() sorts by primary key, and a table's keys are always of its
# declared types (put_item refuses others; numbers must be finite), so every key compares with every other and the full
# sort would not have raised; a sort of a subset in the table's order returns that subset in the full sort's order.
#
# Safe because of the lock: the view and the all_items() it installs live only while this one query runs; no other
# request sees the table meanwhile, and nothing else Table.query calls reads all_items() (reviewed with it). Installed
# only on the reviewed sources; REDRIVE_MOTO_QUERY=moto keeps moto's query;
# REDRIVE_MOTO_QUERY=compare runs moto's query too on every Query and writes a REDRIVE_MOTO_WARNING line when the items
# (in order), the scanned count or the LastEvaluatedKey differ.
# ---------------------------------------------------------------------------------------------------------------------

QUERY_ENV = "REDRIVE_MOTO_QUERY"
REVIEWED_QUERY_SOURCES = {
    "Table.query": "002b4d00be6df07cf37f6cbe0132e5eb89455ae12a8e79b23db3fb492450f21e",
    "Table.all_items": "c80d2ee3c896acd0cab6ca35aaeae3ab3fb65858933f8a3403d4e027c240f31d",
    "Table.put_item": "de23933013ef842639046c19bcf7e418bce0474d810f6719368be4cedce11d47",
    "Table.delete_item": "1594f7b07616c8cb8cdf0fbf58d6f54eeac83f25d7ac7b14e832a08e10efd8f9",
    "Table.get_item": "b08e98fe37b7e5836afe03b010d637ef50df5dea6cbecd9cf8816eef326a21cd",
    # what Table.query calls on the table: none of them may read self.all_items() (it holds only this query's items)
    "Table.all_indexes": "d25d107f3076aaa59a23288f7c5e39aa3796a6bc4c6f0419e17a6ed0771c4a66",
    "Table.get_index": "ff67e32e9ee4a47e7e7a3814bbc4ef54be2e3aaba6a869694fa321b4f69afe32",
    "Table.sorted_items": "216dac1cd6b659d283e91006b809136623723efb90125b015e07052478724937",
    "Table._generate_attr_to_sort_by": "afef70e159fa8cb505cc030b323479b7ce105060c9eeecbce102247e41f302b2",
    "Table._item_comes_before_dct": "6d70f41f7cb059f40e932e9c6c13cc57b6052c5d025c51235df414adf172bee1",
    "Table._get_last_evaluated_key": "2d0fae62fcd41aaebd8a04b503ebab88aa607883932c661dd4f98a2b4f29a9d3",
    "DynamoDBBackend.query": "b8f2b308cd13edb48bb59ab0321ec3f935605629acb1d1ed634ba9f2bbcb107e",
    "DynamoType.__hash__": "4d37bb816dede3221cef85255e0338002372cbad3899909b4b2a7532f7197f05",
    "DynamoType.__eq__": "48f12362c49f00c1138f550163b14b9c2f3bf0a50f0f907f426510a0417052c1",
    "DynamoType.cast_value": "135da387dfcc7c1ca4930a6d64b5c474519422983cc2a4d03b37b716d090ae0c",
}


def _query_objects():
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table

    return {
        "Table.query": Table.query,
        "Table.all_items": Table.all_items,
        "Table.put_item": Table.put_item,
        "Table.delete_item": Table.delete_item,
        "Table.get_item": Table.get_item,
        "Table.all_indexes": Table.all_indexes,
        "Table.get_index": Table.get_index,
        "Table.sorted_items": Table.sorted_items,
        "Table._generate_attr_to_sort_by": Table._generate_attr_to_sort_by,
        "Table._item_comes_before_dct": Table._item_comes_before_dct,
        "Table._get_last_evaluated_key": Table._get_last_evaluated_key,
        "DynamoDBBackend.query": DynamoDBBackend.query,
        "DynamoType.__hash__": DynamoType.__hash__,
        "DynamoType.__eq__": DynamoType.__eq__,
        "DynamoType.cast_value": DynamoType.cast_value.fget,
    }


class _TableView:
    """What Table.all_items() reads of a table (items, range_key_attr), holding only some of its items."""

    def __init__(self, table, items):
        self.range_key_attr = table.range_key_attr
        if table.range_key_attr is None:
            self.items = dict(enumerate(items))
        else:
            self.items = {0: dict(enumerate(items))}


def _query_candidates(table, hash_key, index_name, hash_key_conditions, all_items):
    """The items of the table a Query can keep, in the order table.all_items() gives them; None to read them all."""
    if index_name is None:
        if hash_key is None:
            return None
        try:
            bucket = table.items.get(hash_key)
        except Exception:  # an unhashable key value: moto's own comparisons decide what happens
            return None
        if bucket is None:
            items = []
        elif table.range_key_attr is None:
            items = [bucket]
        else:
            items = list(bucket.values())
    else:
        # a dict, as moto builds it: a name given twice keeps its last value
        conditions = dict(hash_key_conditions or ())
        strings = [(name, value.value) for name, value in conditions.items() if value.type == "S"]
        if not strings:
            return None
        items = []
        for bucket in table.items.values():
            for item in (bucket.values() if table.range_key_attr is not None else (bucket,)):
                attrs = item.attrs
                for name, string in strings:
                    value = attrs.get(name)
                    if value is None or value.type != "S" or value.value != string:
                        break
                else:
                    items.append(item)
    return all_items(_TableView(table, items))


class _Comparison:
    """In a compare mode: how many times moto's way and the launcher's were compared, and how many differed."""

    def __init__(self):
        self.compared = 0
        self.differing = 0

    def record(self, same, warning):
        """Counts one comparison; a difference also writes a REDRIVE_MOTO_WARNING line (warning: a function of nothing
        that says what differed)."""
        self.compared += 1
        if not same:
            self.differing += 1
            _warn(warning())


def _query_answer(result):
    items, scanned, last_key = result
    keys = None if last_key is None else sorted((k, repr(v)) for k, v in last_key.items())
    return [str(item.to_json()) for item in items], scanned, keys


QUERY_COMPARISON = _Comparison()


def _make_query(moto_query, all_items, comparison=None):
    def query(self, hash_key, range_comparison, range_objs, limit, exclusive_start_key, scan_index_forward,
              projection_expressions, index_name=None, consistent_read=False, filter_expression=None,
              hash_key_conditions=None, range_key_conditions=None, **filter_kwargs):
        """moto 5.2.1's Table.query, reading only the items it can keep (see _query_candidates)."""
        arguments = (hash_key, range_comparison, range_objs, limit, exclusive_start_key, scan_index_forward,
                     projection_expressions, index_name, consistent_read, filter_expression)
        keywords = dict(filter_kwargs, hash_key_conditions=hash_key_conditions,
                        range_key_conditions=range_key_conditions)
        candidates = _query_candidates(self, hash_key, index_name, hash_key_conditions, all_items)
        if candidates is None:
            return moto_query(self, *arguments, **keywords)
        self.all_items = lambda: candidates  # this query's only: an instance attribute over Table.all_items
        try:
            result = moto_query(self, *arguments, **keywords)
        finally:
            del self.all_items
        if comparison is not None:
            expected = moto_query(self, *arguments, **keywords)
            comparison.record(_query_answer(expected) == _query_answer(result), lambda: (
                "query: the keyed query of table %s kept other items than moto's (%d/%d items)"
                % (self.name, len(expected[0]), len(result[0]))))
        return result

    return query


def query_by_key():
    """Makes a DynamoDB Query read only the items it can keep; returns "by-key", "compare" or "moto" (what runs)."""
    from moto.dynamodb.models.table import Table

    mode = _serving_mode(QUERY_ENV, "by-key", "moto's query")
    if mode == "moto":
        return "moto"
    unreviewed = _first_unreviewed(_query_objects(), REVIEWED_QUERY_SOURCES)
    if unreviewed is not None:
        _warn("moto's %s is not the source that was reviewed; every Query keeps sorting its whole table" % unreviewed)
        return "moto"
    Table.query = _make_query(Table.query, Table.all_items, QUERY_COMPARISON if mode == "compare" else None)
    return mode


# ---------------------------------------------------------------------------------------------------------------------
# Update expressions: moto parses each UpdateExpression twice per UpdateItem and rebuilds its processors' tables for
# every node it visits.
#
# moto 5.2.1 parses an UpdateExpression string into an AST (UpdateExpressionParser.make: tokenizer and recursive-descent
# parser) in DynamoHandler.update_item (to find the names and values it uses), again in DynamoDBBackend.update_item, and
# in DynamoHandler.transact_write_items for each Update. Redrive sends a handful of distinct expressions, millions of
# times. The launcher keeps the AST of each expression string (at most 1,000; a string that fails to parse is parsed
# again each time, and raises the same error) and hands the same AST to every caller. That is safe because no caller
# changes it, read in the reviewed sources: the handler's two callers only read it (Node.find_clauses and the
# placeholders' getters), and the backend passes it to UpdateExpressionValidator, whose Validator.__init__ deep-copies
# it before any processor runs (normalize() and the processors change the copy). The parse is a function of the string
# alone.
#
# Then the validator runs ten DepthFirstTraversers over the copy; for every node each asks nodes_to_be_processed() and
# process(), which both call _processing_map(), which builds a new dict of the processor's node classes and bound
# methods each time. The ten reviewed _processing_map()s return a literal dict, the same for the life of the processor
# (a processor lives for one validation): the launcher keeps it on the processor the first time it is asked.
#
# REDRIVE_MOTO_EXPRESSIONS=moto keeps moto's; =compare parses again at every use and writes a REDRIVE_MOTO_WARNING
# line if the kept AST no longer has the structure of a fresh parse.
# ---------------------------------------------------------------------------------------------------------------------

EXPRESSIONS_ENV = "REDRIVE_MOTO_EXPRESSIONS"
PARSED_EXPRESSIONS_KEPT = 1000
REVIEWED_EXPRESSION_SOURCES = {
    "UpdateExpressionParser.make": "2c00ed96d6e191f243b449166e75bfb38f307b2e19405bc0981847061e0dbee3",
    "DynamoHandler.update_item": "044f932aa7b40a25f16b72e053597ed87227b755e45b0abbc621e14e6dea092b",
    "DynamoHandler.transact_write_items": "968414dfa1469e76c58d335ee6b4f63ebbf47028c59b04745c354e536e6303e2",
    "DynamoDBBackend.update_item": "218984588dd689a5de81678ce11e6a40d05c91e7b6c21b44c4ed4122fe74aa9f",
    "Validator.__init__": "9489b532dd0fb359e273711c1a67971f1b73af47ddbaa91868e9cc42a26ddbb3",
    "Node.find_clauses": "b77be7ac447d7617ea68e818e2bceb652a8a14257001715c64b36b3244a04c55",
    "DepthFirstTraverser.nodes_to_be_processed": "1c2c84c8097e35172d289d2cc30029d2d1c518f7680232a3f3c9f09e56a5e9b0",
    "DepthFirstTraverser.process": "58328ec7c2f9b1f96244bf498dd0ca6d91e2fd83ea57a82f6190997b8d1f9d51",
    "DepthFirstTraverser.traverse_node_recursively": "d7f01d9b45cf9f64ac84751ec4c8cab3114e7c179350eb1b81ffe5f0a114aa78",
    "ActionCountValidator._processing_map": "18efe0644265d711cfa5bc8a97298b0cd997515a3f8853b99fdca0aaac76e412",
    "EmptyStringKeyValueValidator._processing_map": "2c47430d926eba387635d5be3a434e779bfd9bef4efd97d8632263fc77fdc9ea",
    "ExecuteOperations._processing_map": "e60064603958af82ccbbc5a239aecedd114897b076f190f73536c58e6203d6ec",
    "ExpressionAttributeResolvingProcessor._processing_map":
        "e0db7e67c8377b4b76514f34204163e2b8dfc8a53bc84d0b977d7e91a59ab133",
    "ExpressionAttributeValueProcessor._processing_map":
        "ba7ac722dd99eda01207af494ec65d6cab29e62379c3b7360713154742389d31",
    "NoneExistingPathChecker._processing_map": "84f5f73e1879cce603085caa3e26ee64a621546560220ff3f41e398137c20b65",
    "OverlappingPathsValidator._processing_map": "3a8f70105fee888289fa7c9e05620fb55c8368ce6f5aefccf66e5f931038c941",
    "TypeMismatchValidator._processing_map": "55798dad6e83982ffeecbfeb9d1db1d132d2a031d2c32c6e56cc664e8f71c7f1",
    "UpdateExpressionFunctionEvaluator._processing_map":
        "963e6192c63605a1a49c46f9278db55954f46bc33ded8658de1ba18ffe75f0f9",
    "UpdateHashRangeKeyValidator._processing_map": "df2a9d35f957e81493103e3ad1fc57e583d18ca22ae35d44522eb1554f0bd6a2",
}


def _traversers():
    """Every subclass of moto's DepthFirstTraverser, by name."""
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser

    found, pending = {}, [DepthFirstTraverser]
    while pending:
        for sub in pending.pop().__subclasses__():
            found[sub.__name__] = sub
            pending.append(sub)
    return found


def _expression_objects():
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser, Node
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser
    from moto.dynamodb.parsing.validators import Validator
    from moto.dynamodb.responses import DynamoHandler

    objects = {
        "UpdateExpressionParser.make": UpdateExpressionParser.make,
        "DynamoHandler.update_item": DynamoHandler.update_item,
        "DynamoHandler.transact_write_items": DynamoHandler.transact_write_items,
        "DynamoDBBackend.update_item": DynamoDBBackend.update_item,
        "Validator.__init__": Validator.__init__,
        "Node.find_clauses": Node.find_clauses,
        "DepthFirstTraverser.nodes_to_be_processed": DepthFirstTraverser.nodes_to_be_processed,
        "DepthFirstTraverser.process": DepthFirstTraverser.process,
        "DepthFirstTraverser.traverse_node_recursively": DepthFirstTraverser.traverse_node_recursively,
    }
    for name, traverser in _traversers().items():
        objects[name + "._processing_map"] = traverser.__dict__.get("_processing_map")
    return objects


def _ast_structure(node):
    """A node's structure: its class, its attributes but its parent, and its children's, for comparing two ASTs."""
    from moto.dynamodb.parsing.ast_nodes import Node

    if isinstance(node, Node):
        return (type(node).__name__,
                tuple(sorted((k, repr(v)) for k, v in vars(node).items() if k not in ("parent", "children"))),
                tuple(_ast_structure(child) for child in node.children or ()))
    return type(node).__name__, repr(node)


EXPRESSION_COMPARISON = _Comparison()


def _make_parse_once(moto_make, parser_class, comparison=None):
    parsed = {}

    def make(cls, expression_str):
        if cls is not parser_class or type(expression_str) is not str:
            return moto_make.__func__(cls, expression_str)
        ast = parsed.get(expression_str)
        if ast is None:
            ast = moto_make.__func__(cls, expression_str)  # raises, and keeps nothing, when it does not parse
            if len(parsed) < PARSED_EXPRESSIONS_KEPT:
                parsed[expression_str] = ast
        elif comparison is not None:
            fresh = moto_make.__func__(cls, expression_str)
            comparison.record(_ast_structure(ast) == _ast_structure(fresh), lambda: (
                "expressions: the kept AST of an UpdateExpression (%d characters) differs from a fresh parse"
                % len(expression_str)))
        return ast

    return classmethod(make)


def _processing_map_kept(traverser):
    kept = traverser.__dict__.get("_redrive_processing_map")
    if kept is None:
        kept = traverser.__dict__["_redrive_processing_map"] = traverser._processing_map()
    return kept


def _nodes_to_be_processed(self):
    """moto's DepthFirstTraverser.nodes_to_be_processed, on the processor's kept _processing_map()."""
    return tuple(k for k in _processing_map_kept(self).keys())


def _process(self, node):
    """moto's DepthFirstTraverser.process, on the processor's kept _processing_map()."""
    for class_key, processor in _processing_map_kept(self).items():
        if isinstance(node, class_key):
            return processor(node)


def parse_update_expressions_once():
    """Keeps each UpdateExpression's AST and each processor's map; returns "parsed-once", "compare" or "moto"."""
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser

    mode = _serving_mode(EXPRESSIONS_ENV, "parsed-once", "moto's parsing")
    if mode == "moto":
        return "moto"
    objects = _expression_objects()
    unreviewed = _first_unreviewed(objects, REVIEWED_EXPRESSION_SOURCES)
    if unreviewed is None and len(objects) != len(REVIEWED_EXPRESSION_SOURCES):
        unreviewed = "set of DepthFirstTraverser subclasses"
    if unreviewed is not None:
        _warn("moto's %s is not the source that was reviewed; update expressions keep being parsed at every use"
              % unreviewed)
        return "moto"
    UpdateExpressionParser.make = _make_parse_once(
        UpdateExpressionParser.make, UpdateExpressionParser, EXPRESSION_COMPARISON if mode == "compare" else None)
    DepthFirstTraverser.nodes_to_be_processed = _nodes_to_be_processed
    DepthFirstTraverser.process = _process
    return mode


PROFILE_ENV = "REDRIVE_MOTO_PROFILE"


class _Profile:
    """With REDRIVE_MOTO_PROFILE=<file>, a cProfile of every request's handling (under the lock, so one at a time),
    written to that file (pstats format) every 30 s and when the launcher exits; off otherwise. For finding where the
    emulator's CPU goes: python3 -c "import pstats; pstats.Stats('<file>').sort_stats('cumtime').print_stats(40)"."""

    def __init__(self, path, requests_lock):
        import cProfile

        self._path = path
        self._profile = cProfile.Profile()
        self._requests_lock = requests_lock  # dumping stops the profiler: never while a request runs
        threading.Thread(target=self._dump_every, args=(30,), name="profile-dump", daemon=True).start()

    def __enter__(self):
        self._profile.enable()

    def __exit__(self, *exc):
        self._profile.disable()
        return False

    def _dump_every(self, seconds):
        import time

        while True:
            time.sleep(seconds)
            self.dump()

    def dump(self):
        if self._requests_lock.acquire(timeout=5):
            try:
                self._profile.dump_stats(self._path)
            finally:
                self._requests_lock.release()


class _NoProfile:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

    def dump(self):
        pass


def _report_comparisons():
    """In a compare mode, what was compared and how much differed, on stderr (each difference was warned already)."""
    lines = []
    if SERIALIZER_COMPARISON.compared:
        lines.append("serializer answers=%d differing=%d by operation: %s" % (
            sum(SERIALIZER_COMPARISON.compared.values()), sum(SERIALIZER_COMPARISON.differing.values()),
            ", ".join("%s %d" % kv for kv in sorted(SERIALIZER_COMPARISON.compared.items()))))
    for name, comparison in (("query", QUERY_COMPARISON), ("expressions", EXPRESSION_COMPARISON)):
        if comparison.compared:
            lines.append("%s compared=%d differing=%d" % (name, comparison.compared, comparison.differing))
    for line in lines:
        sys.stderr.write("REDRIVE_MOTO_COMPARED %s\n" % line)
    sys.stderr.flush()


def _die_with_parent(profile):
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        try:
            profile.dump()
            _report_comparisons()
        finally:
            os._exit(0)


# ---------------------------------------------------------------------------------------------------------------------
# Memory: moto keeps every DynamoDB item it ever created, until a reset.
#
# moto's BaseModel.__new__ appends every instance of every model to a class-level list (instances_tracked), read only by
# the /moto-api/data.json dashboard and emptied only by /moto-api/reset. DynamoDB creates an Item for every PutItem,
# copies one for every UpdateItem (the stream's old image), copies every item a Query or Scan returns, and, in its own
# transaction rollback, copies every item of every table a transaction names. None of them is ever freed: the process
# grows with every request: O(n^2) with moto's rollback on a growing table (4.0 GB after 2,000 orders of Redrive-shaped
# traffic, 6,001 items held; moto_memory_benchmark.py), O(requests) without it. Nothing but the dashboard reads the
# DynamoDB lists (S3's reset does read its own, FakeKey's: those stay), so the launcher stops tracking DynamoDB's Item
# and StreamRecord, and forgets whatever a transaction registers (copies: moto's own rollback, when it runs, copies
# whole tables). The dashboard then lists no DynamoDB items (nor a table that moto's rollback swapped in), and items are
# freed when their table lets go of them. Installed only on the reviewed source of BaseModel.__new__.
# ---------------------------------------------------------------------------------------------------------------------

REVIEWED_BASE_MODEL_NEW = "08cf0ef20e88029a2eb91949492ce3281001a34b98143db186239962ad379eec"


def stop_tracking_dynamodb_items():
    """Makes moto forget DynamoDB Items and StreamRecords as they are created; returns whether it could."""
    from moto.core.common_models import BaseModel
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import Item
    from moto.dynamodb.models.table import StreamRecord

    if not _is_reviewed_source(BaseModel.__new__, REVIEWED_BASE_MODEL_NEW):
        _warn("moto's BaseModel.__new__ is not the source that was reviewed; moto keeps tracking every DynamoDB item "
              "it creates (its memory grows with every request until a reset)")
        return False
    untracked = (Item, StreamRecord)
    tracking_new = BaseModel.__new__

    def __new__(cls, *args, **kwargs):
        instance = tracking_new(cls, *args, **kwargs)
        if issubclass(cls, untracked):
            tracked = cls.instances_tracked
            if tracked and tracked[-1] is instance:
                tracked.pop()
        return instance

    BaseModel.__new__ = staticmethod(__new__)
    for model in untracked:
        del model.instances_tracked[:]
    DynamoDBBackend.transact_write_items = _forgetting_what_it_registers(DynamoDBBackend.transact_write_items)
    return True


def _forgetting_what_it_registers(transact_write_items):
    """A transaction creates no DynamoDB model worth registering: what moto registers during one is a copy (its own
    rollback deep-copies whole tables, indexes and stream shards included; each would be kept until a reset)."""
    from moto.core.model_instances import model_data

    def forgetting(self, transact_items):
        models = list(model_data["dynamodb"].values())
        registered = [len(model.instances_tracked) for model in models]
        try:
            return transact_write_items(self, transact_items)
        finally:
            for model, n in zip(models, registered):
                del model.instances_tracked[n:]

    return forgetting


# ---------------------------------------------------------------------------------------------------------------------
# Stalls: one request holding the lock stops every other one. A request that holds it longer than
# REDRIVE_MOTO_STALL_SECONDS (60 by default; no request of Redrive's tests needs more than a few) is reported once on
# stdout, in lines that start with REDRIVE_MOTO_STALLED: which request, for how long, and where each thread of the
# launcher stands. The Java side echoes them to its stderr as they come, so a hung local AWS explains itself in the
# build's log instead of in a test's timeout.
# ---------------------------------------------------------------------------------------------------------------------

STALL_ENV = "REDRIVE_MOTO_STALL_SECONDS"
STALLED = "REDRIVE_MOTO_STALLED"


def _stall_seconds():
    try:
        return max(0.1, float(os.environ.get(STALL_ENV, "60")))
    except ValueError:
        _warn("%s=%r is not a number of seconds; stalls are reported after 60 s" % (STALL_ENV, os.environ[STALL_ENV]))
        return 60.0


class _LockHolder:
    """The request that holds the lock, since when, and whether its stall was reported."""

    def __init__(self):
        self.since = None
        self.what = None
        self.reported = False

    def holding(self, environ):
        holder = self

        class Held:
            def __enter__(self):
                holder.what = "%s %s %s" % (environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"),
                                            environ.get("HTTP_X_AMZ_TARGET", ""))
                holder.reported = False
                holder.since = time.monotonic()

            def __exit__(self, *exc):
                holder.since = None
                return False

        return Held()


def _report_stalls(holder, seconds):
    while True:
        time.sleep(min(1.0, seconds / 2))
        since, what = holder.since, holder.what
        if since is None or holder.reported or time.monotonic() - since < seconds:
            continue
        holder.reported = True
        lines = ["a request (%s) has held the lock for %.0f s; every other request waits. Where the launcher's threads "
                 "stand:" % (what.strip(), time.monotonic() - since)]
        frames = sys._current_frames()
        for thread in threading.enumerate():
            frame = frames.get(thread.ident)
            if frame is not None:
                lines.append("thread %s:" % thread.name)
                for entry in traceback.format_stack(frame):
                    lines.extend("  " + line for line in entry.rstrip().splitlines())
        sys.stdout.write("".join("%s %s\n" % (STALLED, line) for line in lines))
        sys.stdout.flush()


HOLD_ENV = "REDRIVE_MOTO_TEST_HOLD"
HOLD_PATH = "/redrive-moto/hold"


def _hold(environ, start_response):
    """With REDRIVE_MOTO_TEST_HOLD=1 (MotoStallTest), POST /redrive-moto/hold?seconds=S holds the lock for S seconds:
    the one request that takes as long as a test needs, to see the stall reported."""
    query = dict(p.split("=", 1) for p in environ.get("QUERY_STRING", "").split("&") if "=" in p)
    time.sleep(float(query.get("seconds", "1")))
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"held"]


def _read_body_first(environ):
    """Replaces the request's input with its body, read in full (by its Content-Length) on the caller's thread."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return  # moto answers a malformed length as it would have
    if length > 0:
        environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(length))


def main():
    try:
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
        from werkzeug.serving import make_server, WSGIRequestHandler
    except ImportError as e:  # the Java side checks first; this is the last line of defence
        sys.stderr.write("REDRIVE_MOTO_MISSING moto server is not importable (%s); pip install 'moto[server]'\n" % e)
        sys.exit(3)

    lock = threading.Lock()
    profile_path = os.environ.get(PROFILE_ENV)
    profile = _Profile(profile_path, lock) if profile_path else _NoProfile()
    threading.Thread(target=_die_with_parent, args=(profile,), name="die-with-parent", daemon=True).start()
    rollback, version = install_transaction_undo_log()
    sys.stdout.write("REDRIVE_MOTO_TRANSACTIONS rollback=%s moto=%s\n" % (rollback, version))
    stop_tracking_dynamodb_items()
    sys.stdout.write("REDRIVE_MOTO_ROUTING modules=%s\n" % list_moto_modules_once())
    sys.stdout.write("REDRIVE_MOTO_SERVING serializer=%s query=%s expressions=%s\n" % (
        compile_dynamodb_serializer(), query_by_key(), parse_update_expressions_once()))

    app = DomainDispatcherApplication(create_backend_app)

    holder = _LockHolder()
    hold_for_tests = os.environ.get(HOLD_ENV) == "1"
    threading.Thread(target=_report_stalls, args=(holder, _stall_seconds()), name="stall-reporter",
                     daemon=True).start()

    def serialized(environ, start_response):
        # The request's body is read before the lock: a client that stops halfway through sending one (a frozen
        # process) keeps only its own thread waiting, never every other request.
        _read_body_first(environ)
        # Hold the lock until the whole response body is produced: moto may build it lazily.
        with lock, profile, holder.holding(environ):
            if hold_for_tests and environ.get("PATH_INFO") == HOLD_PATH:
                return _hold(environ, start_response)
            response = app(environ, start_response)
            try:
                body = b"".join(response)
            finally:
                close = getattr(response, "close", None)
                if close is not None:
                    close()
        return [body]

    class QuietHandler(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    host = os.environ.get("REDRIVE_MOTO_HOST", "127.0.0.1")
    server = make_server(host, 0, serialized, threaded=True, request_handler=QuietHandler)
    os.environ["MOTO_PORT"] = str(server.server_port)
    sys.stdout.write("REDRIVE_MOTO_READY port=%d\n" % server.server_port)
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
