package dev.redrive.checkout.placing;

import dev.redrive.checkout.placing.CheckoutAttempt.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The checkout store in one DynamoDB table ({@code pk}, {@code sk}; its stream carries the outbox to the relay):
 * <ul>
 *   <li>{@code checkout#<key> / attempt}: the attempt (begun or taken over by one UpdateItem, conditional on there
 *       being none or its lease having lapsed, {@code ALL_OLD} on refusal: a duplicate costs no read); in the sparse
 *       index {@value #OPEN_ATTEMPT_INDEX} while unfinished (VOIDING included), for the reconciliation, under the
 *       shard of its key;</li>
 *   <li>{@code sku#<sku> / stock}: available, unit price, currency;</li>
 *   <li>{@code order#<id> / reservation#<sku>}: a line held, confirmed or released (made in one transaction with the
 *       stock decrements, each conditional: all lines or none, once per order);</li>
 *   <li>{@code order#<id> / order} and {@code order#<id> / outbox#<sequence>}: written in one transaction with the
 *       confirmed reservation and the attempt PLACED (the outbox item carries {@code unpublished} until the relay
 *       marks it, which takes it out of the sparse index {@value #UNPUBLISHED_INDEX}), under the shard of its
 *       order.</li>
 * </ul>
 * Both sparse indexes are sharded ({@link IndexShards}): an item's index partition key is its shard, {@code "1"} to
 * {@code "<count>"}, so their writes spread over that many index partitions instead of one; the readers
 * ({@link #unpublished}, {@link #abandoned}) query every shard and merge the answers, oldest first.
 * Times are epoch milliseconds, but for {@value #EXPIRES_AT}, the table's TTL, in epoch seconds ({@link OrderRetention}):
 * written only on a finished attempt (by {@link #finish} and {@link #place}, finished plus its retention) and on a
 * published outbox event (by the mark, its first publication plus its retention); never on an unfinished attempt, an
 * unpublished event, an order, a reservation or stock.
 * A checkout that places an order costs 5 calls: begin, stock read, reservation
 * transaction, authorized, placing transaction.
 */
public final class DynamoDbCheckoutStore implements CheckoutStore, Outbox {

    static final String ATTEMPT = "attempt";
    static final String STOCK = "stock";
    static final String ORDER = "order";
    static final String RESERVATION = "reservation#";
    static final String OUTBOX = "outbox#";
    /** The sparse index of outbox items not yet published: {@code unpublished} (the shard) and {@code createdAt}. */
    public static final String UNPUBLISHED_INDEX = "byUnpublished";
    /** Marks an outbox event published (keeping the first time) and takes it out of {@link #UNPUBLISHED_INDEX}. */
    private static final String MARK = "SET publishedAt = if_not_exists(publishedAt, :now) REMOVE unpublished";
    /** The same, setting the event's expiry too (kept from its first publication, as its time is). */
    private static final String MARK_EXPIRING = "SET publishedAt = if_not_exists(publishedAt, :now), "
            + "expiresAt = if_not_exists(expiresAt, :expires) REMOVE unpublished";
    /** The orders table's TTL attribute, epoch seconds. */
    public static final String EXPIRES_AT = dev.redrive.checkout.CheckoutNames.OrderRetention.ATTRIBUTE;
    /** The sparse index of unfinished attempts: {@code openAttempt} (the shard) and {@code leaseUntil}. */
    public static final String OPEN_ATTEMPT_INDEX = "byOpenAttempt";

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final IndexShards shards;
    private final OrderRetention retention;
    private final Clock clock;

    /** The store in {@code table}, its indexes in {@link IndexShards#DEFAULT} shards, nothing expiring. */
    public DynamoDbCheckoutStore(DynamoDbClient dynamoDb, String table) {
        this(dynamoDb, table, IndexShards.DEFAULT);
    }

    /** The store in {@code table}, its indexes in {@code shards}, nothing expiring. */
    public DynamoDbCheckoutStore(DynamoDbClient dynamoDb, String table, IndexShards shards) {
        this(dynamoDb, table, shards, OrderRetention.NONE, Clock.systemUTC());
    }

    /**
     * The store in {@code table}, its indexes in {@code shards}, its finished attempts and published events expiring
     * after {@code retention}; {@code clock} dates an attempt's finish when no time is passed in ({@link #finish}).
     */
    public DynamoDbCheckoutStore(
            DynamoDbClient dynamoDb, String table, IndexShards shards, OrderRetention retention, Clock clock) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.shards = Objects.requireNonNull(shards, "shards");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Begin begin(String key, String fingerprint, String orderId, Instant now, Duration lease) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":fp", s(fingerprint));
        values.put(":order", s(orderId));
        values.put(":started", s(Status.STARTED.name()));
        values.put(":authorized", s(Status.AUTHORIZED.name()));
        values.put(":now", n(now.toEpochMilli()));
        values.put(":lease", n(now.plus(lease).toEpochMilli()));
        values.put(":zero", n(0));
        values.put(":one", n(1));
        values.put(":open", s(shards.shardOf(key)));
        try {
            Map<String, AttributeValue> item = dynamoDb.updateItem(b -> b.tableName(table)
                            .key(key("checkout#" + key, ATTEMPT))
                            .updateExpression("SET fingerprint = if_not_exists(fingerprint, :fp), "
                                    + "orderId = if_not_exists(orderId, :order), "
                                    + "#status = if_not_exists(#status, :started), "
                                    + "startedAt = if_not_exists(startedAt, :now), leaseUntil = :lease, "
                                    + "#token = if_not_exists(#token, :zero) + :one, openAttempt = :open")
                            .conditionExpression("attribute_not_exists(pk) OR (fingerprint = :fp AND "
                                    + "#status IN (:started, :authorized) AND leaseUntil <= :now)")
                            .expressionAttributeNames(Map.of("#status", "status", "#token", "token"))
                            .expressionAttributeValues(values)
                            .returnValues(ReturnValue.ALL_NEW)
                            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                    .attributes();
            return new Started(attempt(key, item));
        } catch (ConditionalCheckFailedException refused) {
            CheckoutAttempt old = attempt(key, refused.item());
            if (!old.fingerprint().equals(fingerprint)) {
                return new KeyReused(old);
            }
            if (old.status().finished()) {
                return new Finished(old);
            }
            return old.status() == Status.VOIDING ? new Voiding(old) : new InFlight(old);
        }
    }

    @Override
    public Optional<CheckoutAttempt> voiding(String key, long token, Instant now, Duration lease) {
        try {
            Map<String, AttributeValue> item = dynamoDb.updateItem(b -> b.tableName(table)
                            .key(key("checkout#" + key, ATTEMPT))
                            .updateExpression("SET #status = :voiding, #token = #token + :one, leaseUntil = :lease")
                            .conditionExpression("attribute_exists(pk) AND #token = :t AND "
                                    + "#status IN (:started, :authorized, :voiding)")
                            .expressionAttributeNames(Map.of("#status", "status", "#token", "token"))
                            .expressionAttributeValues(Map.of(
                                    ":voiding", s(Status.VOIDING.name()),
                                    ":started", s(Status.STARTED.name()),
                                    ":authorized", s(Status.AUTHORIZED.name()),
                                    ":one", n(1),
                                    ":t", n(token),
                                    ":lease", n(now.plus(lease).toEpochMilli())))
                            .returnValues(ReturnValue.ALL_NEW))
                    .attributes();
            return Optional.of(attempt(key, item));
        } catch (ConditionalCheckFailedException takenOrFinished) {
            return Optional.empty();
        }
    }

    @Override
    public Reservation reserve(String orderId, List<OrderLine> lines, String currency, Instant now) {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        lines.forEach(l -> keys.add(key("sku#" + l.sku(), STOCK)));
        Map<String, Map<String, AttributeValue>> stock = new HashMap<>();
        Map<String, KeysAndAttributes> request = Map.of(
                table,
                KeysAndAttributes.builder().keys(keys).consistentRead(true).build());
        while (!request.isEmpty()) {
            Map<String, KeysAndAttributes> ask = request;
            var answer = dynamoDb.batchGetItem(b -> b.requestItems(ask));
            answer.responses()
                    .getOrDefault(table, List.of())
                    .forEach(i -> stock.put(i.get("pk").s(), i));
            request = answer.unprocessedKeys() == null ? Map.of() : answer.unprocessedKeys();
        }
        List<String> unsold = new ArrayList<>();
        // short as read: no write needed to know it (the transaction below stays the authority for a race)
        List<String> shortAsRead = new ArrayList<>();
        List<PlacedOrder.PricedLine> priced = new ArrayList<>();
        for (OrderLine l : lines) {
            Map<String, AttributeValue> s = stock.get("sku#" + l.sku());
            if (s == null || !currency.equals(s.get("currency").s())) {
                unsold.add(l.sku());
                continue;
            }
            if (number(s, "available") < l.quantity()) {
                shortAsRead.add(l.sku());
            }
            priced.add(new PlacedOrder.PricedLine(l.sku(), l.quantity(), number(s, "unitPriceMinor")));
        }
        List<String> notReservable = unsold.isEmpty() ? shortAsRead : unsold;
        if (!notReservable.isEmpty()) {
            return madeBefore(orderId).orElse(new OutOfStock(notReservable));
        }
        List<TransactWriteItem> writes = new ArrayList<>();
        for (PlacedOrder.PricedLine l : priced) {
            writes.add(TransactWriteItem.builder()
                    .update(u -> u.tableName(table)
                            .key(key("sku#" + l.sku(), STOCK))
                            .updateExpression("SET available = available - :q")
                            .conditionExpression("available >= :q AND currency = :c")
                            .expressionAttributeValues(Map.of(":q", n(l.quantity()), ":c", s(currency))))
                    .build());
            Map<String, AttributeValue> held = new HashMap<>(key("order#" + orderId, RESERVATION + l.sku()));
            held.put("quantity", n(l.quantity()));
            held.put("unitPriceMinor", n(l.unitPriceMinor()));
            held.put("state", s("HELD"));
            held.put("at", n(now.toEpochMilli()));
            writes.add(TransactWriteItem.builder()
                    .put(p -> p.tableName(table).item(held).conditionExpression("attribute_not_exists(pk)"))
                    .build());
        }
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(writes));
            return new Reserved(priced);
        } catch (TransactionCanceledException cancelled) {
            List<CancellationReason> reasons = cancelled.cancellationReasons();
            List<String> short_ = new ArrayList<>();
            for (int i = 0; i < priced.size(); i++) {
                if (failedCondition(reasons, 2 * i + 1)) {
                    // this order's reservation exists: made before (the same checkout, an earlier invocation)
                    return madeBefore(orderId).orElseThrow(() -> cancelled);
                }
                if (failedCondition(reasons, 2 * i)) {
                    short_.add(priced.get(i).sku());
                }
            }
            if (short_.isEmpty()) {
                throw cancelled; // a transaction conflict: TRANSIENT, the client retries with its key
            }
            return new OutOfStock(short_);
        }
    }

    /**
     * One transaction: a check that the attempt is still held with {@code token}, and for each line still held its
     * release and its stock given back (a line released or confirmed meanwhile: read again, at most three times).
     */
    @Override
    public boolean release(String key, long token, String orderId, Instant now) {
        TransactWriteItem fence = TransactWriteItem.builder()
                .conditionCheck(c -> c.tableName(table)
                        .key(key("checkout#" + key, ATTEMPT))
                        .conditionExpression("#token = :t")
                        .expressionAttributeNames(Map.of("#token", "token"))
                        .expressionAttributeValues(Map.of(":t", n(token))))
                .build();
        for (int attempt = 0; attempt < 3; attempt++) {
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(fence);
            for (Map<String, AttributeValue> r : reservations(orderId)) {
                if (!"HELD".equals(r.get("state").s())) {
                    continue;
                }
                String sku = r.get("sk").s().substring(RESERVATION.length());
                writes.add(TransactWriteItem.builder()
                        .update(u -> u.tableName(table)
                                .key(key("order#" + orderId, RESERVATION + sku))
                                .updateExpression("SET #state = :released")
                                .conditionExpression("#state = :held")
                                .expressionAttributeNames(Map.of("#state", "state"))
                                .expressionAttributeValues(Map.of(":released", s("RELEASED"), ":held", s("HELD"))))
                        .build());
                writes.add(TransactWriteItem.builder()
                        .update(u -> u.tableName(table)
                                .key(key("sku#" + sku, STOCK))
                                .updateExpression("SET available = available + :q")
                                .expressionAttributeValues(Map.of(":q", r.get("quantity"))))
                        .build());
            }
            try { // with nothing held, the fence alone: whether the attempt is still ours
                dynamoDb.transactWriteItems(b -> b.transactItems(writes));
                return true;
            } catch (TransactionCanceledException refused) {
                if (failedCondition(refused.cancellationReasons(), 0)) {
                    return false; // another invocation took the attempt over
                }
                // read again: another invocation released or confirmed a line first
            }
        }
        throw new IllegalStateException("the reservation of " + orderId + " changed under three releases in a row");
    }

    @Override
    public boolean authorized(String key, long token, String authorizationId) {
        return update(
                key,
                "SET #status = :authorized, authorizationId = :auth",
                "#token = :t AND #status IN (:started, :authorized)",
                Map.of(
                        ":authorized", s(Status.AUTHORIZED.name()),
                        ":started", s(Status.STARTED.name()),
                        ":auth", s(authorizationId),
                        ":t", n(token)));
    }

    @Override
    public boolean finish(String key, long token, Status status, String reason) {
        if (!status.finished() || status == Status.PLACED) {
            throw new IllegalArgumentException("finish ends an attempt without an order, not as " + status);
        }
        Map<String, AttributeValue> values = new HashMap<>(
                Map.of(":s", s(status.name()), ":r", s(reason), ":t", n(token), ":placed", s(Status.PLACED.name())));
        Optional<Long> expiry = retention.attemptExpiry(clock.instant());
        expiry.ifPresent(e -> values.put(":expires", n(e)));
        return update(
                key,
                "SET #status = :s, reason = :r" + (expiry.isPresent() ? ", expiresAt = :expires" : "")
                        + " REMOVE openAttempt",
                "#token = :t AND #status <> :placed",
                values);
    }

    @Override
    public void letGo(String key, long token, Instant leaseEnd) {
        update(
                key,
                "SET leaseUntil = :end",
                "#token = :t AND #status IN (:started, :authorized, :voiding)",
                Map.of(
                        ":end", n(leaseEnd.toEpochMilli()),
                        ":t", n(token),
                        ":started", s(Status.STARTED.name()),
                        ":authorized", s(Status.AUTHORIZED.name()),
                        ":voiding", s(Status.VOIDING.name())));
    }

    @Override
    public boolean place(String key, long token, PlacedOrder order, OutboxEvent event) {
        List<TransactWriteItem> writes = new ArrayList<>();
        writes.add(TransactWriteItem.builder()
                .put(p -> p.tableName(table).item(orderItem(order)).conditionExpression("attribute_not_exists(pk)"))
                .build());
        writes.add(TransactWriteItem.builder()
                .put(p -> p.tableName(table).item(outboxItem(event)).conditionExpression("attribute_not_exists(pk)"))
                .build());
        for (PlacedOrder.PricedLine l : order.lines()) {
            writes.add(TransactWriteItem.builder()
                    .update(u -> u.tableName(table)
                            .key(key("order#" + order.orderId(), RESERVATION + l.sku()))
                            .updateExpression("SET #state = :confirmed")
                            .conditionExpression("#state = :held")
                            .expressionAttributeNames(Map.of("#state", "state"))
                            .expressionAttributeValues(Map.of(":confirmed", s("CONFIRMED"), ":held", s("HELD"))))
                    .build());
        }
        Map<String, AttributeValue> placing = new HashMap<>(Map.of(
                ":placed", s(Status.PLACED.name()),
                ":auth", s(order.authorizationId()),
                ":t", n(token),
                ":started", s(Status.STARTED.name()),
                ":authorized", s(Status.AUTHORIZED.name())));
        Optional<Long> expiry = retention.attemptExpiry(order.placedAt());
        expiry.ifPresent(e -> placing.put(":expires", n(e)));
        writes.add(TransactWriteItem.builder()
                .update(u -> u.tableName(table)
                        .key(key("checkout#" + key, ATTEMPT))
                        .updateExpression("SET #status = :placed, authorizationId = :auth"
                                + (expiry.isPresent() ? ", expiresAt = :expires" : "") + " REMOVE openAttempt")
                        .conditionExpression("#token = :t AND #status IN (:started, :authorized)")
                        .expressionAttributeNames(Map.of("#status", "status", "#token", "token"))
                        .expressionAttributeValues(placing))
                .build());
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(writes));
            return true;
        } catch (TransactionCanceledException refused) {
            if (refused.cancellationReasons().stream()
                    .anyMatch(r -> r.code() != null
                            && !"None".equals(r.code())
                            && !"ConditionalCheckFailed".equals(r.code()))) {
                throw refused; // a conflict or throttle, not a refusal: TRANSIENT
            }
            return false;
        }
    }

    /** One query per shard of {@value #OPEN_ATTEMPT_INDEX}, merged by lease end. */
    @Override
    public List<CheckoutAttempt> abandoned(Instant leaseEndedBefore, int limit) {
        List<CheckoutAttempt> attempts = new ArrayList<>();
        Iterator<Map<String, AttributeValue>> oldestFirst =
                oldestFirst(OPEN_ATTEMPT_INDEX, "openAttempt", "leaseUntil", leaseEndedBefore, limit);
        while (attempts.size() < limit && oldestFirst.hasNext()) {
            Map<String, AttributeValue> i = oldestFirst.next();
            CheckoutAttempt a = attempt(i.get("pk").s().substring("checkout#".length()), i);
            if (!a.status().finished()) {
                attempts.add(a);
            }
        }
        return attempts;
    }

    /**
     * The items of the sparse index {@code index} whose {@code sortedBy} is before {@code before}, oldest first,
     * across every shard the readers query: one query per shard, each read a page at a time (pages of at most
     * {@code min(limit, 100)}) as the merge needs it.
     */
    private Iterator<Map<String, AttributeValue>> oldestFirst(
            String index, String shardKey, String sortedBy, Instant before, int limit) {
        int page = Math.max(1, Math.min(limit, 100));
        List<Iterator<Map<String, AttributeValue>>> perShard = new ArrayList<>();
        for (String shard : shards.readShards()) {
            perShard.add(dynamoDb.queryPaginator(b -> b.tableName(table)
                            .indexName(index)
                            .keyConditionExpression("#shard = :shard AND #sorted < :before")
                            .expressionAttributeNames(Map.of("#shard", shardKey, "#sorted", sortedBy))
                            .expressionAttributeValues(Map.of(":shard", s(shard), ":before", n(before.toEpochMilli())))
                            .limit(page))
                    .items()
                    .iterator());
        }
        return new ShardMerge(perShard, i -> number(i, sortedBy));
    }

    @Override
    public Optional<PlacedOrder> order(String orderId) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b ->
                        b.tableName(table).key(key("order#" + orderId, ORDER)).consistentRead(true))
                .item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        List<PlacedOrder.PricedLine> lines = new ArrayList<>();
        for (AttributeValue l : item.get("lines").l()) {
            Map<String, AttributeValue> m = l.m();
            lines.add(new PlacedOrder.PricedLine(
                    m.get("sku").s(), (int) number(m, "quantity"), number(m, "unitPriceMinor")));
        }
        return Optional.of(new PlacedOrder(
                orderId,
                item.get("eventId").s(),
                item.get("customerEmail").s(),
                lines,
                number(item, "amountMinor"),
                item.get("currency").s(),
                Instant.ofEpochMilli(number(item, "placedAt")),
                item.get("authorizationId").s()));
    }

    @Override
    public List<OutboxEvent> outbox(String orderId) {
        List<OutboxEvent> events = new ArrayList<>();
        for (Map<String, AttributeValue> i : query(orderId, OUTBOX)) {
            events.add(outboxEvent(i));
        }
        return events;
    }

    /** An outbox item as the table (or its stream) holds it. */
    public static OutboxEvent outboxEvent(Map<String, AttributeValue> item) {
        return new OutboxEvent(
                item.get("orderId").s(),
                number(item, "sequence"),
                item.get("eventId").s(),
                item.get("eventType").s(),
                item.get("payload").s(),
                Instant.ofEpochMilli(number(item, "createdAt")));
    }

    @Override
    public void stock(String sku, long available, long unitPriceMinor, String currency) {
        Map<String, AttributeValue> item = new HashMap<>(key("sku#" + sku, STOCK));
        item.put("available", n(available));
        item.put("unitPriceMinor", n(unitPriceMinor));
        item.put("currency", s(currency));
        dynamoDb.putItem(b -> b.tableName(table).item(item));
    }

    @Override
    public long available(String sku) {
        Map<String, AttributeValue> item = dynamoDb.getItem(
                        b -> b.tableName(table).key(key("sku#" + sku, STOCK)).consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? 0 : number(item, "available");
    }

    @Override
    public void markPublished(String orderId, long sequence, Instant now) {
        try {
            dynamoDb.updateItem(b -> b.tableName(table)
                    .key(outboxKey(orderId, sequence))
                    .updateExpression(mark())
                    .conditionExpression("attribute_exists(pk)")
                    .expressionAttributeValues(markValues(now)));
        } catch (ConditionalCheckFailedException noSuchEvent) {
            throw new IllegalArgumentException("no outbox event " + sequence + " of order " + orderId);
        }
    }

    /** One TransactWriteItems of the marks (at most 100), each conditional on its event existing. */
    @Override
    public void markAllPublished(List<OutboxEvent> events, Instant now) {
        if (events.isEmpty()) {
            return;
        }
        if (events.size() == 1) {
            markPublished(events.get(0).orderId(), events.get(0).sequence(), now);
            return;
        }
        if (events.size() > 100) {
            throw new IllegalArgumentException("at most 100 marks go in one transaction, not " + events.size());
        }
        List<TransactWriteItem> writes = new ArrayList<>();
        for (OutboxEvent e : events) {
            writes.add(TransactWriteItem.builder()
                    .update(u -> u.tableName(table)
                            .key(outboxKey(e.orderId(), e.sequence()))
                            .updateExpression(mark())
                            .conditionExpression("attribute_exists(pk)")
                            .expressionAttributeValues(markValues(now)))
                    .build());
        }
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(writes));
        } catch (TransactionCanceledException cancelled) {
            List<CancellationReason> reasons = cancelled.cancellationReasons();
            for (int i = 0; i < events.size(); i++) {
                if (failedCondition(reasons, i)) {
                    throw new IllegalArgumentException(
                            "no outbox event " + events.get(i).sequence() + " of order "
                                    + events.get(i).orderId());
                }
            }
            throw cancelled;
        }
    }

    /** One query per shard of {@value #UNPUBLISHED_INDEX}, merged by the time written. */
    @Override
    public List<OutboxEvent> unpublished(Instant writtenBefore, int limit) {
        List<OutboxEvent> events = new ArrayList<>();
        Iterator<Map<String, AttributeValue>> oldestFirst =
                oldestFirst(UNPUBLISHED_INDEX, "unpublished", "createdAt", writtenBefore, limit);
        while (events.size() < limit && oldestFirst.hasNext()) {
            events.add(outboxEvent(oldestFirst.next()));
        }
        return events;
    }

    @Override
    public Optional<Instant> publishedAt(String orderId, long sequence) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b ->
                        b.tableName(table).key(outboxKey(orderId, sequence)).consistentRead(true))
                .item();
        return item == null || !item.containsKey("publishedAt")
                ? Optional.empty()
                : Optional.of(Instant.ofEpochMilli(number(item, "publishedAt")));
    }

    /** The mark's update: with the event's expiry when published events expire. */
    private String mark() {
        return retention.publishedEvents().isPresent() ? MARK_EXPIRING : MARK;
    }

    private Map<String, AttributeValue> markValues(Instant now) {
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":now", n(now.toEpochMilli())));
        retention.eventExpiry(now).ifPresent(e -> values.put(":expires", n(e)));
        return values;
    }

    private static Map<String, AttributeValue> outboxKey(String orderId, long sequence) {
        return key("order#" + orderId, OUTBOX + String.format("%010d", sequence));
    }

    /** The reservation made for {@code orderId} before: {@link Reserved} at its prices, {@link Released}, or none. */
    private Optional<Reservation> madeBefore(String orderId) {
        List<Map<String, AttributeValue>> items = reservations(orderId);
        if (items.isEmpty()) {
            return Optional.empty();
        }
        if (items.stream().anyMatch(r -> "RELEASED".equals(r.get("state").s()))) {
            return Optional.of(new Released());
        }
        List<PlacedOrder.PricedLine> lines = new ArrayList<>();
        for (Map<String, AttributeValue> r : items) {
            lines.add(new PlacedOrder.PricedLine(
                    r.get("sk").s().substring(RESERVATION.length()),
                    (int) number(r, "quantity"),
                    number(r, "unitPriceMinor")));
        }
        return Optional.of(new Reserved(lines));
    }

    private List<Map<String, AttributeValue>> reservations(String orderId) {
        return query(orderId, RESERVATION);
    }

    private List<Map<String, AttributeValue>> query(String orderId, String prefix) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (var page : dynamoDb.queryPaginator(b -> b.tableName(table)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", s("order#" + orderId), ":prefix", s(prefix)))
                .consistentRead(true))) {
            items.addAll(page.items());
        }
        return items;
    }

    private boolean update(String key, String update, String condition, Map<String, AttributeValue> values) {
        try {
            dynamoDb.updateItem(b -> b.tableName(table)
                    .key(key("checkout#" + key, ATTEMPT))
                    .updateExpression(update)
                    .conditionExpression("attribute_exists(pk) AND " + condition)
                    .expressionAttributeNames(Map.of("#status", "status", "#token", "token"))
                    .expressionAttributeValues(values));
            return true;
        } catch (ConditionalCheckFailedException notHeld) {
            return false;
        }
    }

    private static Map<String, AttributeValue> orderItem(PlacedOrder order) {
        Map<String, AttributeValue> item = new HashMap<>(key("order#" + order.orderId(), ORDER));
        item.put("orderId", s(order.orderId()));
        item.put("eventId", s(order.eventId()));
        item.put("status", s("PLACED"));
        item.put("customerEmail", s(order.customerEmail()));
        List<AttributeValue> lines = new ArrayList<>();
        for (PlacedOrder.PricedLine l : order.lines()) {
            Map<String, AttributeValue> m = new LinkedHashMap<>();
            m.put("sku", s(l.sku()));
            m.put("quantity", n(l.quantity()));
            m.put("unitPriceMinor", n(l.unitPriceMinor()));
            lines.add(AttributeValue.fromM(m));
        }
        item.put("lines", AttributeValue.fromL(lines));
        item.put("amountMinor", n(order.amountMinor()));
        item.put("currency", s(order.currency()));
        item.put("placedAt", n(order.placedAt().toEpochMilli()));
        item.put("authorizationId", s(order.authorizationId()));
        return item;
    }

    /** The outbox item of {@code e}, as {@link #place} writes it (in its shard of {@value #UNPUBLISHED_INDEX}). */
    Map<String, AttributeValue> outboxItem(OutboxEvent e) {
        Map<String, AttributeValue> item = new HashMap<>(outboxKey(e.orderId(), e.sequence()));
        item.put("orderId", s(e.orderId()));
        item.put("sequence", n(e.sequence()));
        item.put("eventId", s(e.eventId()));
        item.put("eventType", s(e.eventType()));
        item.put("payload", s(e.payload()));
        item.put("createdAt", n(e.createdAt().toEpochMilli()));
        item.put("unpublished", s(shards.shardOf(e.orderId())));
        return item;
    }

    private static CheckoutAttempt attempt(String key, Map<String, AttributeValue> item) {
        return new CheckoutAttempt(
                key,
                item.get("fingerprint").s(),
                item.get("orderId").s(),
                Status.valueOf(item.get("status").s()),
                number(item, "token"),
                Instant.ofEpochMilli(number(item, "leaseUntil")),
                item.containsKey("authorizationId")
                        ? item.get("authorizationId").s()
                        : null,
                item.containsKey("reason") ? item.get("reason").s() : null,
                Instant.ofEpochMilli(number(item, "startedAt")));
    }

    private static boolean failedCondition(List<CancellationReason> reasons, int index) {
        return reasons != null
                && index < reasons.size()
                && "ConditionalCheckFailed".equals(reasons.get(index).code());
    }

    static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("pk", s(pk), "sk", s(sk));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        return Long.parseLong(item.get(name).n());
    }
}
