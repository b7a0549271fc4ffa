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
"""
import copy
import hashlib
import inspect
import logging
import os
import sys
import threading

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


def _die_with_parent(profile):
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        try:
            profile.dump()
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
# traffic, 6,001 items held; moto_memory_benchmark.py), O(requests) without it. Nothing but the dashboard reads the DynamoDB lists (S3's reset does read its own, FakeKey's: those stay), so
# the launcher stops tracking DynamoDB's Item and StreamRecord, and forgets whatever a transaction registers (copies:
# moto's own rollback, when it runs, copies whole tables). The dashboard then lists no DynamoDB items (nor a table that
# moto's rollback swapped in), and items are freed when their table lets go of them. Installed only on the reviewed
# source of BaseModel.__new__.
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

    app = DomainDispatcherApplication(create_backend_app)

    def serialized(environ, start_response):
        # Hold the lock until the whole response body is produced: moto may build it lazily.
        with lock, profile:
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
