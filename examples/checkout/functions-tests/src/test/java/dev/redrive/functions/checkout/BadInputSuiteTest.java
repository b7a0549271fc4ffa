package dev.redrive.functions.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.claims.DynamoDbDeadLetterNotes;
import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.aws.payload.S3ClaimChecks;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsDeadLetterSource;
import dev.redrive.aws.queues.SqsQueueGateway;
import dev.redrive.checkout.CheckoutDeployment;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.consumer.QueueGateway;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.quarkus.IdempotentSqsHandler;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The bad-input suite: every case of {@code bad-input/cases.json} (one data file; add a case there) is sent in a batch
 * with two valid orders through both checkout handlers, in-process on local AWS (claims and revenue on DynamoDB, the
 * email outbox and dead-letter claim checks on S3, the queues on SQS). For each case it asserts the outcome (dead-
 * lettered with the expected class and errorType, or accepted when the input is legal), that nothing was retried or
 * left failing, and that no reason and no log line holds personal data or a raw control character; over the run, that
 * every valid order was applied exactly once (one email object per key, the revenue counter's sum) and every dead
 * letter reached its DLQ. It prints a table of the cases by outcome.
 */
@LocalAwsTest(resetBeforeEach = true)
class BadInputSuiteTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Pattern REPEAT = Pattern.compile("\\$\\{repeat:(\\d+):(.*?)}");
    static final List<String> ALWAYS_PII = List.of("jane.doe@example.com", "Jane Doe");
    static final long VALID_A = 100;
    static final long VALID_B = 250;

    final LocalAws aws = LocalAws.shared();

    /** A dead letter or a failed send, as the handler's gateway saw it. */
    static final class RecordingGateway implements QueueGateway {
        final QueueGateway delegate;
        final Map<String, DeadLetter> deadLetters = new ConcurrentHashMap<>();
        final Set<String> failedSends = ConcurrentHashMap.newKeySet();

        RecordingGateway(QueueGateway delegate) {
            this.delegate = delegate;
        }

        @Override
        public Set<String> changeVisibility(String sourceQueue, List<VisibilityChange> changes) {
            return delegate.changeVisibility(sourceQueue, changes);
        }

        @Override
        public Set<String> deadLetter(String sourceQueue, List<DeadLetter> letters) {
            letters.forEach(l -> deadLetters.put(l.message().messageId(), l));
            Set<String> failed = delegate.deadLetter(sourceQueue, letters);
            failedSends.addAll(failed);
            return failed;
        }
    }

    record Rig(String name, IdempotentSqsHandler handler, RecordingGateway gateway, LocalResources.QueuePair queue) {}

    record Outcome(String handler, String caseName, String category, String expected, String actual) {}

    @Test
    void everyKindOfBadInputIsRefusedWithItsReasonAndValidOrdersApplyOnce() throws Exception {
        long started = System.nanoTime();
        JsonNode file;
        try (InputStream in = getClass().getResourceAsStream("/bad-input/cases.json")) {
            file = JSON.readTree(in);
        }
        ObjectNode base = (ObjectNode) file.get("base");
        List<JsonNode> cases = new ArrayList<>();
        file.get("cases").forEach(cases::add);
        assertThat(cases).hasSizeGreaterThanOrEqualTo(100);

        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String claimsTable = "bad-claims-" + suffix;
        String revenueTable = "bad-revenue-" + suffix;
        String outbox = "bad-outbox-" + suffix;
        String payloads = "bad-payloads-" + suffix;
        LocalResources.createTable(aws.dynamoDb(), claimsTable);
        LocalResources.createTable(aws.dynamoDb(), revenueTable);
        aws.s3().createBucket(b -> b.bucket(outbox));
        aws.s3().createBucket(b -> b.bucket(payloads));
        CheckoutDeployment checkout = CheckoutDeployment.of(
                JSON, new EventSchemas(), new S3EmailOutbox(aws.s3(), outbox, JSON), revenueTable);
        List<String> emf = Collections.synchronizedList(new ArrayList<>());
        ConsumerMetrics metrics = new ConsumerMetrics(new EmfOutput(emf::add));
        RedriveSettings config = config(Duration.ofSeconds(3));

        List<Rig> rigs = new ArrayList<>();
        for (String name : List.of("confirmation-email", "revenue-analytics")) {
            LocalResources.QueuePair queue = LocalResources.createQueuePair(aws, "bad-" + name + "-" + suffix, 5, 30);
            RecordingGateway gateway = new RecordingGateway(new SqsQueueGateway(
                    aws.sqs(),
                    new QueueDirectory(aws.sqs(), java.util.Optional.of(queue.dlqUrl())), // as the IaC sets it
                    new S3ClaimChecks(aws.s3(), payloads),
                    new SqsQueueGateway.Notes(
                            new DynamoDbDeadLetterNotes(aws.dynamoDb(), claimsTable),
                            LeasePolicy.DEFAULT.recordTtl(),
                            Clock.systemUTC())));
            MessageProcessor processor = new MessageProcessor(
                    new DynamoDbClaimStore(aws.dynamoDb(), claimsTable),
                    LeasePolicy.DEFAULT,
                    new FullJitterBackoff(Duration.ofSeconds(2), 2, Duration.ofMinutes(15)),
                    new Mulberry32(17),
                    Clock.systemUTC(),
                    ProcessingListener.NONE);
            BatchProcessor batches = new BatchProcessor(processor, gateway, 4);
            IdempotentSqsHandler handler = name.equals("confirmation-email")
                    ? new ConfirmationEmailHandler(batches, config, metrics, checkout.email())
                    : new RevenueAnalyticsHandler(batches, config, metrics, checkout.revenue());
            rigs.add(new Rig(name, handler, gateway, queue));
        }

        List<String> logs = Collections.synchronizedList(new ArrayList<>());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                String message = r.getMessage();
                if (r.getParameters() != null && r.getParameters().length > 0 && message != null) {
                    try {
                        message = String.format(message, r.getParameters());
                    } catch (RuntimeException notAFormat) {
                        message = message + " " + java.util.Arrays.toString(r.getParameters());
                    }
                }
                logs.add(message);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger redrive = Logger.getLogger("dev.redrive");
        redrive.addHandler(capture);

        List<Outcome> outcomes = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Integer> acceptedByHandler = new HashMap<>();
        long acceptedRevenueMinor = 0;
        int logLinesChecked = 0;
        try {
            for (int i = 0; i < cases.size(); i++) {
                JsonNode c = cases.get(i);
                String name = c.get("name").asText();
                String body = body(base, c, i);
                List<String> pii = new ArrayList<>(ALWAYS_PII);
                c.path("pii").forEach(p -> pii.add(p.asText()));
                for (Rig rig : rigs) {
                    int logsBefore = logs.size();
                    String expected = c.path(rig.name().equals("confirmation-email") ? "expectEmail" : "expectRevenue")
                            .asText(c.path("expect").asText());
                    String badId = "bad-" + i + "-" + rig.name();
                    SQSEvent event = new SQSEvent();
                    event.setRecords(List.of(
                            override(record(badId, body, rig.queue().arn(), attributes(c)), c.path("record")),
                            record(
                                    "ok-a-" + i + "-" + rig.name(),
                                    valid(base, "ok-" + i + "-a", VALID_A),
                                    rig.queue().arn(),
                                    Map.of()),
                            record(
                                    "ok-b-" + i + "-" + rig.name(),
                                    valid(base, "ok-" + i + "-b", VALID_B),
                                    rig.queue().arn(),
                                    Map.of())));

                    SQSBatchResponse response = rig.handler().handleRequest(event, null);

                    List<String> retried = response.getBatchItemFailures().stream()
                            .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                            .toList();
                    QueueGateway.DeadLetter dead = rig.gateway().deadLetters.get(badId);
                    String actual;
                    if (retried.stream().anyMatch(id -> id == null || id.isBlank())) {
                        actual = "WHOLE_BATCH_RETRIED";
                    } else if (retried.contains(badId)) {
                        actual = "RETRIED:"
                                + (dead == null
                                        ? "?"
                                        : dead.failure().classification().errorType());
                    } else if (dead != null) {
                        actual = dead.failure().failureClass() + ":"
                                + dead.failure().classification().errorType();
                    } else {
                        actual = "ACCEPTED";
                    }
                    outcomes.add(
                            new Outcome(rig.name(), name, c.path("category").asText(), expected, actual));
                    if (!actual.equals(expected)) {
                        problems.add(rig.name() + " / " + name + ": expected " + expected + ", got " + actual
                                + (dead == null
                                        ? ""
                                        : " (" + dead.failure().classification().reason() + ")"));
                    }
                    if (actual.equals("ACCEPTED")) {
                        acceptedByHandler.merge(rig.name(), 1, Integer::sum);
                        if (rig.name().equals("revenue-analytics")) {
                            acceptedRevenueMinor += JSON.readTree(body)
                                    .path("total")
                                    .path("amountMinor")
                                    .asLong();
                        }
                    }
                    if (!actual.equals("WHOLE_BATCH_RETRIED")
                            && !retried.stream().allMatch(badId::equals)) {
                        problems.add(rig.name() + " / " + name + ": a valid order was reported failed: " + retried);
                    }
                    for (String id : List.of("ok-a-" + i + "-" + rig.name(), "ok-b-" + i + "-" + rig.name())) {
                        if (rig.gateway().deadLetters.containsKey(id)) {
                            problems.add(rig.name() + " / " + name + ": a valid order was dead-lettered");
                        }
                    }
                    if (dead != null) {
                        String reason = dead.failure().classification().reason();
                        check(problems, rig.name() + " / " + name + ": reason", reason, pii);
                    }
                    List<String> caseLogs;
                    synchronized (logs) {
                        caseLogs = new ArrayList<>(logs.subList(logsBefore, logs.size()));
                    }
                    for (String line : caseLogs) {
                        check(problems, rig.name() + " / " + name + ": log line", line, pii);
                        logLinesChecked++;
                    }
                }
            }
        } finally {
            redrive.removeHandler(capture);
        }

        // Every valid order applied exactly once, every accepted legal input once, nothing else.
        int validOrders = 2 * cases.size();
        List<AttributeValue> counters = new ArrayList<>();
        aws.dynamoDb().scanPaginator(b -> b.tableName(revenueTable)).items().forEach(item -> {
            counters.add(item.get("amountMinor"));
            counters.add(item.get("orders"));
        });
        long countedMinor = 0;
        long countedOrders = 0;
        for (int k = 0; k < counters.size(); k += 2) {
            countedMinor += Long.parseLong(counters.get(k).n());
            countedOrders += Long.parseLong(counters.get(k + 1).n());
        }
        long expectedMinor = cases.size() * (VALID_A + VALID_B) + acceptedRevenueMinor;
        long expectedOrders = validOrders + acceptedByHandler.getOrDefault("revenue-analytics", 0);
        long emails = aws.s3().listObjectsV2Paginator(b -> b.bucket(outbox)).contents().stream()
                .count();
        long expectedEmails = validOrders + acceptedByHandler.getOrDefault("confirmation-email", 0);

        int failedSends = 0;
        int inDlqs = 0;
        int deadLettered = 0;
        for (Rig rig : rigs) {
            failedSends += rig.gateway().failedSends.size();
            deadLettered += rig.gateway().deadLetters.size();
            inDlqs += Integer.parseInt(aws.sqs()
                    .getQueueAttributes(b -> b.queueUrl(rig.queue().dlqUrl())
                            .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    .attributes()
                    .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
        }
        // Every dead letter reads back as the sweeper reads it: with the class and errorType its consumer gave it (from
        // its attribute, or from its note when it had no room), its payload and every attribute with its type.
        List<String> sent = new ArrayList<>();
        List<String> readBack = new ArrayList<>();
        S3ClaimChecks claimChecks = new S3ClaimChecks(aws.s3(), payloads);
        for (Rig rig : rigs) {
            rig.gateway().deadLetters.forEach((id, d) -> {
                if (!rig.gateway().failedSends.contains(id)) {
                    sent.add(letterKey(
                            rig.name(),
                            d.failure().failureClass() + ":"
                                    + d.failure().classification().errorType(),
                            d.message().body(),
                            d.message().delivered()));
                }
            });
            SqsDeadLetterSource source = new SqsDeadLetterSource(
                    aws.sqs(),
                    new QueueDirectory(aws.sqs(), java.util.Optional.empty()),
                    600,
                    new DynamoDbDeadLetterNotes(aws.dynamoDb(), claimsTable),
                    Clock.systemUTC());
            String dlq = QueueAddress.nameOf(rig.queue().dlqUrl());
            for (List<ArrivedDeadLetter> batch = source.receive(dlq); !batch.isEmpty(); batch = source.receive(dlq)) {
                for (ArrivedDeadLetter l : batch) {
                    Map<String, MessageAttribute> attributes = new TreeMap<>(l.attributes());
                    boolean claimCheck = claimChecks.isClaimCheck(l.body(), l.stringAttributes());
                    if (claimCheck) {
                        attributes.remove(ClaimCheckPointer.SIZE_ATTRIBUTE); // the pointer's marker, not the original's
                    }
                    readBack.add(letterKey(
                            rig.name(),
                            l.attached()
                                    .map(a -> a.failure().failureClass() + ":"
                                            + a.failure().classification().errorType())
                                    .orElse("NO_FAILURE_FOUND"),
                            claimCheck ? claimChecks.payloadOf(l.body(), l.stringAttributes()) : l.body(),
                            attributes));
                }
            }
        }
        Collections.sort(sent);
        Collections.sort(readBack);
        long notedLetters = rigs.stream()
                .flatMap(r -> r.gateway().deadLetters.values().stream())
                .filter(d -> d.message().delivered().size() >= 9)
                .count();

        long acceptedBad = outcomes.stream()
                .filter(o -> o.actual().equals("ACCEPTED") && !o.expected().equals("ACCEPTED"))
                .count();
        long bugsTransient = outcomes.stream()
                .filter(o -> o.actual().startsWith("TRANSIENT") || o.actual().startsWith("RETRIED"))
                .count();
        long dirtyReasons =
                problems.stream().filter(p -> p.contains(": reason")).count();
        long dirtyLogs = problems.stream().filter(p -> p.contains(": log line")).count();
        double seconds = (System.nanoTime() - started) / 1e9;

        print(outcomes, cases.size(), acceptedBad, failedSends, bugsTransient, dirtyReasons, dirtyLogs, seconds);
        System.out.printf(
                "valid orders: %d per handler; emails %d (expected %d); revenue %d orders, %d minor (expected %d, %d);"
                        + " dead letters %d, in the DLQs %d, read back with their reason, payload and attributes %d (%d"
                        + " with 9 or 10 attributes of their own); log lines checked %d%n",
                validOrders,
                emails,
                expectedEmails,
                countedOrders,
                countedMinor,
                expectedOrders,
                expectedMinor,
                deadLettered,
                inDlqs,
                readBack.stream().filter(sent::contains).count(),
                notedLetters,
                logLinesChecked);

        assertThat(problems).as("cases whose outcome, reason or logs are wrong").isEmpty();
        assertThat(failedSends).as("dead-letter sends that failed").isZero();
        assertThat(inDlqs).as("every dead letter is in its DLQ").isEqualTo(deadLettered);
        assertThat(readBack)
                .as("every dead letter read back as the sweeper reads it: its reason, payload and attributes")
                .isEqualTo(sent);
        assertThat(emails)
                .as("one email per valid order and per accepted legal input")
                .isEqualTo(expectedEmails);
        assertThat(countedOrders).as("revenue counted once per order").isEqualTo(expectedOrders);
        assertThat(countedMinor).as("revenue summed once per order").isEqualTo(expectedMinor);
        assertThat(logLinesChecked)
                .as("the log capture saw the handlers' lines")
                .isGreaterThan(cases.size());
    }

    /**
     * A dead letter told apart by its handler, its failure, its payload (by digest) and every attribute with its type and
     * value.
     */
    static String letterKey(String handler, String failure, String payload, Map<String, MessageAttribute> attributes) {
        StringBuilder key =
                new StringBuilder(handler).append(' ').append(failure).append(' ');
        try {
            key.append(HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(payload.getBytes(StandardCharsets.UTF_8))));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        new TreeMap<>(attributes)
                .forEach((k, v) -> key.append(' ')
                        .append(k)
                        .append('=')
                        .append(v.dataType())
                        .append(':')
                        .append(
                                v.binaryValue() == null
                                        ? v.stringValue()
                                        : Base64.getEncoder().encodeToString(v.binaryValue())));
        return key.toString();
    }

    /** Personal data, or a raw control/format/separator character, found in {@code text}. */
    static void check(List<String> problems, String where, String text, List<String> pii) {
        if (text == null) {
            return;
        }
        for (String p : pii) {
            if (text.contains(p)) {
                problems.add(where + " holds personal data '" + p + "'");
            }
        }
        for (int k = 0; k < text.length(); k++) {
            char ch = text.charAt(k);
            int type = Character.getType(ch);
            if (Character.isISOControl(ch)
                    || type == Character.FORMAT
                    || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR
                    || type == Character.SURROGATE && !validPair(text, k)) {
                problems.add(where + String.format(" holds a raw U+%04X", (int) ch));
                return;
            }
        }
    }

    private static boolean validPair(String s, int k) {
        char c = s.charAt(k);
        return Character.isHighSurrogate(c)
                ? k + 1 < s.length() && Character.isLowSurrogate(s.charAt(k + 1))
                : k > 0 && Character.isHighSurrogate(s.charAt(k - 1));
    }

    static void print(
            List<Outcome> outcomes,
            int cases,
            long acceptedBad,
            int failedSends,
            long bugsTransient,
            long dirtyReasons,
            long dirtyLogs,
            double seconds) {
        Map<String, int[]> byOutcome = new TreeMap<>();
        for (Outcome o : outcomes) {
            byOutcome.computeIfAbsent(o.actual(), k -> new int[2])[o.handler().equals("confirmation-email") ? 0 : 1]++;
        }
        StringBuilder table = new StringBuilder();
        table.append(String.format("%nbad-input suite: %d cases x 2 handlers, %.1f s%n", cases, seconds));
        table.append(String.format("%-36s %18s %18s%n", "outcome", "confirmation-email", "revenue-analytics"));
        byOutcome.forEach((k, v) -> table.append(String.format("%-36s %18d %18d%n", k, v[0], v[1])));
        table.append(String.format(
                "accepted-as-valid bad inputs: %d; failing dead-letter sends: %d; retried as TRANSIENT: %d; reasons with"
                        + " personal data or raw control characters: %d; such log lines: %d%n",
                acceptedBad, failedSends, bugsTransient, dirtyReasons, dirtyLogs));
        System.out.print(table);
    }

    /** The case's body: base with a fresh event and order id, then the case's edits. */
    static String body(ObjectNode base, JsonNode c, int i) throws Exception {
        if (c.has("raw")) {
            return expand(c.get("raw").asText());
        }
        ObjectNode node = base.deepCopy();
        node.put("eventId", "bad-" + i);
        node.put("orderId", "o-bad-" + i);
        Map<String, String> raw = new LinkedHashMap<>();
        int n = 0;
        for (var it = c.path("set").fields(); it.hasNext(); n++) {
            var e = it.next();
            String placeholder = "@@RAW" + n + "@@";
            raw.put("\"" + placeholder + "\"", expand(e.getValue().asText()));
            put(node, e.getKey(), placeholder);
        }
        for (JsonNode pointer : c.path("remove")) {
            remove(node, pointer.asText());
        }
        String body = JSON.writeValueAsString(node);
        for (Map.Entry<String, String> e : raw.entrySet()) {
            body = body.replace(e.getKey(), e.getValue());
        }
        for (JsonNode r : c.path("replace")) {
            String from = r.get(0).asText();
            if (!body.contains(from)) {
                throw new IllegalStateException("case " + c.get("name") + ": '" + from + "' is not in " + body);
            }
            body = body.replace(from, expand(r.get(1).asText()));
        }
        return body + expand(c.path("append").asText(""));
    }

    static String valid(ObjectNode base, String eventId, long amount) {
        ObjectNode node = base.deepCopy();
        node.put("eventId", eventId);
        node.put("orderId", "o-" + eventId);
        ((ObjectNode) node.get("total")).put("amountMinor", amount);
        return node.toString();
    }

    private static void put(ObjectNode root, String pointer, String value) {
        int at = pointer.lastIndexOf('/');
        JsonNode parent = at == 0 ? root : root.at(pointer.substring(0, at));
        ((ObjectNode) parent).put(pointer.substring(at + 1), value);
    }

    private static void remove(ObjectNode root, String pointer) {
        int at = pointer.lastIndexOf('/');
        JsonNode parent = at == 0 ? root : root.at(pointer.substring(0, at));
        ((ObjectNode) parent).remove(pointer.substring(at + 1));
    }

    static String expand(String text) {
        Matcher m = REPEAT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(2).repeat(Integer.parseInt(m.group(1)))));
        }
        m.appendTail(out);
        return out.toString();
    }

    static Map<String, SQSEvent.MessageAttribute> attributes(JsonNode c) {
        Map<String, SQSEvent.MessageAttribute> attributes = new LinkedHashMap<>();
        for (int k = 0; k < c.path("attributeCount").asInt(0); k++) {
            attributes.put("attr-" + k, attribute("String", "v-" + k, null));
        }
        c.path("attributes").fields().forEachRemaining(e -> {
            JsonNode a = e.getValue();
            attributes.put(
                    e.getKey(),
                    attribute(
                            a.get("type").asText(),
                            a.path("value").asText(null),
                            a.has("base64")
                                    ? Base64.getDecoder().decode(a.get("base64").asText())
                                    : null));
        });
        return attributes;
    }

    private static SQSEvent.MessageAttribute attribute(String type, String value, byte[] binary) {
        SQSEvent.MessageAttribute a = new SQSEvent.MessageAttribute();
        a.setDataType(type);
        a.setStringValue(value);
        if (binary != null) {
            a.setBinaryValue(ByteBuffer.wrap(binary));
        }
        return a;
    }

    static SQSEvent.SQSMessage record(
            String id, String body, String arn, Map<String, SQSEvent.MessageAttribute> attributes) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId(id);
        r.setReceiptHandle("rh-" + id);
        r.setBody(body);
        r.setEventSourceArn(arn);
        r.setAttributes(Map.of("ApproximateReceiveCount", "1"));
        r.setMessageAttributes(attributes);
        return r;
    }

    /** The case's changes to the SQS record itself: a JSON null removes the field. */
    static SQSEvent.SQSMessage override(SQSEvent.SQSMessage r, JsonNode changes) {
        if (changes.has("messageId")) {
            r.setMessageId(
                    changes.get("messageId").isNull()
                            ? null
                            : changes.get("messageId").asText());
        }
        if (changes.has("eventSourceArn")) {
            r.setEventSourceArn(
                    changes.get("eventSourceArn").isNull()
                            ? null
                            : changes.get("eventSourceArn").asText());
        }
        if (changes.has("body")) {
            r.setBody(changes.get("body").isNull() ? null : changes.get("body").asText());
        }
        if (changes.has("attributes") && changes.get("attributes").isNull()) {
            r.setAttributes(null);
        }
        return r;
    }

    /** The settings the handler reads: the defaults, with this deadline margin. */
    static RedriveSettings config(Duration deadlineMargin) {
        return RedriveSettings.fromEnvironment(Map.of("REDRIVE_BATCH_DEADLINE_MARGIN", deadlineMargin.toString()));
    }
}
