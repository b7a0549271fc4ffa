package dev.redrive.localrun.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.eventsource.EventFilter;
import dev.redrive.localrun.eventsource.FunctionUrlServer;
import dev.redrive.localrun.eventsource.SqsEvents;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localrun.scenario.CheckoutTraffic;
import dev.redrive.localrun.scenario.OrderTraffic;
import dev.redrive.localstack.StreamEvents;
import dev.redrive.localstack.provision.LocalFunction;
import dev.redrive.localstack.provision.LocalQueue;
import dev.redrive.localstack.provision.LocalSchedule;
import dev.redrive.localstack.provision.LocalStreamMapping;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The first event a cold sandbox of one function handles in the start-up benchmark: what its trigger hands it in the
 * local run (an SQS batch of one new order for a consumer, a schedule's event, a {@code POST /orders} through the
 * Function URL, one outbox record of the orders table's stream for the relay), readied before the sandbox starts, and
 * whether the function handled it (a batch with no failed item, a placed order, an answer without error).
 */
public interface FirstEvent {

    /** Invokes the sandbox being measured and waits for its answer. */
    @FunctionalInterface
    interface Invoker {
        InvocationResult invoke(String payload) throws Exception;
    }

    /** One event, ready to be delivered. */
    @FunctionalInterface
    interface Delivery {
        /** Delivers the event through {@code invoke}; empty when the function handled it, else what went wrong. */
        Optional<String> deliver(Invoker invoke) throws Exception;
    }

    /** Readies the next event (outside the measured time). */
    Delivery next() throws Exception;

    /** The first event of {@code handler}'s function in {@code system}. */
    static FirstEvent of(String handler, LocalSystem system, ObjectMapper json) throws IOException {
        LocalFunction f = system.resources().functionWithHandler(handler).orElseThrow();
        if (!system.resources().mappingsOf(f.logicalId()).isEmpty()) {
            return new QueueBatch(system, handler, json);
        }
        if (!system.resources().streamMappingsOf(f.logicalId()).isEmpty()) {
            return new OutboxRecord(
                    system, system.resources().streamMappingsOf(f.logicalId()).get(0), json);
        }
        if (system.resources().urlOf(f.logicalId()).isPresent()) {
            return new PlacedOrder(system, json);
        }
        String input = system.resources().schedules().stream()
                .filter(s -> s.targetFunctionLogicalId().equals(Optional.of(f.logicalId())))
                .map(LocalSchedule::input)
                .filter(i -> !i.isEmpty())
                .findFirst()
                .orElse("{\"source\":\"redrive.local-run\"}");
        return () -> invoke -> answered(invoke.invoke(input), json);
    }

    /** Empty when {@code r} is an answer with no failed batch item, else what it was. */
    static Optional<String> answered(InvocationResult r, ObjectMapper json) throws IOException {
        if (!(r instanceof InvocationResult.Response response)) {
            return Optional.of(r.toString());
        }
        JsonNode body =
                response.body() == null || response.body().isBlank() ? json.nullNode() : json.readTree(response.body());
        JsonNode failures = body.path("batchItemFailures");
        return failures.isArray() && !failures.isEmpty()
                ? Optional.of("failed batch items: " + failures)
                : Optional.empty();
    }

    /** A consumer's batch of one new order, sent to its source queue and received as its mapping receives it. */
    final class QueueBatch implements FirstEvent {
        private final LocalSystem system;
        private final String queueUrl;
        private final String queueArn;
        private final OrderTraffic orders;
        private final ObjectMapper json;

        QueueBatch(LocalSystem system, String handler, ObjectMapper json) {
            this.system = system;
            this.queueUrl = system.sourceQueueUrl(handler);
            this.queueArn = system.resources().queues().values().stream()
                    .filter(q -> q.url().equals(queueUrl))
                    .map(LocalQueue::arn)
                    .findFirst()
                    .orElseThrow();
            this.orders = new OrderTraffic(system.aws().sqs(), 20261205L);
            this.json = json;
        }

        @Override
        public Delivery next() {
            orders.send(orders.newOrders(1, 0, "startup"), List.of(queueUrl));
            List<Message> batch = system.aws()
                    .sqs()
                    .receiveMessage(b -> b.queueUrl(queueUrl)
                            .maxNumberOfMessages(1)
                            .waitTimeSeconds(5)
                            .messageAttributeNames("All")
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                    .messages();
            if (batch.isEmpty()) {
                throw new IllegalStateException("the order sent to " + queueUrl + " could not be received");
            }
            String payload =
                    SqsEvents.event(json, batch, queueArn, system.aws().region().id());
            return invoke -> {
                Optional<String> problem = answered(invoke.invoke(payload), json);
                system.aws()
                        .sqs()
                        .deleteMessage(b ->
                                b.queueUrl(queueUrl).receiptHandle(batch.get(0).receiptHandle()));
                return problem;
            };
        }
    }

    /**
     * A {@code POST /orders} of a new order, signed, through a Function URL served as the local run serves the
     * checkout's, to the sandbox being measured; handled when the order is placed (201).
     */
    final class PlacedOrder implements FirstEvent, AutoCloseable {
        private final AtomicReference<Invoker> current = new AtomicReference<>();
        private final FunctionUrlServer url;
        private final CheckoutTraffic customers;

        PlacedOrder(LocalSystem system, ObjectMapper json) throws IOException {
            this.url = FunctionUrlServer.start(
                    payload -> {
                        try {
                            return current.get().invoke(payload);
                        } catch (InterruptedException e) {
                            throw e;
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    true,
                    1,
                    system.aws().region().id(),
                    dev.redrive.testing.localaws.LocalAws.ACCOUNT_ID);
            this.customers = new CheckoutTraffic(
                    url.url(), system.aws().credentials(), system.aws().region().id(), 20261205L, 1);
            CheckoutTraffic.stock(new dev.redrive.checkout.placing.DynamoDbCheckoutStore(
                    system.aws().dynamoDb(),
                    system.environmentOf(LocalSystem.CHECKOUT).get("REDRIVE_CHECKOUT_ORDERS_TABLE")));
        }

        @Override
        public Delivery next() {
            CheckoutTraffic.Checkout checkout = customers.newCheckout("startup", false);
            String body = customers.body(checkout);
            return invoke -> {
                current.set(invoke);
                HttpResponse<String> r = customers.post(checkout.key(), body);
                return r.statusCode() == 201
                        ? Optional.empty()
                        : Optional.of("POST /orders answered " + r.statusCode() + " " + r.body());
            };
        }

        @Override
        public void close() {
            url.close();
        }
    }

    /**
     * One outbox record of the orders table's stream (an order the checkout placed earlier in the run), filtered as
     * the relay's mapping filters them, each used once.
     */
    final class OutboxRecord implements FirstEvent {
        private final LocalSystem system;
        private final LocalStreamMapping mapping;
        private final String table;
        private final EventFilter filter;
        private final ObjectMapper json;
        private final Set<String> used = new HashSet<>();

        OutboxRecord(LocalSystem system, LocalStreamMapping mapping, ObjectMapper json) {
            this.system = system;
            this.mapping = mapping;
            this.table =
                    system.resources().tables().get(mapping.tableLogicalId()).name();
            this.filter = EventFilter.of(mapping.filterPatterns());
            this.json = json;
        }

        @Override
        public Delivery next() throws IOException {
            for (Record r : StreamEvents.readAll(system.aws(), table)) {
                var lambdaRecord = StreamEvents.lambdaRecord(
                        r, mapping.streamArn(), system.aws().region().id());
                if (filter.matches(json.valueToTree(lambdaRecord))
                        && used.add(r.dynamodb().sequenceNumber())) {
                    String payload = json.writeValueAsString(java.util.Map.of("Records", List.of(lambdaRecord)));
                    return invoke -> answered(invoke.invoke(payload), json);
                }
            }
            throw new IllegalStateException("no unpublished outbox record left in " + table
                    + "'s stream: the relay's starts need the checkout's (start the checkout before the relay)");
        }
    }
}
